/**
 * The hand-written part of the fictional Tamsin Ridge Energy demo mailbox: people, the story
 * messages that hold the facts, and the ART-E questions over them. Everything here was written
 * for this project; no text comes from the Enron corpus. `make-demo-mailbox.ts` turns it into
 * maildir files and `data/arte-demo-questions.jsonl`.
 */

/** A person who appears in the mail. `mailbox` is set for the five people whose mail is shipped. */
export interface Person {
  name: string
  email: string
  mailbox?: { folder: string; origin: string; fileName: string }
}

const DOMAIN = 'tamsinridge.example'

function staff(name: string, local: string, mailbox?: string): Person {
  const person: Person = { name, email: `${local}@${DOMAIN}` }
  if (mailbox !== undefined) {
    const [surname = '', initial = ''] = mailbox.split('-')
    person.mailbox = { folder: mailbox, origin: mailbox.toUpperCase(), fileName: `${initial}${surname}.nsf` }
  }
  return person
}

/** Everyone who sends or receives mail, by key. */
export const PEOPLE = {
  maya: staff('Maya Okafor', 'maya.okafor', 'okafor-m'),
  daniel: staff('Daniel Brandt', 'daniel.brandt', 'brandt-d'),
  priya: staff('Priya Raman', 'priya.raman', 'raman-p'),
  tomas: staff('Tomas Vidal', 'tomas.vidal', 'vidal-t'),
  hannah: staff('Hannah Lindqvist', 'hannah.lindqvist', 'lindqvist-h'),
  lena: staff('Lena Cho', 'lena.cho'),
  gareth: staff('Gareth Pike', 'gareth.pike'),
  omar: staff('Omar Haddad', 'omar.haddad'),
  rosa: staff('Rosa Ibarra', 'rosa.ibarra'),
  felix: staff('Felix Moreau', 'felix.moreau'),
  jonah: staff('Jonah Whitfield', 'jonah.whitfield'),
  ines: { name: 'Ines Albrecht', email: 'ines.albrecht@corvane.example' },
  corvaneService: { name: 'Corvane Service Bulletins', email: 'bulletins@corvane.example' },
  kurt: { name: 'Kurt Brenner', email: 'kurt.brenner@helioform.example' },
  helioformNews: { name: 'Helioform News', email: 'news@helioform.example' },
  ames: { name: 'Julia Ames', email: 'j.ames@whitlockames.example' },
  lodge: { name: 'Alder Lodge Events', email: 'events@alderlodge.example' },
  pinecrest: { name: 'Pinecrest Inn Sales', email: 'sales@pinecrestinn.example' },
  fenwick: { name: 'Fenwick Hale Audit Team', email: 'audit@fenwickhale.example' },
  granite: { name: 'Marcus Reyes', email: 'm.reyes@granitepeakbank.example' },
  summit: { name: 'Summit Lift Rentals', email: 'dispatch@summitlift.example' },
  mirela: { name: 'Mirela Dusek', email: 'mirela.dusek@quillonstorage.example' },
  quillonNews: { name: 'Quillon Storage', email: 'updates@quillonstorage.example' },
  carrow: { name: 'Carrow Valley Power Interconnection', email: 'interconnection@carrowvalley.example' },
  voltaris: { name: 'Voltaris Support', email: 'support@voltaris.example' },
  ledger: { name: 'Renewables Ledger', email: 'digest@renewablesledger.example' },
  summitConf: { name: 'Mountain West Energy Summit', email: 'registration@mwenergysummit.example' },
  recruiter: { name: 'Talia Brooks', email: 'talia@brookstalent.example' },
  printshop: { name: 'Front Range Print Co', email: 'orders@frontrangeprint.example' },
  ferris: { name: 'Ferris County Planning', email: 'planning@ferriscounty.example' },
} satisfies Record<string, Person>

/** Key of a person in {@link PEOPLE}. */
export type PersonKey = keyof typeof PEOPLE

