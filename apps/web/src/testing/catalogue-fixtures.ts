import type { Calcs } from '@app/domain/catalogue';

/** Catalogues and price tables as the seeded server answers them (ADR 0011), trimmed for tests. */
export const workTypesFixture = [
  { id: 1, name: 'Writing' },
  { id: 2, name: 'Editing & Proofreading' },
  { id: 3, name: 'Presentation' },
  { id: 4, name: 'Review' },
];
export const paperTypesFixture = [
  { id: 1, name: 'Essay (any type)' },
  { id: 7, name: 'Case Study' },
  { id: 17, name: 'Presentation or Speech' },
];
export const subjectsFixture = [
  { id: 1, name: 'History' },
  { id: 2, name: 'Nursing' },
];
export const paperFormatsFixture = [
  { id: 1, name: 'MLA' },
  { id: 2, name: 'APA' },
];
export const academicLevelsFixture = [
  { id: 1, name: 'High School' },
  { id: 2, name: 'College' },
  { id: 3, name: 'University' },
  { id: 4, name: "Master's" },
  { id: 5, name: 'PhD' },
];
export const urgenciesFixture = [
  { id: 1, hours: 240, name: '10 days' },
  { id: 2, hours: 48, name: '2 days' },
  { id: 3, hours: 24, name: '24 hours' },
  { id: 6, hours: 12, name: '12 hours' },
];

/** $10.00 a page at every level, dearer as the deadline shortens; extras as in the seed's shape. */
export const calcsFixture = (siteCategory = 1): Calcs => ({
  siteCategory,
  currency: 'USD',
  rates: [1, 2, 3, 4].flatMap((idWorkType) =>
    [1, 2, 3, 4, 5].flatMap((idLevel) =>
      urgenciesFixture.map((u) => ({ idWorkType, idLevel, urgency: u.hours, pricePerPage: u.hours >= 48 ? 10 : 20 })),
    ),
  ),
  extras: [
    { key: 'premiumWriter', kind: 'percent', value: 25 },
    { key: 'preferredWriter', kind: 'percent', value: 10 },
    { key: 'extraQualityCheck', kind: 'flat', value: 5 },
    { key: 'originalityReport', kind: 'flat', value: 7.5 },
    { key: 'onePageSummary', kind: 'flat', value: 9 },
  ],
  maxAmountDiscount: 100,
});
