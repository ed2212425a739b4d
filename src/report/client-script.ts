import { OTHER_RUN_LOG_MARK } from './mpcbench-view.ts'

/**
 * The page's script (plain ES2017, no library): sorts and filters the task tables and opens a task's trace
 * (ART-E) or run log and judge reasons (MPCBench) from the JSON embedded in the page. A task table sorts and filters
 * all its tasks in memory and lists the matching ones a page at a time (the markup lists the first page).
 */
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var OTHER_RUN_LOG_MARK = ${JSON.stringify(OTHER_RUN_LOG_MARK)};
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
  // The trace of id: one embedded in its compact form (compactTrace: a call's result replaced in place by
  // resultJsonIn or resultTextIn, the index of the tool message holding it) is expanded to the full trace.
  function traceIn(traces, id) {
    var t = traces[id];
    if (!t || t.compactToolResults !== 1) return t;
    var full = {};
    Object.keys(t).forEach(function (k) { if (k !== 'compactToolResults') full[k] = t[k]; });
    full.toolCalls = t.toolCalls.map(function (call) {
      var own = Object.prototype.hasOwnProperty;
      var key = own.call(call, 'resultJsonIn') ? 'resultJsonIn' : own.call(call, 'resultTextIn') ? 'resultTextIn' : null;
      if (key === null) return call;
      var m = t.messages[call[key]];
      var text = m && typeof m.content === 'string' ? m.content : '';
      var result = text;
      if (key === 'resultJsonIn') { try { result = JSON.parse(text); } catch (e) { /* damaged: shown as stored */ } }
      var out = {};
      Object.keys(call).forEach(function (k) { if (k === key) out.result = result; else out[k] = call[k]; });
      return out;
    });
    return full;
  }
  // The LLM judge's verdict on a task as its trace says it; null when the task was not judged.
  function judgeVerdictText(task, judge) {
    var by = judge ? ' (' + judge.model + ')' : '';
    if (task.llmJudgeError !== undefined) return 'error' + by + ': ' + task.llmJudgeError.code + ': ' + task.llmJudgeError.message + ' (no verdict: llmJudgeAccuracy leaves this task out)';
    if (task.llmJudgeCorrect === true) return 'correct' + by + (task.exactMatch ? '' : ', though not an exact match');
    if (task.llmJudgeCorrect === false) return 'not correct' + by + (task.agentAnswer === '' ? ' (no answer: judged without a call)' : task.exactMatch ? ', though an exact match' : '');
    return judge ? 'no verdict' : null;
  }
  function renderTrace(trace, task, traces, judge) {
    var box = el('div', 'trace');
    box.appendChild(el('h4', null, 'Task ' + task.taskId));
    field(box, 'question', task.question);
    field(box, 'ground truth', task.groundTruth);
    var notRun = task.outcome && task.outcome.kind === 'not-run';
    if (notRun) field(box, 'outcome', 'not run: ' + task.outcome.reason + ' (no answer, no score: the metrics leave this task out)');
    else {
      field(box, 'final answer', task.agentAnswer === '' ? '(none)' : task.agentAnswer);
      field(box, 'scores', 'exact match ' + (task.exactMatch ? 'yes' : 'no') + ', semantic ' + task.semanticScore.toFixed(3));
      var verdict = judgeVerdictText(task, judge);
      if (verdict) field(box, 'LLM judge', verdict);
    }
    if (task.sources && task.sources.length) field(box, 'sources', task.sources.join(', '));
    if (task.otelTraceId) field(box, 'OpenTelemetry trace', task.otelTraceId);
    if (Array.isArray(task.trialResults) && task.trialResults.length > 0) {
      box.appendChild(el('h4', null, 'Trials (' + task.trialResults.length + ')'));
      var trials = el('table', 'calls trials');
      var th = el('tr');
      var trialJudged = task.trialResults.some(function (t) { return t.llmJudgeCorrect !== undefined; });
      (trialJudged ? ['trial', 'EM', 'judge', 'semantic', 'answer', 'time ms', 'trace'] : ['trial', 'EM', 'semantic', 'answer', 'time ms', 'trace']).forEach(function (h) { th.appendChild(el('th', null, h)); });
      trials.appendChild(th);
      task.trialResults.forEach(function (t) {
        var tr = el('tr');
        tr.appendChild(el('td', 'num', t.trial));
        var notRun = t.outcome && t.outcome.kind === 'not-run';
        tr.appendChild(el('td', notRun ? null : t.exactMatch ? 'pass' : 'fail', notRun ? 'not run' : t.exactMatch ? '✓' : '✗'));
        if (trialJudged) tr.appendChild(el('td', t.llmJudgeCorrect === undefined ? null : t.llmJudgeCorrect ? 'pass' : 'fail', t.llmJudgeCorrect === undefined ? '-' : t.llmJudgeCorrect ? '✓' : '✗'));
        tr.appendChild(el('td', 'num', typeof t.semanticScore === 'number' ? t.semanticScore.toFixed(3) : '-'));
        tr.appendChild(el('td', null, t.agentAnswer));
        tr.appendChild(el('td', 'num', t.executionTimeMs));
        var cell = el('td');
        var other = traceIn(traces, t.traceId);
        if (other && t.traceId !== task.traceId) cell.appendChild(collapsible('trace', renderMessages(other), false));
        else cell.textContent = t.traceId !== '' && t.traceId === task.traceId && traceIn(traces, t.traceId) ? 'below' : '-';
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
  function judgeBody(box, judge) {
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
  // A file found under the task's name that is another run's (report-data.ts, OtherRunFile): why, first, then the
  // file itself, closed and labelled, never as this run's.
  function otherRun(box, other, what, body) {
    box.appendChild(el('p', 'warn other-run', other.why));
    var inner = el('div');
    body(inner, other.content);
    var d = collapsible(what + ' (not this summary\'s)', inner, false);
    d.className = 'other-run';
    box.appendChild(d);
  }
  function renderJudge(box, task) {
    box.appendChild(el('h4', null, 'Judge ' + task.judgeModel));
    var judge = task.judgeResult;
    if (task.otherJudgeResult) {
      if (task.error) box.appendChild(el('p', 'note', task.error));
      otherRun(box, task.otherJudgeResult, "The other run's judge result", judgeBody);
      return;
    }
    if (!judge) {
      box.appendChild(el('p', 'note', task.error ? task.error : 'Judge result not found.'));
      return;
    }
    judgeBody(box, judge);
  }
  function logBody(box, log) {
    if (log.agent_label) box.appendChild(el('p', 'muted', log.agent_label));
    if (log.otel_trace_id) field(box, 'OpenTelemetry trace', log.otel_trace_id);
    field(box, 'started', log.started_at);
    field(box, 'user prompt', log.user_prompt);
    field(box, 'final answer', log.final_answer === '' ? '(none)' : log.final_answer);
    if (log.rationale) field(box, 'rationale', log.rationale);
    field(box, 'outcome', outcomeText(log.outcome));
    field(box, 'run', log.turns + ' turn(s), ' + log.duration_ms + ' ms, ' + usageText(log.usage));
  }
  function toolTrace(box, log) {
    box.appendChild(el('h4', null, 'Tool trace (' + log.raw_tool_calls.length + ' call(s))'));
    box.appendChild(toolCallTable(log.raw_tool_calls, function (c, i) {
      return { step: i + 1, name: c.tool_name, status: c.status, args: c.arguments, result: c.result };
    }));
    if (log.agent_trace !== undefined) {
      var own = collapsible("The external agent's own trace", pre(log.agent_trace), false);
      own.className = 'agent-trace';
      box.appendChild(own);
    }
  }
  function renderRun(task) {
    var box = el('div', 'trace');
    box.appendChild(el('h4', null, task.taskId + (task.trial === undefined ? '' : ' [trial=' + task.trial + ']') + ' · agent ' + task.agentModel + ' · judge ' + task.judgeModel));
    var log = task.runLog;
    if (!log) {
      if (task.otherRunLog) {
        otherRun(box, task.otherRunLog, "The other run's log", function (inner, other) {
          logBody(inner, other);
          toolTrace(inner, other);
        });
      } else box.appendChild(el('p', 'note', 'Run log not found.'));
      renderJudge(box, task);
      return box;
    }
    logBody(box, log);
    renderJudge(box, task);
    toolTrace(box, log);
    return box;
  }
  var numbers = new Intl.NumberFormat('en-US');
  var collator = new Intl.Collator('en', { numeric: true });
  function thousands(n) { return numbers.format(Math.round(n)); }
  function fixed(n, digits) { return typeof n === 'number' && isFinite(n) ? n.toFixed(digits) : '-'; }
  function td(tr, cls, text, attrs) {
    var cell = el('td', cls, text);
    if (attrs) Object.keys(attrs).forEach(function (name) { cell.setAttribute(name, String(attrs[name])); });
    tr.appendChild(cell);
    return cell;
  }
  function idCell(tr, sortValue, shown, title) {
    var cell = td(tr, 'id', null, { 'data-sort-value': sortValue });
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'open';
    button.setAttribute('aria-expanded', 'false');
    button.title = title;
    button.textContent = '▸';
    cell.appendChild(button);
    cell.appendChild(document.createTextNode(' ' + shown));
  }
  // Each kind of task table, for the tasks its markup does not list (the markup lists the first page:
  // arte-view.ts and mpcbench-view.ts write the same rows). texts: what each column shows (the filter matches it);
  // key: what a sortable column sorts by; pass: the status select's value.
  var KINDS = {
    arte: {
      notRun: function (t) { return t.outcome && t.outcome.kind === 'not-run'; },
      pass: function (t) { return this.notRun(t) ? 'not-run' : t.exactMatch ? '1' : '0'; },
      // The status select: exact match, not run, or (a judged run) where exact match and the judge disagree.
      status: function (t, s) {
        if (s === 'em-not-judge') return !this.notRun(t) && t.exactMatch && t.llmJudgeCorrect === false;
        if (s === 'judge-not-em') return !this.notRun(t) && !t.exactMatch && t.llmJudgeCorrect === true;
        if (s === 'judge-error') return !this.notRun(t) && t.llmJudgeError !== undefined;
        return this.pass(t) === s;
      },
      answer: function (t) {
        if (this.notRun(t)) return '(not run: ' + t.outcome.reason + ')';
        return t.agentAnswer === '' ? '(no answer: ' + (t.outcome ? t.outcome.kind : '') + ')' : t.agentAnswer;
      },
      // As arte-view.ts judgeVerdict: text, class, sort value, title.
      judge: function (t) {
        if (this.notRun(t)) return { text: '-', cls: 'num', sortValue: -1 };
        if (t.llmJudgeError !== undefined) return { text: 'error', cls: 'num warn', sortValue: -0.5, title: t.llmJudgeError.code + ': ' + t.llmJudgeError.message };
        if (t.llmJudgeCorrect === true) return { text: '✓', cls: 'num pass', sortValue: 1 };
        if (t.llmJudgeCorrect === false) return { text: '✗', cls: 'num fail', sortValue: 0 };
        return { text: '-', cls: 'num', sortValue: -1 };
      },
      // The number columns after the answer (a judged run has the judge's verdict after EM).
      fields: function (judged) {
        return judged ? ['exactMatch', 'llmJudge', 'semanticScore', 'executionTimeMs', 'totalTokens'] : ['exactMatch', 'semanticScore', 'executionTimeMs', 'totalTokens'];
      },
      shown: function (t, name) {
        var notRun = this.notRun(t);
        if (name === 'totalTokens') return thousands(t.usage.totalTokens);
        if (name === 'llmJudge') return this.judge(t).text;
        if (notRun) return '-';
        if (name === 'exactMatch') return t.exactMatch ? '✓' : '✗';
        if (name === 'semanticScore') return fixed(t.semanticScore, 3);
        return thousands(t.executionTimeMs);
      },
      sortValue: function (t, name) {
        var notRun = this.notRun(t);
        if (name === 'totalTokens') return t.usage.totalTokens;
        if (name === 'llmJudge') return this.judge(t).sortValue;
        if (notRun) return -1;
        if (name === 'exactMatch') return t.exactMatch ? 1 : 0;
        if (name === 'semanticScore') return t.semanticScore;
        return t.executionTimeMs;
      },
      texts: function (t, judged) {
        var self = this;
        var verdict = this.judge(t);
        return ['▸ ' + t.taskId, t.question, t.groundTruth, this.answer(t)].concat(this.fields(judged).map(function (name) { return self.shown(t, name); }), judged && verdict.title ? [verdict.title] : []);
      },
      key: function (t, col, judged) {
        if (col === 0) return t.taskId;
        return this.sortValue(t, this.fields(judged)[col - 4]);
      },
      row: function (t, i, judged) {
        var notRun = this.notRun(t);
        var tr = el('tr', notRun ? 'task not-run' : 'task');
        tr.setAttribute('data-task-id', t.taskId);
        tr.setAttribute('data-trace-id', t.traceId);
        if (t.otelTraceId) tr.setAttribute('data-otel-trace-id', t.otelTraceId);
        tr.setAttribute('data-pass', this.pass(t));
        tr.setAttribute('data-task-index', String(i));
        idCell(tr, t.taskId, t.taskId, notRun ? 'show the task' : 'show the trace');
        td(tr, null, t.question);
        td(tr, null, t.groundTruth);
        var answer = td(tr);
        if (notRun || t.agentAnswer === '') answer.appendChild(el('span', 'muted', this.answer(t)));
        else answer.textContent = t.agentAnswer;
        var self = this;
        this.fields(judged).forEach(function (name) {
          var cls = 'num';
          var attrs = { 'data-field': name, 'data-sort-value': self.sortValue(t, name) };
          if (name === 'exactMatch' && !notRun) cls = 'num ' + (t.exactMatch ? 'pass' : 'fail');
          if (name === 'llmJudge') {
            var verdict = self.judge(t);
            cls = verdict.cls;
            if (verdict.title) attrs.title = verdict.title;
          }
          td(tr, cls, self.shown(t, name), attrs);
        });
        return tr;
      },
    },
    mpcbench: {
      name: function (t) { return t.trial === undefined ? t.taskId : t.taskId + ' [trial=' + t.trial + ']'; },
      outcome: function (t) { return t.runLog ? t.runLog.outcome.kind : '-'; },
      pass: function (t) { return t.requirements !== null && t.requirements >= 4 ? '1' : '0'; },
      status: function (t, s) { return this.pass(t) === s; },
      texts: function (t) {
        var log = t.runLog;
        return ['▸ ' + this.name(t), t.taskType, t.agentModel, t.judgeModel, t.requirements === null ? '-' : String(t.requirements), t.grounding === null ? '-' : String(t.grounding),
          this.outcome(t) + (t.otherRunLog ? ' ' + OTHER_RUN_LOG_MARK : '') + (t.error === null ? '' : ' ' + t.error), log ? String(log.raw_tool_calls.length) : '-', log ? thousands(log.duration_ms) : '-'];
      },
      key: function (t, col) {
        var log = t.runLog;
        return [this.name(t), t.taskType, t.agentModel, t.judgeModel, t.requirements === null ? -1 : t.requirements, t.grounding === null ? -1 : t.grounding,
          this.outcome(t), log ? log.raw_tool_calls.length : -1, log ? log.duration_ms : -1][col];
      },
      row: function (t, i) {
        var tr = el('tr', 'task');
        tr.setAttribute('data-task-index', String(i));
        tr.setAttribute('data-task-id', t.taskId);
        if (t.otelTraceId) tr.setAttribute('data-otel-trace-id', t.otelTraceId);
        tr.setAttribute('data-pass', this.pass(t));
        var texts = this.texts(t);
        idCell(tr, this.name(t), this.name(t), "show the run log and the judge's reasons");
        td(tr, null, t.taskType);
        td(tr, null, t.agentModel);
        td(tr, null, t.judgeModel);
        td(tr, 'num', texts[4], { 'data-field': 'requirements', 'data-sort-value': this.key(t, 4) });
        td(tr, 'num', texts[5], { 'data-field': 'grounding', 'data-sort-value': this.key(t, 5) });
        var outcome = td(tr, null, this.outcome(t), { 'data-sort-value': this.outcome(t) });
        if (t.otherRunLog) {
          outcome.appendChild(document.createTextNode(' '));
          var mark = el('span', 'note', OTHER_RUN_LOG_MARK);
          mark.setAttribute('data-other-run', 'log');
          mark.title = t.otherRunLog.why;
          outcome.appendChild(mark);
        }
        if (t.error !== null) {
          outcome.appendChild(document.createTextNode(' '));
          outcome.appendChild(el('span', 'fail', t.error));
        }
        td(tr, 'num', texts[7], { 'data-sort-value': this.key(t, 7) });
        td(tr, 'num', texts[8], { 'data-sort-value': this.key(t, 8) });
        return tr;
      },
    },
  };
  function detailFor(bench, index, task) {
    if (bench === 'arte') return renderTrace(traceIn(data.arte[index].traces, task.traceId), task, data.arte[index].traces, data.arte[index].results.llmJudge);
    return renderRun(task);
  }
  function setOpen(button, open) {
    button.setAttribute('aria-expanded', open ? 'true' : 'false');
    button.textContent = open ? '▾' : '▸';
  }
  // One task table: every task stays in memory (sorted and filtered there); the table lists the first rows that
  // match, a page at a time, so a run of thousands of tasks is not laid out row by row.
  Array.prototype.slice.call(document.querySelectorAll('section.bench')).forEach(function (section) {
    var table = section.querySelector('table.tasks');
    if (!table) return;
    var bench = section.getAttribute('data-bench');
    var index = Number(section.getAttribute('data-index'));
    var kind = KINDS[bench];
    var tasks = bench === 'arte' ? data.arte[index].results.taskResults : data.mpcbench[index].tasks;
    // An ART-E run with an LLM judge: its rows have the judge's verdict after EM.
    var judged = table.hasAttribute('data-judged');
    var pageRows = Number(table.getAttribute('data-page-rows')) || 200;
    var tbody = table.tBodies[0];
    var filter = section.querySelector('input.filter');
    var status = section.querySelector('select.status');
    var count = section.querySelector('.count');
    var order = tasks.map(function (t, i) { return i; });
    var matches = order;
    var listed = Math.min(pageRows, tasks.length);
    var built = [];
    var details = {};
    var searchText = [];
    var more = el('div', 'more-rows');
    var moreButton = el('button', 'more');
    var allButton = el('button', 'all');
    moreButton.type = 'button';
    allButton.type = 'button';
    allButton.title = 'listing thousands of rows takes a few seconds; the filter finds a task by its id';
    more.appendChild(moreButton);
    more.appendChild(allButton);
    table.after(more);
    function rowFor(i) {
      var tr = built[i] || (built[i] = kind.row(tasks[i], i, judged));
      setOpen(tr.querySelector('button.open'), details[i] !== undefined);
      return tr;
    }
    // The markup's rows (the first page, in the results' order) stay until the table changes; then rows come from the
    // data, an opened task's detail moving along with its row.
    function render() {
      var rows = document.createDocumentFragment();
      for (var k = 0; k < listed; k++) {
        var i = matches[k];
        rows.appendChild(rowFor(i));
        if (details[i]) rows.appendChild(details[i]);
      }
      tbody.textContent = '';
      tbody.appendChild(rows);
      showCount();
    }
    function showCount() {
      var n = matches.length;
      if (listed === n) count.textContent = n + ' of ' + tasks.length + ' shown';
      else count.textContent = listed + ' of ' + n + ' listed' + (n === tasks.length ? '' : ' (' + n + ' of ' + tasks.length + ' match)') + '; the filter finds a task by its id';
      more.hidden = listed === n;
      moreButton.textContent = 'show ' + Math.min(pageRows, n - listed) + ' more';
      allButton.textContent = 'show all ' + n;
      allButton.hidden = n - listed <= pageRows;
    }
    function search(i) {
      var text = searchText[i];
      if (text === undefined) text = searchText[i] = kind.texts(tasks[i], judged).join('\n').toLowerCase();
      return text;
    }
    function apply() {
      var q = filter.value.trim().toLowerCase();
      var s = status.value;
      matches = q === '' && s === 'all' ? order : order.filter(function (i) {
        return (s === 'all' || kind.status(tasks[i], s)) && (q === '' || search(i).indexOf(q) >= 0);
      });
      listed = Math.min(pageRows, matches.length);
      render();
    }
    filter.addEventListener('input', apply);
    status.addEventListener('change', apply);
    // A browser may restore the filter and the status of a page opened again.
    if (filter.value.trim() !== '' || status.value !== 'all') apply();
    else showCount();
    moreButton.addEventListener('click', function () {
      listed = Math.min(listed + pageRows, matches.length);
      render();
    });
    allButton.addEventListener('click', function () {
      listed = matches.length;
      render();
    });
    tbody.addEventListener('click', function (event) {
      var button = event.target.closest('button.open');
      if (!button) return;
      var tr = button.closest('tr.task');
      var i = Number(tr.getAttribute('data-task-index'));
      if (details[i]) {
        details[i].remove();
        delete details[i];
        setOpen(button, false);
        return;
      }
      var detail = el('tr', 'detail');
      var cell = el('td');
      cell.colSpan = tr.children.length;
      cell.appendChild(detailFor(bench, index, tasks[i]));
      detail.appendChild(cell);
      details[i] = detail;
      tr.after(detail);
      setOpen(button, true);
    });
    var keys = [];
    Array.prototype.slice.call(table.tHead.rows[0].cells).forEach(function (th, col) {
      var type = th.getAttribute('data-sort');
      if (!type) return;
      th.classList.add('sortable');
      th.title = 'sort';
      th.addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        Array.prototype.slice.call(table.tHead.rows[0].cells).forEach(function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        details = {};
        var key = keys[col] || (keys[col] = tasks.map(function (t) {
          var v = kind.key(t, col, judged);
          return type === 'num' ? Number(v) : String(v);
        }));
        order = order.slice().sort(type === 'num'
          ? function (a, b) { return (key[a] - key[b]) * dir; }
          : function (a, b) { return collator.compare(key[a], key[b]) * dir; });
        apply();
      });
    });
  });
})();`
