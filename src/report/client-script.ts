/**
 * The page's script (plain ES2017, no library): sorts and filters the task tables and opens a task's trace
 * (ART-E) or run log and judge reasons (MPCBench) from the JSON embedded in the page.
 */
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function json(value) {
    if (typeof value === 'string') return value;
    var text = JSON.stringify(value, null, 2);
    return text === undefined ? String(value) : text;
  }
  function pre(value, cls) { return el('pre', cls, json(value)); }
  function field(parent, label, value) {
    var p = el('p', 'field');
    p.appendChild(el('b', null, label + ': '));
    p.appendChild(el('span', null, value));
    parent.appendChild(p);
  }
  function contentText(content) {
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) return content.map(function (part) { return part && part.text ? part.text : ''; }).join('');
    return '';
  }
  function collapsible(summary, body, open) {
    var d = el('details');
    if (open) d.open = true;
    d.appendChild(el('summary', null, summary));
    d.appendChild(body);
    return d;
  }
  function outcomeText(o) {
    if (!o) return '-';
    if (o.kind === 'answered') return 'answered (' + o.via + ')';
    if (o.kind === 'max-turns') return 'stopped after ' + o.maxTurns + ' turns without an answer';
    if (o.kind === 'error') return 'error ' + o.code + ': ' + o.message;
    if (o.kind === 'aborted') return 'aborted: ' + o.reason;
    return o.kind;
  }
  function usageText(u) {
    if (!u) return '-';
    var cached = u.cached && u.cached.calls > 0 ? u.cached : null;
    var paid = u.costUsd === null || (cached && cached.costUsd === null) ? null : Math.max(0, u.costUsd - (cached ? cached.costUsd : 0));
    return u.totalTokens + ' tokens (' + u.promptTokens + ' prompt, ' + u.completionTokens + ' completion) in ' + u.calls + ' call(s), cost ' + (paid === null ? 'unknown' : '$' + paid.toFixed(4)) +
      (cached ? ' paid (' + cached.calls + ' call(s) replayed from the cache, ' + (cached.costUsd === null ? 'unknown cost' : '$' + cached.costUsd.toFixed(4) + ' not paid') + ')' : '');
  }
  function toolCallTable(calls, get) {
    var table = el('table', 'calls');
    var head = el('tr');
    ['#', 'tool', 'status', 'arguments', 'result'].forEach(function (h) { head.appendChild(el('th', null, h)); });
    table.appendChild(head);
    calls.forEach(function (call, i) {
      var c = get(call, i);
      var tr = el('tr', 'call');
      tr.appendChild(el('td', 'num', c.step));
      tr.appendChild(el('td', null, c.name));
      tr.appendChild(el('td', c.status === 'ok' || c.status === undefined ? 'pass' : 'fail', c.status === undefined ? 'ok' : c.status + (c.ms === undefined ? '' : ' · ' + c.ms + ' ms')));
      var args = el('td'); args.appendChild(pre(c.args)); tr.appendChild(args);
      var result = el('td'); result.appendChild(collapsible('result', pre(c.result), false)); tr.appendChild(result);
      table.appendChild(tr);
    });
    return table;
  }
  function renderTrace(trace, task, traces) {
    var box = el('div', 'trace');
    box.appendChild(el('h4', null, 'Task ' + task.taskId));
    field(box, 'question', task.question);
    field(box, 'ground truth', task.groundTruth);
    var notRun = task.outcome && task.outcome.kind === 'not-run';
    if (notRun) field(box, 'outcome', 'not run: ' + task.outcome.reason + ' (no answer, no score: the metrics leave this task out)');
    else {
      field(box, 'final answer', task.agentAnswer === '' ? '(none)' : task.agentAnswer);
      field(box, 'scores', 'exact match ' + (task.exactMatch ? 'yes' : 'no') + ', semantic ' + task.semanticScore.toFixed(3));
    }
    if (task.sources && task.sources.length) field(box, 'sources', task.sources.join(', '));
    if (Array.isArray(task.trialResults) && task.trialResults.length > 0) {
      box.appendChild(el('h4', null, 'Trials (' + task.trialResults.length + ')'));
      var trials = el('table', 'calls trials');
      var th = el('tr');
      ['trial', 'EM', 'semantic', 'answer', 'time ms', 'trace'].forEach(function (h) { th.appendChild(el('th', null, h)); });
      trials.appendChild(th);
      task.trialResults.forEach(function (t) {
        var tr = el('tr');
        tr.appendChild(el('td', 'num', t.trial));
        var notRun = t.outcome && t.outcome.kind === 'not-run';
        tr.appendChild(el('td', notRun ? null : t.exactMatch ? 'pass' : 'fail', notRun ? 'not run' : t.exactMatch ? '✓' : '✗'));
        tr.appendChild(el('td', 'num', typeof t.semanticScore === 'number' ? t.semanticScore.toFixed(3) : '-'));
        tr.appendChild(el('td', null, t.agentAnswer));
        tr.appendChild(el('td', 'num', t.executionTimeMs));
        var cell = el('td');
        var other = traces[t.traceId];
        if (other && t.traceId !== task.traceId) cell.appendChild(collapsible('trace', renderMessages(other), false));
        else cell.textContent = t.traceId !== '' && t.traceId === task.traceId && traces[t.traceId] ? 'below' : '-';
        tr.appendChild(cell);
        trials.appendChild(tr);
      });
      box.appendChild(trials);
    }
    if (notRun) return box;
    if (!trace) {
      box.appendChild(el('p', 'note', task.traceId === ''
        ? 'This task has no trace (its test ended before the agent run did).'
        : 'This page holds no trace for trace id ' + task.traceId + ' (see the notes above); agent-bench trace ' + task.traceId + ' prints a stored trace.'));
      return box;
    }
    field(box, 'model', trace.model + (trace.modelKind === 'baseline' ? ' (baseline, not an LLM)' : ''));
    field(box, 'outcome', outcomeText(trace.outcome));
    field(box, 'run', trace.turns + ' turn(s), ' + trace.durationMs + ' ms, ' + usageText(trace.usage));
    box.appendChild(renderMessages(trace));
    return box;
  }
  function renderMessages(trace) {
    var box = el('div', 'messages-box');
    box.appendChild(el('h4', null, 'Messages (' + trace.messages.length + ')'));
    var list = el('ol', 'messages');
    trace.messages.forEach(function (m) {
      var li = el('li', 'msg role-' + m.role);
      li.appendChild(el('b', 'role', m.role + (m.role === 'tool' ? ' [' + m.tool_call_id + ']' : '')));
      var text = contentText(m.content);
      if (text !== '') li.appendChild(m.role === 'system' ? collapsible('system prompt', pre(text), false) : pre(text));
      if (m.tool_calls) m.tool_calls.forEach(function (call) {
        if (call.type === 'function' || call.function) {
          var args = call.function.arguments;
          try { args = JSON.stringify(JSON.parse(args)); } catch (e) { /* not JSON: shown as sent */ }
          li.appendChild(el('div', 'tool-call', '→ ' + call.function.name + '(' + args + ') [' + call.id + ']'));
        }
      });
      list.appendChild(li);
    });
    box.appendChild(list);
    box.appendChild(el('h4', null, 'Tool calls (' + trace.toolCalls.length + ')'));
    box.appendChild(toolCallTable(trace.toolCalls, function (c) {
      return { step: c.turn, name: c.name, status: c.status, ms: c.durationMs, args: c.arguments, result: c.result };
    }));
    return box;
  }
  function renderJudge(box, task) {
    box.appendChild(el('h4', null, 'Judge ' + task.judgeModel));
    var judge = task.judgeResult;
    if (!judge) {
      box.appendChild(el('p', 'note', task.error ? task.error : 'Judge result not found.'));
      return;
    }
    if (judge.judge_label) box.appendChild(el('p', 'muted', judge.judge_label));
    if (judge.kind === 'scored') {
      ['answer_requirements_satisfaction', 'source_grounded_reasoning'].forEach(function (axis) {
        var a = judge[axis];
        var div = el('div', 'axis');
        div.appendChild(el('b', null, axis + ': ' + a.score + '/5'));
        div.appendChild(el('p', 'justification', a.justification));
        box.appendChild(div);
      });
    } else {
      box.appendChild(el('p', 'fail', 'judge error ' + judge.error.code + ': ' + judge.error.message));
      judge.error.replies.forEach(function (r, i) { box.appendChild(collapsible('reply ' + (i + 1), pre(r), false)); });
    }
  }
  function renderRun(task) {
    var box = el('div', 'trace');
    box.appendChild(el('h4', null, task.taskId + (task.trial === undefined ? '' : ' [trial=' + task.trial + ']') + ' · agent ' + task.agentModel + ' · judge ' + task.judgeModel));
    var log = task.runLog;
    if (!log) {
      box.appendChild(el('p', 'note', 'Run log not found.'));
      renderJudge(box, task);
      return box;
    }
    if (log.agent_label) box.appendChild(el('p', 'muted', log.agent_label));
    field(box, 'user prompt', log.user_prompt);
    field(box, 'final answer', log.final_answer === '' ? '(none)' : log.final_answer);
    if (log.rationale) field(box, 'rationale', log.rationale);
    field(box, 'outcome', outcomeText(log.outcome));
    field(box, 'run', log.turns + ' turn(s), ' + log.duration_ms + ' ms, ' + usageText(log.usage));
    renderJudge(box, task);
    box.appendChild(el('h4', null, 'Tool trace (' + log.raw_tool_calls.length + ' call(s))'));
    box.appendChild(toolCallTable(log.raw_tool_calls, function (c, i) {
      return { step: i + 1, name: c.tool_name, status: c.status, args: c.arguments, result: c.result };
    }));
    return box;
  }
  function detailFor(section, tr) {
    var bench = section.getAttribute('data-bench');
    var index = Number(section.getAttribute('data-index'));
    if (bench === 'arte') {
      var part = data.arte[index];
      var id = tr.getAttribute('data-task-id');
      var task = part.results.taskResults.filter(function (t) { return t.taskId === id && t.traceId === tr.getAttribute('data-trace-id'); })[0];
      return renderTrace(part.traces[task.traceId], task, part.traces);
    }
    return renderRun(data.mpcbench[index].tasks[Number(tr.getAttribute('data-task-index'))]);
  }
  function toggle(section, tr, button) {
    var next = tr.nextElementSibling;
    if (next && next.classList.contains('detail')) {
      next.remove();
      button.setAttribute('aria-expanded', 'false');
      button.textContent = '▸';
      return;
    }
    var detail = el('tr', 'detail');
    var td = el('td');
    td.colSpan = tr.children.length;
    td.appendChild(detailFor(section, tr));
    detail.appendChild(td);
    tr.after(detail);
    button.setAttribute('aria-expanded', 'true');
    button.textContent = '▾';
  }
  function closeAll(tbody) {
    Array.prototype.slice.call(tbody.querySelectorAll('tr.detail')).forEach(function (d) { d.remove(); });
    Array.prototype.slice.call(tbody.querySelectorAll('button.open')).forEach(function (b) { b.setAttribute('aria-expanded', 'false'); b.textContent = '▸'; });
  }
  Array.prototype.slice.call(document.querySelectorAll('section.bench')).forEach(function (section) {
    var table = section.querySelector('table.tasks');
    if (!table) return;
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.querySelectorAll('tr.task'));
    var filter = section.querySelector('input.filter');
    var status = section.querySelector('select.status');
    var count = section.querySelector('.count');
    function apply() {
      var q = filter.value.trim().toLowerCase();
      var s = status.value;
      var shown = 0;
      rows.forEach(function (tr) {
        var ok = (q === '' || tr.textContent.toLowerCase().indexOf(q) >= 0) && (s === 'all' || tr.getAttribute('data-pass') === s);
        tr.hidden = !ok;
        var next = tr.nextElementSibling;
        if (next && next.classList.contains('detail')) next.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + ' of ' + rows.length + ' shown';
    }
    filter.addEventListener('input', apply);
    status.addEventListener('change', apply);
    apply();
    tbody.addEventListener('click', function (event) {
      var button = event.target.closest('button.open');
      if (!button) return;
      toggle(section, button.closest('tr.task'), button);
    });
    Array.prototype.slice.call(table.tHead.rows[0].cells).forEach(function (th, col) {
      var type = th.getAttribute('data-sort');
      if (!type) return;
      th.classList.add('sortable');
      th.title = 'sort';
      th.addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        Array.prototype.slice.call(table.tHead.rows[0].cells).forEach(function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        closeAll(tbody);
        function key(tr) {
          var cell = tr.cells[col];
          var v = cell.getAttribute('data-sort-value');
          if (v === null) v = cell.textContent;
          return type === 'num' ? Number(v) : v;
        }
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          var c = type === 'num' ? x - y : String(x).localeCompare(String(y), 'en', { numeric: true });
          return c * dir;
        });
        rows.forEach(function (tr) { tbody.appendChild(tr); });
      });
    });
  });
})();`