/** A story message: the facts the questions ask about, and the distractors around them. */
export interface StoryMessage {
  key: string
  /** Local time in Denver, `YYYY-MM-DD HH:MM`. */
  date: string
  from: PersonKey
  to: PersonKey[]
  cc?: PersonKey[]
  subject: string
  body: string
  /** Key of the message this one answers: adds `Re:`, `In-Reply-To`, `References` and a quote. */
  replyTo?: string
}

/** An ART-E question over the story. */
export interface StoryQuestion {
  question: string
  answer: string
  /** The mailbox the question is asked in. */
  inbox: PersonKey
  /** `YYYY-MM-DD`; the evidence is dated before it. */
  queryDate: string
  /** Keys of the messages that hold the answer. */
  evidence: string[]
  /** Keys of messages with a conflicting fact dated after `queryDate`: they must stay invisible. */
  laterDistractors?: string[]
  howRealistic: number
  split: 'train' | 'test'
  kind: 'lookup' | 'latest' | 'as-of' | 'multi-hop'
}

export const STORY: StoryMessage[] = [
  // --- spring offsite ---
  {
    key: 'offsite-options',
    date: '2023-02-06 09:14',
    from: 'hannah',
    to: ['maya', 'lena'],
    subject: 'Spring offsite: venue options',
    body: `Hi Maya, Lena,

I have two venues holding dates for the spring offsite:

1. The Alder Lodge in Estes Park: 45 rooms, big meeting barn, $148 per room per night.
2. Pinecrest Inn in Breckenridge: 38 rooms, two smaller meeting rooms, $171 per room per night.

Both can do the second half of April. My vote is the Alder Lodge because everyone fits under one roof.
Can you let me know by Friday?

Hannah`,
  },
  {
    key: 'offsite-pinecrest-quote',
    date: '2023-02-07 15:40',
    from: 'pinecrest',
    to: ['hannah'],
    subject: 'Pinecrest Inn group quote for Tamsin Ridge Energy',
    body: `Dear Hannah,

Thank you for considering Pinecrest Inn. For April 20-21 we can offer 38 rooms at $171 per night,
breakfast included, with a deposit of $4,900 due at signing. The quote is valid until February 17.

Warm regards,
Pinecrest Inn Group Sales`,
  },
  {
    key: 'offsite-choice',
    date: '2023-02-09 11:02',
    from: 'lena',
    to: ['hannah'],
    cc: ['maya'],
    subject: 'Spring offsite: venue options',
    replyTo: 'offsite-options',
    body: `Hannah, go with the Alder Lodge. One roof matters more than the nicer rooms.

Lena`,
  },
  {
    key: 'offsite-lodge-confirm',
    date: '2023-02-13 16:25',
    from: 'lodge',
    to: ['hannah'],
    subject: 'Booking confirmation AL-23-0412 - Tamsin Ridge Energy',
    body: `Hello Hannah,

This confirms your group booking at The Alder Lodge, Estes Park:

Dates: April 20-21, 2023
Rooms: 42
Meeting space: the Aspen Barn, both days
Deposit received: $6,300 (non-refundable after March 31)

We look forward to hosting your team.

Alder Lodge Events`,
  },
  {
    key: 'offsite-booked',
    date: '2023-02-14 10:05',
    from: 'hannah',
    to: ['maya', 'daniel', 'priya', 'tomas', 'lena'],
    subject: 'Offsite booked: The Alder Lodge, April 20-21',
    body: `All,

The spring offsite is booked at The Alder Lodge in Estes Park for April 20-21.
We have 42 rooms and the Aspen Barn for sessions. Please hold both days in your calendars.
Agenda to follow in March.

Hannah`,
  },
  {
    key: 'offsite-moved',
    date: '2023-03-22 08:47',
    from: 'hannah',
    to: ['maya', 'daniel', 'priya', 'tomas', 'lena'],
    subject: 'Offsite update: new dates',
    body: `All,

The spring offsite is moving to April 27-28, same place (The Alder Lodge, Estes Park).
The original dates clash with the Ferris County permit hearing, which Maya and Tomas must attend.
The lodge moved our rooms and the Aspen Barn at no cost.

Please update your calendars.

Hannah`,
  },
  // --- Harrow Point turbines ---
  {
    key: 'turbine-quote',
    date: '2023-01-18 13:30',
    from: 'ines',
    to: ['omar'],
    cc: ['maya'],
    subject: 'Corvane quote Q-5518: CV-4.2 turbines for Harrow Point',
    body: `Omar,

As discussed, our quote Q-5518 for Harrow Point:

- 12 Corvane CV-4.2 turbines
- Price: $3.85 million per turbine, delivered to site
- Delivery window: May-June 2023
- Warranty: 5 years full service

Happy to walk through the terms next week.

Ines Albrecht
Account Manager, Corvane Turbines`,
  },
  {
    key: 'turbine-revised',
    date: '2023-02-02 09:45',
    from: 'ines',
    to: ['omar', 'maya'],
    subject: 'Revised quote Q-5518-R1 for Harrow Point',
    body: `Omar, Maya,

Following our call, we can revise the Harrow Point price to $3.72 million per turbine
if the purchase order is signed by February 28, 2023. All other terms of Q-5518 stay the same.

Ines Albrecht
Corvane Turbines`,
  },
  {
    key: 'turbine-po',
    date: '2023-02-24 17:10',
    from: 'maya',
    to: ['daniel'],
    cc: ['omar'],
    subject: 'Harrow Point turbine PO signed',
    body: `Daniel,

I signed the purchase order with Corvane today at the revised price. The PO number is HP-2023-0117.
Please set up the payment schedule: 10% on signing, 60% on delivery, 30% on commissioning.

Maya`,
  },
  {
    key: 'turbine-shipment-1',
    date: '2023-05-16 18:20',
    from: 'gareth',
    to: ['maya'],
    cc: ['omar'],
    subject: 'Harrow Point: first turbine shipment arrived',
    body: `Maya,

The first Corvane shipment reached Harrow Point this afternoon: 5 turbines (nacelles, hubs and blade sets).
All units passed the receiving inspection. The second shipment of 7 is expected on June 12.

Gareth`,
  },
  // --- Harrow Point crane incident ---
  {
    key: 'supervisor-start',
    date: '2023-01-10 10:00',
    from: 'hannah',
    to: ['maya', 'daniel', 'priya', 'tomas'],
    subject: 'Welcome Gareth Pike',
    body: `Hi all,

Please welcome Gareth Pike, who started this week as site supervisor at Harrow Point.
Gareth spent twelve years building wind farms in Alberta. He will be on site most days.

Hannah`,
  },
  {
    key: 'crane-incident',
    date: '2023-04-04 07:55',
    from: 'gareth',
    to: ['maya'],
    cc: ['omar'],
    subject: 'Incident report: crane boom damage',
    body: `Maya,

Yesterday at 16:40 a wind gust damaged the boom of crane #2 while it was parked at pad 7.
Nobody was hurt. The crane is out of service until the rental company inspects it.
Work on pads 7 and 8 is paused. I will send the full report by Thursday.

Gareth`,
  },
  {
    key: 'crane-incident-reply',
    date: '2023-04-04 08:20',
    from: 'maya',
    to: ['gareth'],
    cc: ['omar'],
    subject: 'Incident report: crane boom damage',
    replyTo: 'crane-incident',
    body: `Gareth, glad nobody was hurt. Omar, please find us a replacement crane this week.

Maya`,
  },
  {
    key: 'crane-replacement',
    date: '2023-04-06 14:12',
    from: 'omar',
    to: ['maya'],
    cc: ['gareth'],
    subject: 'Replacement crane for Harrow Point',
    body: `Maya,

For the damaged crane: I have a replacement from Summit Lift Rentals arriving Monday at $9,800 per week,
four weeks minimum. Our insurer has the claim. Gareth expects pads 7 and 8 to restart on the 11th.

Omar`,
  },
  {
    key: 'summit-confirm',
    date: '2023-04-07 09:30',
    from: 'summit',
    to: ['omar'],
    cc: ['maya'],
    subject: 'Rental order SL-88213 confirmed',
    body: `Hello Omar,

Rental order SL-88213 is confirmed: one 300-ton crawler crane, delivery to the Harrow Point site on April 10.
Weekly rate $9,800, minimum four weeks.

Summit Lift Rentals dispatch`,
  },
  // --- Kestrel Flats solar ---
  {
    key: 'inverter-po',
    date: '2023-01-12 11:20',
    from: 'omar',
    to: ['priya'],
    subject: 'Kestrel Flats inverter order placed',
    body: `Priya,

The inverter order for Kestrel Flats is placed with Voltaris Power Systems: 24 central inverters,
delivery in early March. Their field engineer will be on site for start-up.

Omar`,
  },
  {
    key: 'modules-delivery',
    date: '2023-01-23 08:40',
    from: 'kurt',
    to: ['priya'],
    subject: 'Kestrel Flats module delivery schedule',
    body: `Hi Priya,

Confirming the Kestrel Flats delivery: 18,400 Helioform HF-550 modules in 46 truckloads,
starting February 20 at a rate of four trucks per day.

Best,
Kurt Brenner
Helioform Modules`,
  },
  {
    key: 'site-visit',
    date: '2023-02-08 16:02',
    from: 'kurt',
    to: ['priya'],
    cc: ['rosa'],
    subject: 'Site visit at Kestrel Flats on February 16',
    body: `Priya,

For the site visit on February 16: our team will meet you at the Dry Creek gate at 8:30 am.
We will bring the racking engineer. Please have hard hats for four visitors.

Kurt`,
  },
  {
    key: 'interconnection',
    date: '2023-03-03 10:15',
    from: 'carrow',
    to: ['priya'],
    cc: ['maya'],
    subject: 'Interconnection study results: Kestrel Flats (queue #C-2291)',
    body: `Ms. Raman,

Carrow Valley Power has completed the facilities study for queue position C-2291 (Kestrel Flats).
The study approves an interconnection capacity of 80 MW at the Sagebrush substation, subject to
the network upgrades listed in Appendix B.

Carrow Valley Power, Interconnection Services`,
  },
  {
    key: 'cod-target-1',
    date: '2023-03-06 09:00',
    from: 'priya',
    to: ['maya'],
    cc: ['lena'],
    subject: 'Kestrel Flats schedule',
    body: `Maya,

With the interconnection study done, the Kestrel Flats target commercial operation date stays at June 1.
Module installation is 20% complete and racking is ahead of plan.

Priya`,
  },
  {
    key: 'inverter-failure',
    date: '2023-03-28 15:35',
    from: 'rosa',
    to: ['priya'],
    subject: 'Block C inverter trips',
    body: `Priya,

During energization of Block C, 3 central inverters tripped on ground fault and would not reset.
The supplier's field engineer replaced them under warranty yesterday and Block C is back online.
Root cause report expected next week.

Rosa`,
  },
  {
    key: 'cod-target-2',
    date: '2023-04-14 11:48',
    from: 'priya',
    to: ['maya'],
    cc: ['lena', 'daniel'],
    subject: 'Kestrel Flats schedule',
    replyTo: 'cod-target-1',
    body: `Maya,

Update: the Block C inverter replacement and the substation upgrade push the Kestrel Flats target
commercial operation date from June 1 to June 19. The utility has confirmed the new date.

Priya`,
  },
  {
    key: 'cod-reached',
    date: '2023-06-20 08:30',
    from: 'priya',
    to: ['maya', 'lena', 'daniel', 'tomas', 'hannah'],
    subject: 'Kestrel Flats is in commercial operation',
    body: `All,

Kestrel Flats reached commercial operation on June 19. Thank you to everyone on site and in the office.

Priya`,
  },
  // --- legal ---
  {
    key: 'lease-signed',
    date: '2023-02-09 14:20',
    from: 'ames',
    to: ['tomas'],
    subject: 'Harrow Point land lease: countersigned',
    body: `Tomas,

The Eckhart family has countersigned the Harrow Point land lease. Key terms as agreed:
a term of 35 years, two 10-year renewal options, and annual rent indexed to CPI.
The executed copy is in the data room.

Julia Ames
Whitlock & Ames LLP`,
  },
  {
    key: 'hearing-date',
    date: '2023-03-15 13:05',
    from: 'tomas',
    to: ['maya'],
    cc: ['hannah'],
    subject: 'Ferris County permit hearing date',
    body: `Maya,

The Ferris County commissioners will hear the Harrow Point conditional use permit on April 20
at 9:00 am in the county building in Ridgeway. You and I should both attend.
Hannah, copying you because this may clash with other plans that week.

Tomas`,
  },
  {
    key: 'permit-approved',
    date: '2023-04-21 10:40',
    from: 'tomas',
    to: ['maya', 'lena'],
    subject: 'Harrow Point permit approved',
    body: `Maya, Lena,

Good news: the Ferris County commissioners approved the Harrow Point conditional use permit
yesterday on a 4-1 vote. The written decision follows within 14 days.

Tomas`,
  },
  {
    key: 'nda-signed',
    date: '2023-05-09 09:10',
    from: 'mirela',
    to: ['tomas'],
    subject: 'Mutual NDA executed',
    body: `Tomas,

Attached is the fully executed mutual NDA between Quillon Storage and Tamsin Ridge Energy,
signed by both parties on May 8, 2023. We can now share the battery pricing model.

Mirela Dusek
Business Development, Quillon Storage`,
  },
  // --- finance ---
  {
    key: 'audit-dates',
    date: '2023-02-10 09:25',
    from: 'fenwick',
    to: ['daniel'],
    subject: 'Year-end audit fieldwork schedule',
    body: `Daniel,

Our fieldwork for the 2022 year-end audit will run from March 6 to March 17.
Please have the PBC list items ready by March 1.

Fenwick Hale LLP, Audit`,
  },
  {
    key: 'capex-approved',
    date: '2023-03-01 16:45',
    from: 'daniel',
    to: ['maya', 'lena'],
    subject: '2023 capex budget approved',
    body: `Maya, Lena,

The board approved the 2023 capital budget of $61.5 million yesterday.
Harrow Point is the largest line; Kestrel Flats closes out this year.

Daniel`,
  },
  {
    key: 'capex-revised',
    date: '2023-04-12 15:20',
    from: 'daniel',
    to: ['maya', 'lena'],
    subject: 'Correction: 2023 capex budget',
    body: `Maya, Lena,

Correction to my March note: after the Corvane discount and the Kestrel Flats close-out estimate,
the 2023 capital budget is revised to $58.9 million. The board finance committee signed off today.

Daniel`,
  },
  {
    key: 'credit-facility',
    date: '2023-01-26 10:30',
    from: 'granite',
    to: ['daniel'],
    subject: 'Revolving credit facility: closing',
    body: `Daniel,

Congratulations on closing the $25 million revolving credit facility with Granite Peak Bank.
The first quarterly covenant certificate is due April 30.

Marcus Reyes
Relationship Manager, Granite Peak Bank`,
  },
  {
    key: 'per-diem',
    date: '2023-01-17 13:00',
    from: 'daniel',
    to: ['maya', 'priya', 'tomas', 'hannah', 'gareth', 'rosa', 'omar'],
    subject: 'Updated travel policy',
    body: `All,

The updated travel policy is in effect from February 1. The main changes:
- Meal per diem rises to $75 per day.
- Hotels up to $190 per night without pre-approval.
- Mileage at the federal rate.

Daniel`,
  },
  {
    key: 'board-meeting',
    date: '2023-04-03 12:10',
    from: 'lena',
    to: ['daniel', 'maya'],
    subject: 'Q2 board meeting',
    body: `Daniel, Maya,

The Q2 board meeting will be on May 11 at the Denver office. Board pack due to me by May 4.

Lena`,
  },
  {
    key: 'board-moved',
    date: '2023-05-02 17:35',
    from: 'lena',
    to: ['daniel', 'maya'],
    subject: 'Q2 board meeting moved',
    body: `Daniel, Maya,

Two directors cannot travel, so the Q2 board meeting moves to May 18 and will be held by video.
The board pack deadline moves to May 11.

Lena`,
  },
  {
    key: 'parking-denver',
    date: '2023-02-21 09:05',
    from: 'hannah',
    to: ['daniel', 'maya', 'tomas'],
    subject: 'Parking permits',
    body: `Hi all,

Monthly parking permits for the Denver office garage now cost $95 per month. Renewals open on the 25th.

Hannah`,
  },
  {
    key: 'parking-reno',
    date: '2023-02-21 09:20',
    from: 'hannah',
    to: ['priya', 'rosa'],
    subject: 'Parking permits',
    body: `Priya, Rosa,

Parking at the Reno field office stays free; the landlord confirmed it for 2023. No permit needed.

Hannah`,
  },
  // --- people and office ---
  {
    key: 'new-hire',
    date: '2023-03-08 10:20',
    from: 'hannah',
    to: ['maya', 'daniel', 'priya', 'tomas'],
    subject: 'New colleague: Jonah Whitfield',
    body: `Hi all,

Jonah Whitfield joins us on March 13 as a GIS analyst. He will sit with the development team.
Please say hello when you see him.

Hannah`,
  },
  {
    key: 'office-move',
    date: '2023-04-26 14:00',
    from: 'hannah',
    to: ['maya', 'daniel', 'priya', 'tomas', 'lena'],
    subject: 'Office move on May 26',
    body: `All,

Our Denver office moves on May 26. The new address is 410 Alder Street, Suite 300, Denver.
Movers come on Friday afternoon; please pack your desk by noon.

Hannah`,
  },
  // --- IT ---
  {
    key: 'vpn-migration',
    date: '2023-03-10 11:00',
    from: 'felix',
    to: ['maya', 'daniel', 'priya', 'tomas', 'hannah'],
    subject: 'VPN client change',
    body: `Hi all,

We are switching to the NorthGate VPN client. It installs automatically on March 18.
The old client stops working on March 25, so please sign in to NorthGate before then.

Felix
IT`,
  },
  {
    key: 'password-policy',
    date: '2023-02-15 09:40',
    from: 'felix',
    to: ['maya', 'daniel', 'priya', 'tomas', 'hannah'],
    subject: 'New password policy',
    body: `Hi all,

From March 1 passwords must be at least 14 characters long. You will be asked to change yours at next sign-in.

Felix`,
  },
]

