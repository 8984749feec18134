/**
 * Wellbeing and support resources for /support.
 *
 * Every entry was checked against the organisation's own published material (or, for a public
 * service, the government that runs it); `source` and `checked` say where and when. Only checked
 * entries ship. A region with few checked entries shows fewer and points to the emergency numbers
 * and to Befrienders Worldwide's directory instead; nothing here is guessed. Re-check each entry
 * before changing it, and record the new source and date.
 */

export type TRegionId =
  | 'united_kingdom'
  | 'north_america'
  | 'europe'
  | 'middle_east'
  | 'africa'
  | 'asia'
  | 'australia_new_zealand';

export type TServiceKind = 'crisis' | 'bereavement' | 'palliative';

export interface TSupportService {
  name: string;
  kind: TServiceKind;
  /** Where it serves, when narrower than the region (e.g. one country). */
  area: string;
  description: string;
  /** As the organisation writes it; the tel: link is built from its digits. */
  phone: string;
  /** Only a site on the same domain as the checked page; absent when none was checked. */
  website?: string;
  source: string;
  checked: string;
}

export interface TRegion {
  id: TRegionId;
  label: string;
  services: readonly TSupportService[];
}

export const SERVICE_KIND_LABELS: Record<TServiceKind, string> = {
  crisis: 'Crisis support',
  bereavement: 'Bereavement support',
  palliative: 'Palliative and end-of-life care',
};

const SAMARITANS_SOURCE =
  'checked 2026-11-23 against the stored copy of https://www.samaritans.org/how-we-can-help/contact-samaritan/';

