/**
 * Seeded generator of the everyday mail around the story in `demo-mailbox-story.ts`: site logs,
 * status reports, newsletters, meeting threads, notices, invoices. It carries no answer to any
 * question; some of it is deliberately close to the story (numbers, vendors, dates) so search must
 * pick the right message. All text was written for this project.
 */
import { addDays, isWeekend, weekday, weekdayName } from '../src/time/calendar.ts'
import type { PersonKey, StoryMessage } from './demo-mailbox-story.ts'

/** A small deterministic PRNG (mulberry32). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)]
      if (item === undefined) throw new Error('pick from an empty list')
      return item
    },
  }
}

/** The PRNG's interface. */
export interface Random {
  next(): number
  /** Integer in [min, max]. */
  int(min: number, max: number): number
  pick<T>(items: ReadonlyArray<T>): T
}

const DAY_MS = 86_400_000
const START = Date.UTC(2023, 0, 9)
const END = Date.UTC(2023, 5, 30)

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** Weekdays (Mon-Fri) from `from` to `to`, as `YYYY-MM-DD`. */
function weekdays(from = START, to = END): string[] {
  const days: string[] = []
  for (let ms = from; ms <= to; ms += DAY_MS) {
    if (!isWeekend(iso(ms))) days.push(iso(ms))
  }
  return days
}

/** Days of a given weekday (0 = Monday, as in `src/time/calendar.ts`) in the range. */
function everyWeekday(day: number): string[] {
  const days: string[] = []
  for (let ms = START; ms <= END; ms += DAY_MS) if (weekday(iso(ms)) === day) days.push(iso(ms))
  return days
}