export const QUESTIONS: StoryQuestion[] = [
  {
    question: 'Which venue was booked for the spring offsite?',
    answer: 'The Alder Lodge',
    inbox: 'maya',
    queryDate: '2023-03-01',
    evidence: ['offsite-booked'],
    howRealistic: 0.9,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'What dates is the spring offsite scheduled for?',
    answer: 'April 20-21',
    inbox: 'maya',
    queryDate: '2023-03-10',
    evidence: ['offsite-booked'],
    laterDistractors: ['offsite-moved'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'as-of',
  },
  {
    question: 'What are the current dates of the spring offsite?',
    answer: 'April 27-28',
    inbox: 'priya',
    queryDate: '2023-04-05',
    evidence: ['offsite-moved'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'latest',
  },
  {
    question: 'How much was the deposit paid to the Alder Lodge?',
    answer: '$6,300',
    inbox: 'hannah',
    queryDate: '2023-02-20',
    evidence: ['offsite-lodge-confirm'],
    howRealistic: 0.8,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'What is the booking confirmation number for the offsite venue?',
    answer: 'AL-23-0412',
    inbox: 'hannah',
    queryDate: '2023-03-01',
    evidence: ['offsite-lodge-confirm'],
    howRealistic: 0.65,
    split: 'train',
    kind: 'lookup',
  },
  {
    question: 'On what date is the hearing that forced the spring offsite to be moved?',
    answer: 'April 20',
    inbox: 'hannah',
    queryDate: '2023-03-30',
    evidence: ['offsite-moved', 'hearing-date'],
    howRealistic: 0.7,
    split: 'test',
    kind: 'multi-hop',
  },
  {
    question: "What was Corvane's revised price per turbine for Harrow Point?",
    answer: '$3.72 million',
    inbox: 'maya',
    queryDate: '2023-03-01',
    evidence: ['turbine-revised'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'latest',
  },
  {
    question: 'How many turbines are in the Corvane order for Harrow Point?',
    answer: '12',
    inbox: 'maya',
    queryDate: '2023-02-01',
    evidence: ['turbine-quote'],
    howRealistic: 0.8,
    split: 'train',
    kind: 'lookup',
  },
  {
    question: 'What is the PO number for the Harrow Point turbine order?',
    answer: 'HP-2023-0117',
    inbox: 'daniel',
    queryDate: '2023-03-15',
    evidence: ['turbine-po'],
    howRealistic: 0.9,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'How many turbines arrived in the first shipment to Harrow Point?',
    answer: '5',
    inbox: 'maya',
    queryDate: '2023-05-20',
    evidence: ['turbine-shipment-1'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'When is the second Corvane turbine shipment expected?',
    answer: 'June 12',
    inbox: 'maya',
    queryDate: '2023-05-25',
    evidence: ['turbine-shipment-1'],
    howRealistic: 0.8,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'At which pad was the crane damaged at Harrow Point?',
    answer: 'Pad 7',
    inbox: 'maya',
    queryDate: '2023-04-10',
    evidence: ['crane-incident'],
    howRealistic: 0.75,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'Which company supplied the replacement for the damaged crane?',
    answer: 'Summit Lift Rentals',
    inbox: 'maya',
    queryDate: '2023-04-10',
    evidence: ['crane-replacement'],
    howRealistic: 0.8,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'Who is the site supervisor at the project where the crane was damaged?',
    answer: 'Gareth Pike',
    inbox: 'maya',
    queryDate: '2023-04-30',
    evidence: ['crane-incident', 'supervisor-start'],
    howRealistic: 0.7,
    split: 'test',
    kind: 'multi-hop',
  },
  {
    question: 'What is the weekly rate for the replacement crane?',
    answer: '$9,800',
    inbox: 'maya',
    queryDate: '2023-04-15',
    evidence: ['crane-replacement', 'summit-confirm'],
    howRealistic: 0.75,
    split: 'train',
    kind: 'lookup',
  },
  {
    question: 'How many solar modules is Helioform delivering for Kestrel Flats?',
    answer: '18,400',
    inbox: 'priya',
    queryDate: '2023-02-01',
    evidence: ['modules-delivery'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'What time does the Helioform site visit meeting start on February 16?',
    answer: '8:30 am',
    inbox: 'priya',
    queryDate: '2023-02-12',
    evidence: ['site-visit'],
    howRealistic: 0.8,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'Where should the Helioform team be met for the Kestrel Flats site visit?',
    answer: 'The Dry Creek gate',
    inbox: 'priya',
    queryDate: '2023-02-12',
    evidence: ['site-visit'],
    howRealistic: 0.75,
    split: 'train',
    kind: 'lookup',
  },
  {
    question: 'What interconnection capacity did the study approve for Kestrel Flats?',
    answer: '80 MW',
    inbox: 'maya',
    queryDate: '2023-03-10',
    evidence: ['interconnection'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'How many inverters tripped in Block C at Kestrel Flats?',
    answer: '3',
    inbox: 'priya',
    queryDate: '2023-04-03',
    evidence: ['inverter-failure'],
    howRealistic: 0.8,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'Which company made the inverters that tripped in Block C?',
    answer: 'Voltaris Power Systems',
    inbox: 'priya',
    queryDate: '2023-04-15',
    evidence: ['inverter-failure', 'inverter-po'],
    howRealistic: 0.7,
    split: 'test',
    kind: 'multi-hop',
  },
  {
    question: 'What is the target commercial operation date for Kestrel Flats?',
    answer: 'June 1',
    inbox: 'maya',
    queryDate: '2023-03-20',
    evidence: ['cod-target-1'],
    laterDistractors: ['cod-target-2'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'as-of',
  },
  {
    question: 'What is the current target commercial operation date for Kestrel Flats?',
    answer: 'June 19',
    inbox: 'maya',
    queryDate: '2023-05-01',
    evidence: ['cod-target-2'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'latest',
  },
  {
    question: 'How long is the term of the Harrow Point land lease?',
    answer: '35 years',
    inbox: 'tomas',
    queryDate: '2023-03-01',
    evidence: ['lease-signed'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'Which family owns the land leased for Harrow Point?',
    answer: 'The Eckhart family',
    inbox: 'tomas',
    queryDate: '2023-03-01',
    evidence: ['lease-signed'],
    howRealistic: 0.75,
    split: 'train',
    kind: 'lookup',
  },
  {
    question: "What was the commissioners' vote on the Harrow Point permit?",
    answer: '4-1',
    inbox: 'maya',
    queryDate: '2023-04-25',
    evidence: ['permit-approved'],
    howRealistic: 0.8,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'On what date was the NDA with Quillon Storage signed?',
    answer: 'May 8, 2023',
    inbox: 'tomas',
    queryDate: '2023-05-20',
    evidence: ['nda-signed'],
    howRealistic: 0.8,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'When does the audit fieldwork start?',
    answer: 'March 6',
    inbox: 'daniel',
    queryDate: '2023-02-20',
    evidence: ['audit-dates'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'What was the approved 2023 capex budget?',
    answer: '$61.5 million',
    inbox: 'maya',
    queryDate: '2023-03-05',
    evidence: ['capex-approved'],
    laterDistractors: ['capex-revised'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'as-of',
  },
  {
    question: 'What is the current 2023 capital budget?',
    answer: '$58.9 million',
    inbox: 'maya',
    queryDate: '2023-04-20',
    evidence: ['capex-revised'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'latest',
  },
  {
    question: 'Which bank provides the revolving credit facility?',
    answer: 'Granite Peak Bank',
    inbox: 'daniel',
    queryDate: '2023-05-01',
    evidence: ['credit-facility'],
    howRealistic: 0.8,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'What is the meal per diem under the updated travel policy?',
    answer: '$75 per day',
    inbox: 'priya',
    queryDate: '2023-02-15',
    evidence: ['per-diem'],
    howRealistic: 0.9,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'When is the Q2 board meeting?',
    answer: 'May 18',
    inbox: 'daniel',
    queryDate: '2023-05-10',
    evidence: ['board-moved'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'latest',
  },
  {
    question: 'How much does a monthly parking permit cost?',
    answer: '$95',
    inbox: 'daniel',
    queryDate: '2023-03-01',
    evidence: ['parking-denver'],
    howRealistic: 0.75,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'What role is Jonah Whitfield joining as?',
    answer: 'GIS analyst',
    inbox: 'tomas',
    queryDate: '2023-03-12',
    evidence: ['new-hire'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'What is the address of the new Denver office?',
    answer: '410 Alder Street, Suite 300',
    inbox: 'priya',
    queryDate: '2023-05-15',
    evidence: ['office-move'],
    howRealistic: 0.85,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'When does the old VPN client stop working?',
    answer: 'March 25',
    inbox: 'tomas',
    queryDate: '2023-03-20',
    evidence: ['vpn-migration'],
    howRealistic: 0.9,
    split: 'test',
    kind: 'lookup',
  },
  {
    question: 'What is the minimum password length under the new policy?',
    answer: '14 characters',
    inbox: 'daniel',
    queryDate: '2023-03-05',
    evidence: ['password-policy'],
    howRealistic: 0.9,
    split: 'train',
    kind: 'lookup',
  },
]
