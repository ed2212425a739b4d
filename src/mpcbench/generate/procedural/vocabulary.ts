/** Word pools of the procedural generator (our own text). */

export const FIRST_NAMES = [
  'Priya',
  'Mateo',
  'Ingrid',
  'Kwame',
  'Sofia',
  'Haruto',
  'Leila',
  'Tomasz',
  'Aisha',
  'Diego',
  'Freya',
  'Oluwaseun',
  'Mei',
  'Rafael',
  'Noor',
  'Viktor',
  'Imogen',
  'Santiago',
  'Yuki',
  'Elif',
] as const

export const LAST_NAMES = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Castillo',
  'Novak',
  'Haddad',
  'Brennan',
  'Sato',
  'Petrova',
  'Mensah',
  'Ferreira',
  'Whitcombe',
  'Aalto',
  'Reyes',
  'Kowalczyk',
] as const

export const PARTNER_COMPANIES = [
  { name: 'Northwind Freight', domain: 'northwind-freight.example' },
  { name: 'Bluefin Analytics', domain: 'bluefin-analytics.example' },
  { name: 'Harbor & Pike', domain: 'harborpike.example' },
  { name: 'Quillstone Media', domain: 'quillstone.example' },
  { name: 'Ostara Health', domain: 'ostarahealth.example' },
  { name: 'Copperleaf Retail', domain: 'copperleaf.example' },
  { name: 'Mistral Grid', domain: 'mistralgrid.example' },
  { name: 'Tandem Labs', domain: 'tandemlabs.example' },
] as const

export const BUSY_TITLES = [
  'Design critique',
  'Customer call',
  'Focus time',
  'Interview loop',
  'Architecture review',
  'Budget review',
  'Vendor demo',
  'Sprint planning',
  'Roadmap review',
  'Incident postmortem',
  'Hiring debrief',
  'Office hours',
] as const

export const SYSTEMS = ['VPN gateway', 'single sign-on', 'build farm', 'internal wiki', 'expense tool', 'staging cluster'] as const

export const LUNCH_PLACES = ['the ramen place on 5th', 'the taqueria downstairs', 'the new falafel bar', 'the dumpling house', 'the salad spot'] as const

export const BUG_AREAS = [
  'CSV export truncates long rows',
  'login page flickers on Safari',
  'timezone shown as UTC in digest emails',
  'search results paginate twice',
  'avatar upload fails above 4 MB',
  'retry banner never disappears',
  'webhook signature check rejects valid payloads',
  'dark mode loses contrast in tables',
] as const

export const OFFSITE_TOPICS = ['team offsite', 'hack week', 'quarterly planning day', 'volunteering afternoon'] as const

export const CHATTER = [
  'Does anyone have the link to the all-hands recording?',
  'Coffee machine on floor 3 is fixed, finally.',
  'Reminder: badge photos are being retaken on Thursday.',
  'Who took the last HDMI adapter from room Juniper?',
  'Parking garage closes early today for resurfacing.',
  'The printer on the east side is out of toner again.',
  'Free pastries in the kitchen, leftovers from the client visit.',
  'Please update your emergency contact details in the HR portal.',
] as const

export const POLICY_TOPICS = ['remote work', 'travel booking', 'equipment refresh', 'parental leave', 'on-call compensation'] as const