function time(random: Random, fromHour = 7, toHour = 17): string {
  return `${String(random.int(fromHour, toHour)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}`
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

function longDate(day: string): string {
  const d = new Date(`${day}T00:00:00Z`)
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`
}

const DEMO: PersonKey[] = ['maya', 'daniel', 'priya', 'tomas', 'hannah']
const INTERNAL: PersonKey[] = ['maya', 'daniel', 'priya', 'tomas', 'hannah', 'lena', 'omar', 'rosa', 'gareth', 'felix']

const HEADLINES = [
  'Transmission queue reform advances in the Mountain West',
  'Module prices slip for a third straight month',
  'Storage developers eye retired coal sites',
  'Wyoming wind auction draws record bids',
  'Nevada regulators open comment period on solar siting rules',
  'Turbine makers report longer blade lead times',
  'Community solar subscriptions double year over year',
  'Grid operators publish summer reliability outlook',
  'Green hydrogen pilot breaks ground near Salt Lake City',
  'Tax credit transfer market matures as buyers return',
  'Insurers tighten terms for hail-exposed solar farms',
  'Offshore wind leasing round delayed again',
  'Utility proposes new time-of-use rates in Colorado',
  'Battery fire codes updated after industry consultation',
  'Recycling startup promises closed loop for old panels',
  'Rural co-ops form joint procurement alliance',
  'Developers weigh agrivoltaics on grazing land',
  'Heat pump sales outpace furnaces in western states',
  'Auction in São Paulo sets low price for new wind capacity',
  'Zürich fund closes second renewable infrastructure vehicle',
  'Interconnection costs rise for projects in constrained areas',
  'Labor shortages slow rooftop installations',
  'New high-voltage line wins final federal approval',
  'Corporate buyers sign more hybrid wind and storage contracts',
]

const MEETING_TOPICS = [
  'Harrow Point road design',
  'Kestrel Flats punch list',
  'Insurance renewal',
  'Q2 forecast',
  'Permitting tracker',
  'Vendor scorecards',
  'Safety committee',
  'Data room cleanup',
  'Community meeting prep',
  'SCADA integration',
  'Hiring plan',
  'Contract templates',
  'Tax equity model',
  'O&M strategy',
  'Website refresh',
]

const MEETING_REPLIES = [
  'Works for me.',
  'Can we push it by 30 minutes? I have a call that may run over.',
  "I'll dial in from the car.",
  'Thanks, accepted.',
  'I can only stay for the first half hour.',
  'Could you send the latest numbers beforehand?',
  'Fine by me. Should we invite Rosa as well?',
]

const OFFICE_NOTES: Array<{ subject: string; body: string }> = [
  { subject: 'Kitchen deep clean on Thursday', body: 'Please take your food out of the fridge by Wednesday evening. Anything left will be thrown away.' },
  {
    subject: 'Lunch and learn: reading a single-line diagram',
    body: 'Rosa will walk us through a single-line diagram over lunch in the big conference room. Sandwiches provided.',
  },
  { subject: 'Birthday treats', body: 'There are cupcakes in the kitchen to celebrate two birthdays this week. Help yourselves.' },
  { subject: 'Fire drill next week', body: 'The building runs a fire drill next Tuesday morning. Please leave by the east stairs and meet across the street.' },
  { subject: 'Timesheets reminder', body: 'A friendly reminder that timesheets are due by Friday at 5 pm.' },
  {
    subject: 'Lunch and learn: permitting 101',
    body: 'Tomas will give an overview of how county permits work, with time for questions. Bring your own lunch.',
  },
  { subject: 'Printer on the 6th floor', body: 'The printer by the windows is out of order. Please use the one by reception until the technician comes.' },
  { subject: 'Bike to work day', body: 'Bike to work day is coming up. Breakfast burritos for everyone who rides in.' },
  { subject: 'New coffee machine', body: 'The new coffee machine is installed. Instructions are taped to the side; please descale it on Fridays.' },
  { subject: 'Benefits enrollment window', body: 'Open enrollment for benefits changes runs for the next two weeks. The portal link is on the intranet.' },
  { subject: 'Team photo', body: 'The photographer comes on Wednesday at 11 am for the team photo. Dress is business casual.' },
  { subject: 'Conference room booking', body: 'Please book conference rooms in the calendar instead of the paper sheet on the door.' },
  { subject: 'Recycling bins', body: 'We now have separate bins for paper and cans. Please rinse cans before recycling them.' },
  { subject: 'Visitor badges', body: 'Visitors must sign in at reception and wear a badge. Please meet your guests at the front desk.' },
]

const IT_SYSTEMS = [
  'the email server',
  'the shared file server',
  'the Wi-Fi access points',
  'the accounting system',
  'the phone system',
  'the document scanner',
  'the backup appliance',
  'the intranet',
]

const VENDOR_BULLETINS: Array<{ from: PersonKey; to: PersonKey; subjects: string[]; body: string }> = [
  {
    from: 'corvaneService',
    to: 'maya',
    subjects: [
      'Service bulletin: yaw bearing inspection intervals',
      'Service bulletin: blade leading edge tape',
      'Service bulletin: converter cooling fans',
      'Corvane customer newsletter',
    ],
    body: 'This bulletin applies to CV-series turbines in service. Please review the attached guidance with your O&M provider. No action is required for turbines not yet commissioned.',
  },
  {
    from: 'helioformNews',
    to: 'priya',
    subjects: [
      'Helioform news: new bifacial line',
      'Helioform news: warranty registration portal',
      'Helioform news: installer training dates',
      'Helioform news: packaging changes',
    ],
    body: 'Thank you for choosing Helioform modules. This update covers product and service news for our customers. Contact your account manager with any questions.',
  },
  {
    from: 'quillonNews',
    to: 'tomas',
    subjects: ['Quillon Storage quarterly update', 'Quillon Storage at the Mountain West Energy Summit'],
    body: 'Quillon Storage builds grid batteries for utilities and independent power producers. Here is our latest company news.',
  },
  {
    from: 'voltaris',
    to: 'priya',
    subjects: ['Voltaris firmware release 7.4', 'Voltaris customer portal maintenance', 'Voltaris firmware release 7.5'],
    body: 'A new release is available for Voltaris central inverters. Release notes are on the customer portal. Schedule updates during low irradiance.',
  },
]

/** A filler message before keys and ids are assigned. */
export type FillerMessage = Omit<StoryMessage, 'key'> & { key?: string }

/** Generates the filler mail, deterministic for a given PRNG. */
export function generateFiller(random: Random): FillerMessage[] {
  const out: FillerMessage[] = []
  const add = (message: FillerMessage): FillerMessage => {
    out.push(message)
    return message
  }

  // Harrow Point weekly status, every Friday, and some of Maya's replies.
  let pads = 0
  let road = 10
  for (const friday of everyWeekday(4)) {
    pads = Math.min(12, pads + random.int(0, 2))
    road = Math.min(100, road + random.int(2, 9))
    const status = add({
      key: `harrow-status-${friday}`,
      date: `${friday} ${time(random, 15, 18)}`,
      from: 'gareth',
      to: ['maya'],
      cc: ['omar'],
      subject: `Harrow Point weekly status - week ending ${longDate(friday)}`,
      body: `Maya,

Weekly status for Harrow Point:
- Turbine foundations complete: ${pads} of 12
- Access road grading: ${road}% complete
- Weather days lost this week: ${random.int(0, 3)}
- Safety observations logged: ${random.int(2, 11)}

${random.pick(['Crew count steady.', 'Two new operators started Monday.', 'Concrete supplier was late twice this week.', 'Survey crew finished the collector route.', 'Dust control water truck is back in service.'])}

Gareth`,
    })
    if (random.next() < 0.35) {
      add({
        date: `${addDays(friday, 3)} ${time(random, 7, 9)}`,
        from: 'maya',
        to: ['gareth'],
        subject: status.subject,
        replyTo: status.key,
        body: `Thanks Gareth. ${random.pick([
          'Keep an eye on the weather days; we have little float left.',
          'Good progress on the road.',
          'Let me know if the concrete supplier slips again.',
          'Please send photos of the foundations for the lender report.',
        ])}

Maya`,
      })
    }
  }

  // Maya's monthly operations review.
  for (const tuesday of everyWeekday(1).filter((day) => Number(day.slice(8)) <= 7)) {
    add({
      date: `${tuesday} ${time(random, 8, 10)}`,
      from: 'maya',
      to: ['priya', 'daniel', 'gareth', 'omar'],
      subject: `Operations review - ${longDate(addDays(tuesday, 2))}`,
      body: `Team,

Monthly operations review on ${weekdayName(addDays(tuesday, 2))} at 10 am. Please bring: schedule status, top three risks, and open procurement items.
${random.pick(['Keep it to five slides each.', 'We will start with safety.', 'Lena will join for the first half hour.'])}

Maya`,
    })
  }

  // Kestrel Flats site log, Tuesdays and Thursdays from February 20.
  let modules = 0
  for (const day of weekdays(Date.UTC(2023, 1, 20), Date.UTC(2023, 5, 16))) {
    if (weekday(day) !== 1 && weekday(day) !== 3) continue
    const installed = random.int(320, 980)
    modules = Math.min(18_400, modules + installed)
    add({
      date: `${day} ${time(random, 16, 18)}`,
      from: 'rosa',
      to: ['priya'],
      subject: `Kestrel Flats site log ${day}`,
      body: `Priya,

Site log for ${weekdayName(day)}, ${longDate(day)}:
- Modules installed today: ${installed} (cumulative ${modules.toLocaleString('en-US')})
- Racking rows completed: ${random.int(4, 16)}
- Crew on site: ${random.int(28, 64)}
- Weather: ${random.pick(['clear', 'windy in the afternoon', 'light rain before noon', 'hot, work paused 2-3 pm', 'overcast'])}

Rosa`,
    })
  }

  // Priya's weekly update to Maya, Mondays.
  let complete = 5
  for (const monday of everyWeekday(0).filter((_, i) => i % 2 === 0)) {
    complete = Math.min(99, complete + random.int(3, 9))
    add({
      date: `${monday} ${time(random, 8, 10)}`,
      from: 'priya',
      to: ['maya'],
      subject: `Kestrel Flats update - ${longDate(monday)}`,
      body: `Maya,

Kestrel Flats is ${complete}% complete overall. ${random.pick([
        'Racking is on plan.',
        'Trenching for the collector system continues.',
        'Module deliveries are on schedule.',
        'We are short two electricians this week.',
        'The owner engineer visited on Thursday with no major findings.',
      ])}

Priya`,
    })
  }

  // Renewables Ledger digest to a random demo user.
  const digestDays = weekdays().filter(() => random.next() < 0.4)
  for (const day of digestDays) {
    const picks = new Set<string>()
    while (picks.size < 3) picks.add(random.pick(HEADLINES))
    add({
      date: `${day} 06:${String(random.int(0, 30)).padStart(2, '0')}`,
      from: 'ledger',
      to: [random.pick(DEMO)],
      subject: `Renewables Ledger daily digest - ${longDate(day)}`,
      body: `Renewables Ledger - today's headlines

${[...picks].map((headline) => `* ${headline}`).join('\n')}

You are receiving this digest because you subscribed at renewablesledger.example.`,
    })
  }

  // IT maintenance notices.
  const itDays = everyWeekday(2).filter((_, i) => i % 3 === 1)
  for (const day of itDays) {
    const system = random.pick(IT_SYSTEMS)
    add({
      date: `${day} ${time(random, 9, 12)}`,
      from: 'felix',
      to: [...DEMO],
      subject: `Scheduled maintenance: ${system}`,
      body: `Hi all,

${system.charAt(0).toUpperCase()}${system.slice(1)} will be down for maintenance on ${weekdayName(addDays(day, 2))} evening from 7 pm to 9 pm.
Please save your work beforehand.

Felix
IT`,
    })
  }

  // Office notes from Hannah.
  const noteDays = weekdays()
    .filter(() => random.next() < 0.11)
    .slice(0, OFFICE_NOTES.length)
  noteDays.forEach((day, i) => {
    const note = OFFICE_NOTES[i] ?? OFFICE_NOTES[0]!
    add({
      date: `${day} ${time(random, 9, 15)}`,
      from: 'hannah',
      to: [...DEMO.filter((p) => p !== 'hannah'), 'lena'],
      subject: note.subject,
      body: `Hi all,

${note.body}

Hannah`,
    })
  })

  // Expense reminders from Daniel, first Monday of each month.
  for (const monday of everyWeekday(0).filter((day) => Number(day.slice(8)) <= 7)) {
    const due = addDays(monday, 4)
    add({
      date: `${monday} ${time(random, 8, 9)}`,
      from: 'daniel',
      to: ['maya', 'priya', 'tomas', 'hannah', 'gareth', 'rosa', 'omar'],
      subject: `Expense reports due ${longDate(due)}`,
      body: `All,

Please submit last month's expense reports by ${weekdayName(due)}, ${longDate(due)}. Receipts over $25 must be attached.

Daniel`,
    })
  }

  // Meeting threads between colleagues.
  const meetingDays = weekdays().filter(() => random.next() < 0.2)
  for (const day of meetingDays) {
    const organizer = random.pick(INTERNAL)
    const invitee = random.pick(DEMO.filter((p) => p !== organizer))
    const topic = random.pick(MEETING_TOPICS)
    let when = addDays(day, random.int(1, 6))
    while (['Saturday', 'Sunday'].includes(weekdayName(when))) when = addDays(when, 1)
    const hour = random.int(9, 16)
    const invite = add({
      key: `meeting-${out.length}`,
      date: `${day} ${time(random, 8, 12)}`,
      from: organizer,
      to: [invitee],
      subject: `${topic} - ${weekdayName(when)} ${hour > 12 ? hour - 12 : hour}:00 ${hour >= 12 ? 'pm' : 'am'}`,
      body: `Hi,

Can we meet on ${weekdayName(when)}, ${longDate(when)} at ${hour > 12 ? hour - 12 : hour}:00 ${hour >= 12 ? 'pm' : 'am'} to go over ${topic.toLowerCase()}?
${random.pick(['Thirty minutes should do.', 'I booked the small conference room.', 'Video link in the invite.', 'I will bring the latest draft.'])}

Thanks`,
    })
    if (random.next() < 0.75) {
      add({
        date: `${day} ${time(random, 13, 17)}`,
        from: invitee,
        to: [organizer],
        subject: invite.subject,
        replyTo: invite.key,
        body: random.pick(MEETING_REPLIES),
      })
    }
  }

  // Vendor bulletins.
  for (const vendor of VENDOR_BULLETINS) {
    for (const subject of vendor.subjects) {
      add({
        date: `${random.pick(weekdays())} ${time(random, 7, 11)}`,
        from: vendor.from,
        to: [vendor.to],
        subject,
        body: `${vendor.body}\n\n${subject}.`,
      })
    }
  }

  // Conference, recruiter, print shop, county notices, law firm matter updates.
  for (let i = 0; i < 4; i++) {
    add({
      date: `${random.pick(weekdays())} ${time(random)}`,
      from: 'summitConf',
      to: [random.pick(DEMO)],
      subject: random.pick([
        'Early bird registration closes soon',
        'Call for speakers: Mountain West Energy Summit',
        'Your summit agenda',
        'Hotel block for summit attendees',
      ]),
      body: 'The Mountain West Energy Summit returns to Salt Lake City this fall with two days of sessions on wind, solar, storage and transmission. Register on our website.',
    })
  }
  for (let i = 0; i < 4; i++) {
    add({
      date: `${random.pick(weekdays())} ${time(random)}`,
      from: 'recruiter',
      to: [random.pick(['maya', 'daniel', 'hannah'] as PersonKey[])],
      subject: random.pick(['Quick question about your team', 'Candidates for project engineer roles', 'Following up', 'Market update for finance hires']),
      body: 'I work with experienced renewable energy professionals and have a few profiles that may suit your team. Would you have 15 minutes this week?\n\nTalia Brooks\nBrooks Talent',
    })
  }
  for (let i = 0; i < 3; i++) {
    const order = 5100 + random.int(0, 899)
    add({
      date: `${random.pick(weekdays())} ${time(random)}`,
      from: 'printshop',
      to: ['hannah'],
      subject: `Order ${order} ready for pickup`,
      body: `Hello Hannah,\n\nYour order ${order} (${random.pick(['business cards', 'site safety posters', 'brochures', 'letterhead'])}) is ready for pickup at our Santa Fe Drive store.\n\nFront Range Print Co`,
    })
  }
  for (let i = 0; i < 3; i++) {
    const day = random.pick(weekdays())
    add({
      date: `${day} ${time(random)}`,
      from: 'ferris',
      to: ['tomas'],
      subject: `Planning commission agenda - ${longDate(addDays(day, 14))}`,
      body: `The Ferris County Planning Commission will meet on ${longDate(addDays(day, 14))}. Agenda items: ${random.pick(['a road vacation request', 'a gravel pit renewal', 'a subdivision plat', 'a cell tower variance'])} and ${random.pick(['a zoning text amendment', 'a floodplain permit', 'a fence height variance'])}.`,
    })
  }
  for (let i = 0; i < 5; i++) {
    add({
      date: `${random.pick(weekdays())} ${time(random)}`,
      from: 'ames',
      to: ['tomas'],
      subject: random.pick([
        'Matter update: easement corrections',
        'Matter update: title review',
        'Matter update: interconnection agreement markup',
        'Matter update: contractor claims',
        'Invoice for legal services',
      ]),
      body: 'Tomas,\n\nA short update on this matter: our comments are in the shared folder and we expect the other side to respond within two weeks.\n\nJulia Ames\nWhitlock & Ames LLP',
    })
  }

  // Tomas's legal queue notes to Maya.
  for (const thursday of everyWeekday(3).filter((_, i) => i % 3 === 0)) {
    add({
      date: `${thursday} ${time(random, 14, 17)}`,
      from: 'tomas',
      to: ['maya'],
      cc: ['lena'],
      subject: `Legal queue - ${longDate(thursday)}`,
      body: `Maya,

Open items this week: ${random.int(4, 12)} contracts in review, ${random.int(0, 3)} NDAs pending signature, ${random.int(1, 5)} easement questions.
${random.pick(['Nothing urgent.', 'The collector easements need your sign-off.', 'Two vendor agreements are waiting on insurance certificates.', 'The O&M template is ready for a final read.'])}

Tomas`,
    })
  }

  // Invoices to Daniel.
  for (let i = 0; i < 6; i++) {
    const vendor = random.pick([
      ['Front Range Print Co', 'printshop'],
      ['Whitlock & Ames LLP', 'ames'],
      ['Fenwick Hale LLP', 'fenwick'],
    ] as const)
    const number = `INV-${random.int(10_000, 99_999)}`
    add({
      date: `${random.pick(weekdays())} ${time(random)}`,
      from: vendor[1],
      to: ['daniel'],
      subject: `Invoice ${number} from ${vendor[0]}`,
      body: `Dear Daniel,\n\nPlease find invoice ${number} for $${random.int(3, 95) * 100 + random.int(0, 99)}.00, payable within 30 days.\n\n${vendor[0]}`,
    })
  }
  add({
    date: '2023-04-24 10:05',
    from: 'summit',
    to: ['daniel'],
    cc: ['omar'],
    subject: 'Invoice SL-INV-5521 for rental order SL-88213',
    body: 'Dear Daniel,\n\nInvoice SL-INV-5521 covers weeks 1-2 of rental order SL-88213 (300-ton crawler crane, Harrow Point): $19,600.00.\n\nSummit Lift Rentals',
  })

  // Leadership notes from Lena.
  for (const monday of everyWeekday(0).filter((_, i) => i % 4 === 2)) {
    add({
      date: `${monday} ${time(random, 7, 8)}`,
      from: 'lena',
      to: ['maya', 'daniel', 'tomas'],
      subject: `Leadership notes - ${longDate(monday)}`,
      body: `Team,

Notes for this week: ${random.pick(['focus on safety on both sites', 'we owe the lenders a construction update', 'please send me your hiring needs for the second half', 'the insurance renewal is due next month', 'keep the board pack short this time'])}.
${random.pick(['Thanks for the hard work.', 'See you at Tuesday standup.', 'I am traveling Wednesday and Thursday.'])}

Lena`,
    })
  }

  // Out-of-office notes.
  for (let i = 0; i < 7; i++) {
    const sender = random.pick(DEMO)
    const day = random.pick(weekdays())
    add({
      date: `${day} ${time(random, 15, 17)}`,
      from: sender,
      to: [random.pick(INTERNAL.filter((p) => p !== sender))],
      subject: `Out of office from ${longDate(addDays(day, 3))}`,
      body: `Hi,

I will be out of the office from ${longDate(addDays(day, 3))} to ${longDate(addDays(day, 5))} with limited email. ${random.pick(['Call my cell if it is urgent.', 'Rosa can help with site questions.', 'Daniel can approve invoices while I am away.'])}

Thanks`,
    })
  }

  return out
}
