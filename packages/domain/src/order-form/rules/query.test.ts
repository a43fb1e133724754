import { describe, expect, it } from 'vitest';
import { orderFormFromQuery } from './query';

// The domain has no DOM types: split the query by hand, as URLSearchParams would.
const q = (search: string) =>
  orderFormFromQuery(
    search.split('&').map((pair): [string, string] => {
      const [name = '', value = ''] = pair.split('=');
      return [decodeURIComponent(name), decodeURIComponent(value)];
    }),
  );

describe('SPEC §2: order-form fields prefilled from the query string', () => {
  it.each([
    ['workType=3', { workType: 3 }],
    [
      'level=4&paperFormat=2&paperType=5&resumeService=2&subject=7',
      { level: 4, paperFormat: 2, paperType: 5, resumeService: 2, subject: 7 },
    ],
    ['pages=12&sources=3&urgency=48', { pages: 12, sources: 3, urgency: 48 }],
    ['id_spacing=1', { spacing: 1 }],
    ['topic=Rome&description=About%20Rome&credentials=x', { title: 'Rome', details: 'About Rome', credentials: 'x' }],
    [
      'topWriters=2&anotherWriter=true&extraqualityCheck=2&onePageSummary=1&qualityFeature=2',
      { premiumWriter: true, anotherWriter: true, extraQualityCheck: true, onePageSummary: false, originalityReport: true },
    ],
    ['preferredList=12,13,12,x', { preferredWriters: [12, 13] }],
    ['discountCode=WELCOME10', { discountCode: 'WELCOME10' }],
    ['discount=TOPWRITER20', { discountCode: 'TOPWRITER20' }],
  ])('%s', (search, expected) => {
    expect(q(search)).toEqual(expected);
  });

  it('leaves out unknown names and unreadable values', () => {
    expect(q('pages=abc&id_spacing=3&topWriters=maybe&utm_source=ad')).toEqual({});
  });
});