export const REGIONS: readonly TRegion[] = [
  {
    id: 'united_kingdom',
    label: 'United Kingdom',
    services: [
      {
        name: 'Samaritans',
        kind: 'crisis',
        area: 'United Kingdom and Ireland',
        description:
          'Someone to talk to, day or night, whatever you are going through. Free from landlines and mobiles.',
        phone: '116 123',
        website: 'https://www.samaritans.org',
        source: 'https://www.samaritans.org/how-we-can-help/contact-samaritan/',
        checked: SAMARITANS_SOURCE,
      },
      {
        name: 'Cruse Bereavement Support',
        kind: 'bereavement',
        area: 'England, Wales and Northern Ireland',
        description: 'Free national helpline for anyone grieving after someone close has died.',
        phone: '0808 808 1677',
        website: 'https://www.cruse.org.uk',
        source: 'https://www.cruse.org.uk/cruse-receives-funding-boost-government',
        checked:
          'checked 2026-11-23 against the stored copy of https://www.cruse.org.uk/cruse-receives-funding-boost-government',
      },
      {
        name: 'Marie Curie Support Line',
        kind: 'palliative',
        area: 'United Kingdom',
        description:
          'Practical information and emotional support about terminal illness, caring and bereavement. Calls are free.',
        phone: '0800 090 2309',
        website: 'https://www.mariecurie.org.uk',
        source: 'https://www.mariecurie.org.uk/help/support/terminal-illness/reviewers',
        checked:
          'checked 2026-11-23 against the stored copy of https://www.mariecurie.org.uk/help/support/terminal-illness/reviewers',
      },
    ],
  },
  {
    id: 'north_america',
    label: 'North America',
    services: [
      {
        name: '988 Suicide & Crisis Lifeline',
        kind: 'crisis',
        area: 'United States',
        description:
          'Call or text, free and confidential, 24 hours a day, in a mental health, substance use or suicidal crisis, or if you are worried about someone.',
        phone: '988',
        source:
          'https://health.wyo.gov/publichealth/prevention/wivpp/suicide-prevention/988-suicide-crisis-lifeline',
        checked:
          'checked 2026-11-23 against the stored copy of the Wyoming Department of Health page https://health.wyo.gov/publichealth/prevention/wivpp/suicide-prevention/988-suicide-crisis-lifeline',
      },
      {
        name: '9-8-8: Suicide Crisis Helpline',
        kind: 'crisis',
        area: 'Canada',
        description:
          'Call or text, 24 hours a day, in English and French, if you are thinking about suicide or worried about someone.',
        phone: '988',
        source:
          'https://www.newswire.ca/news-releases/government-of-canada-launches-three-digit-suicide-crisis-helpline-896472116.html',
        checked:
          'checked 2026-11-23 against the stored copy of the Government of Canada news release https://www.newswire.ca/news-releases/government-of-canada-launches-three-digit-suicide-crisis-helpline-896472116.html',
      },
    ],
  },
  {
    id: 'europe',
    label: 'Europe',
    services: [
      {
        name: 'Samaritans Ireland',
        kind: 'crisis',
        area: 'Republic of Ireland',
        description: 'Someone to talk to, day or night. The helpline is free to call.',
        phone: '116 123',
        website: 'https://www.samaritans.org',
        source:
          'https://www.samaritans.org/news/samaritans-ireland-responds-one-call-help-every-minute-last-year',
        checked: `${SAMARITANS_SOURCE} and https://www.samaritans.org/news/samaritans-ireland-responds-one-call-help-every-minute-last-year`,
      },
    ],
  },
  { id: 'middle_east', label: 'Middle East', services: [] },
  {
    id: 'africa',
    label: 'Africa',
    services: [
      {
        name: 'SADAG Suicide Crisis Helpline',
        kind: 'crisis',
        area: 'South Africa',
        description:
          'The South African Depression and Anxiety Group’s free suicide crisis line, with trained counsellors.',
        phone: '0800 567 567',
        website: 'https://sadag.org',
        source:
          'https://sadag.org/index.php?option=com_content&view=article&id=3197:world-mental-health-day-10-october-2021&catid=149&Itemid=132',
        checked:
          'checked 2026-11-23 against the stored copy of https://sadag.org/index.php?option=com_content&view=article&id=3197:world-mental-health-day-10-october-2021&catid=149&Itemid=132',
      },
    ],
  },
  { id: 'asia', label: 'Asia', services: [] },
  {
    id: 'australia_new_zealand',
    label: 'Australia and New Zealand',
    services: [
      {
        name: 'Lifeline',
        kind: 'crisis',
        area: 'Australia',
        description:
          '24-hour crisis support from a trained Lifeline Crisis Supporter. Free from mobiles; a local call from landlines.',
        phone: '13 11 14',
        website: 'https://lifelineh2h.org.au/get-help/telephone-crisis-support/faqs/',
        source: 'https://lifelineh2h.org.au/get-help/telephone-crisis-support/faqs/',
        checked:
          'checked 2026-11-23 against the stored copy of the Lifeline centre page https://lifelineh2h.org.au/get-help/telephone-crisis-support/faqs/',
      },
      {
        name: '1737, Need to talk?',
        kind: 'crisis',
        area: 'New Zealand',
        description: 'Free call or text any time, day or night, to talk with a trained counsellor.',
        phone: '1737',
        source:
          'https://www.health.govt.nz/news-media/news-items/phone-counselling-service-busy-following-christchurch-tragedy',
        checked:
          'checked 2026-11-23 against the stored copy of the New Zealand Ministry of Health page https://www.health.govt.nz/news-media/news-items/phone-counselling-service-busy-following-christchurch-tragedy',
      },
    ],
  },
];

export const DEFAULT_REGION: TRegionId = 'united_kingdom';

export interface TEmergencyNumber {
  place: string;
  number: string;
}

/** The emergency numbers card. */
export const EMERGENCY_NUMBERS: readonly TEmergencyNumber[] = [
  { place: 'United Kingdom', number: '999' },
  { place: 'USA and Canada', number: '911' },
  { place: 'European Union', number: '112' },
  { place: 'Australia', number: '000' },
  { place: 'New Zealand', number: '111' },
];

export interface TExtraResource {
  name: string;
  description: string;
  website: string;
  checked: string;
}

export const EXTRA_RESOURCES: readonly TExtraResource[] = [
  {
    name: 'Befrienders Worldwide',
    description:
      'A worldwide network of emotional support centres, with a directory of helplines by country. Use it if your country is not listed here.',
    website: 'https://www.befrienders.org',
    checked: 'checked 2026-11-23 against the stored copy of https://www.befrienders.org/what-we-do',
  },
];

/** 'Call 0808 808 1677' needs 'tel:08088081677'. */
export function toTelHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
