/**
 * A tiny workplace written by hand for tests (not upstream data): three people, a time zone edge
 * (an event at 23:30 UTC), an organizer who is not an attendee, and a free_busy-only interval.
 */
export const FIXTURE_SOURCES = {
  slack: {
    workspace_name: 'Acme',
    channels: [
      { id: 'C1', name: 'launch' },
      { id: 'C2', name: 'random' },
    ],
    users: [
      { id: 'U1', name: 'Ana Lima', email: 'ana@acme.test' },
      { id: 'U2', name: 'Bo Chen', email: 'bo@acme.test' },
    ],
    messages: [
      { id: 'S1', channel_id: 'C1', user_id: 'U1', text: 'Launch review moved to Thursday', timestamp: '2025-03-03T23:30:00Z' },
      { id: 'S2', channel_id: 'C2', user_id: 'U2', text: 'Lunch anyone?', timestamp: '1741050000.000200' },
      {
        id: 'S3',
        channel_id: 'C1',
        user_id: 'U2',
        text: 'Thursday works for the launch review',
        timestamp: '2025-03-04T10:00:00+09:00',
        thread_ts: '2025-03-03T23:30:00Z',
      },
    ],
  },
  gmail: {
    threads: [
      {
        id: 'T1',
        subject: 'Launch checklist',
        messages: [
          {
            id: 'E1',
            from: 'Ana Lima <ana@acme.test>',
            to: ['bo@acme.test'],
            subject: 'Launch checklist',
            body: 'Draft attached.',
            date: '2025-03-03T09:00:00+09:00',
          },
          {
            id: 'E2',
            from: 'bo@acme.test',
            to: ['ana@acme.test'],
            cc: ['cy@partner.test'],
            subject: 'Re: Launch checklist',
            body: 'Looks good.',
            date: '2025-03-05T09:00:00+09:00',
          },
        ],
      },
    ],
  },
  calendar: {
    events: [
      {
        id: 'V1',
        title: 'Launch review',
        start: '2025-03-03T23:30:00Z',
        end: '2025-03-04T00:30:00Z',
        attendees: [{ email: 'ana@acme.test' }, { email: 'bo@acme.test' }],
      },
      {
        id: 'V2',
        title: 'Partner call',
        start: '2025-03-04T14:00:00+09:00',
        end: '2025-03-04T15:00:00+09:00',
        attendees: [{ email: 'cy@partner.test' }],
        organizer: { email: 'bo@acme.test', name: 'Bo Chen' },
      },
      { id: 'V3', title: 'Saturday offsite', start: '2025-03-08T10:00:00+09:00', end: '2025-03-08T16:00:00+09:00', attendees: [{ email: 'ana@acme.test' }] },
    ],
    calendars: [
      { id: 'cal_ana', email: 'ana@acme.test' },
      { id: 'cal_bo', email: 'bo@acme.test' },
    ],
    free_busy: [{ email: 'ana@acme.test', time_slots: [{ start: '2025-03-05T09:00:00+09:00', end: '2025-03-05T12:00:00+09:00' }] }],
  },
  contacts: {
    contacts: [
      { id: 'P1', name: 'Ana Lima', email: 'ana@acme.test' },
      { id: 'P2', name: 'Bo Chen', email: 'bo@acme.test', phone: '+82 10 0000 0000' },
      { id: 'P3', name: 'Cy Park', email: 'cy@partner.test', organization: 'Partner' },
    ],
  },
  jira: {
    projects: [{ key: 'LCH', name: 'Launch', fixVersions: [{ name: '1.0', releaseDate: '2025-03-14' }] }],
    issues: [
      {
        key: 'LCH-2',
        summary: 'Write launch checklist',
        status: 'In Progress',
        updated: '2025-03-04T23:30:00Z',
        project: { key: 'LCH' },
        assignee: 'ana@acme.test',
        labels: ['docs'],
      },
      {
        key: 'LCH-10',
        summary: 'Fix login crash',
        status: 'To Do',
        updated: '2025-03-02T10:00:00+09:00',
        project: { key: 'LCH' },
        priority: 'High',
        fixVersions: [{ name: '1.0' }],
      },
    ],
  },
  drive: {
    files: [{ id: 'D1', name: 'Launch checklist', mimeType: 'text/plain', content: 'Step 1: freeze the API.', modifiedTime: '2025-03-03T09:30:00+09:00' }],
  },
}
