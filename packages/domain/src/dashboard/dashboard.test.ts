import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  dashboardFiltersToParams,
  isRevisionsTabEnabled,
  orderActions,
  orderCardActions,
  orderStatusHint,
  orderListRequestParams,
  orderStatusStyle,
  ORDER_STATUS_STYLE,
  pageWindow,
  parseDashboardFilters,
  RATING_CHOICES,
  stepRating,
  withFilter,
} from './index';

describe('SPEC §4 card styles', () => {
  it('gives every status its own style', () => {
    const styles = Object.values(ORDER_STATUS_STYLE);
    expect(new Set(styles).size).toBe(styles.length);
    expect(Object.keys(ORDER_STATUS_STYLE).map(Number)).toEqual([1, 2, 3, 5, 7, 8, 9, 10, 11]);
  });

  it('gives an unknown status a neutral style', () => {
    expect(orderStatusStyle(4)).toBe('hold');
    expect(orderStatusStyle(5)).toBe('completed');
  });
});

describe('order page actions by status', () => {
  it.each([
    [1, null, { pay: true, edit: true, clone: true, leaveFeedback: false }],
    [2, null, { pay: false, edit: false, clone: true, leaveFeedback: false }],
    [5, null, { pay: false, edit: false, clone: true, leaveFeedback: true }],
    [5, { rating: 4, comment: '' }, { pay: false, edit: false, clone: true, leaveFeedback: false }],
    [10, null, { pay: false, edit: false, clone: true, leaveFeedback: false }],
  ])('status %i with feedback %o offers %o', (status, feedback, actions) => {
    expect(orderActions({ status, feedback })).toEqual(actions);
  });

  it('enables the revisions tab only in status 5', () => {
    expect([1, 2, 3, 5, 7, 8, 9, 10, 11].filter(isRevisionsTabEnabled)).toEqual([5]);
  });
});

describe('issue 27: the actions a card carries', () => {
  const now = new Date('2026-03-20T12:00:00Z');
  const base = { reviewBy: null, reviewed: false, activeRevision: false, completedAt: null, pages: 3 };
  it.each([
    [1, {}, ['pay']],
    [2, {}, []],
    [3, {}, []],
    [3, { reviewBy: '2026-03-22T12:00:00Z' }, ['reviewDelivery']],
    [5, { completedAt: '2026-03-15T12:00:00Z' }, ['requestRevision', 'leaveFeedback']],
    [5, { completedAt: '2026-03-15T12:00:00Z', reviewed: true }, ['requestRevision']],
    [5, { completedAt: '2026-03-15T12:00:00Z', activeRevision: true }, ['leaveFeedback']],
    // 14 days for 3 pages: closed after 2026-03-05 + 14 d
    [5, { completedAt: '2026-03-05T12:00:00Z', reviewed: true }, []],
    // 30 days for 30 pages: still open
    [5, { completedAt: '2026-03-05T12:00:00Z', reviewed: true, pages: 30 }, ['requestRevision']],
    [7, { reviewBy: '2026-03-22T12:00:00Z' }, []],
    [8, {}, []],
    [9, {}, []],
    [11, {}, []],
  ] as const)('status %i with %o offers %o', (status, facts, actions) => {
    expect(orderCardActions({ ...base, ...facts, status }, now)).toEqual(actions);
  });

  it('tells the customer what to do in the offered and hold states only', () => {
    expect([1, 2, 3, 5, 7, 8, 9, 10, 11, 4, 99].filter((s) => orderStatusHint(s) !== null)).toEqual([9, 11]);
    expect(orderStatusHint(11)).toMatch(/reply in Messages/);
    expect(orderStatusHint(9)).toMatch(/paused/);
  });
});

describe('dashboard filters in the address bar', () => {
  it('reads back what it writes', () => {
    const filters = { status: 5, q: 'gatsby', from: '2025-01-01', to: '2025-02-01', hidden: true, page: 3 };
    expect(parseDashboardFilters(dashboardFiltersToParams(filters))).toEqual(filters);
  });

  it('drops malformed values', () => {
    const parsed = parseDashboardFilters(new URLSearchParams('status=x&from=2025-02-30&to=yesterday&page=-2&hidden=yes'));
    expect(parsed).toEqual({ status: null, q: '', from: '', to: '', hidden: false, page: 1 });
  });

  it('counts the active filters once each, the date range as one (issue 27)', () => {
    const none = parseDashboardFilters(new URLSearchParams());
    expect(activeFilterCount(none)).toBe(0);
    expect(activeFilterCount({ ...none, page: 4 })).toBe(0);
    expect(activeFilterCount({ ...none, from: '2025-01-01' })).toBe(1);
    expect(activeFilterCount({ ...none, from: '2025-01-01', to: '2025-02-01' })).toBe(1);
    expect(activeFilterCount({ ...none, status: 5, q: 'x', to: '2025-02-01', hidden: true })).toBe(4);
  });

  it('leaves defaults out of the address', () => {
    expect(dashboardFiltersToParams(parseDashboardFilters(new URLSearchParams())).toString()).toBe('');
  });

  it('resets the page to 1 on any filter change', () => {
    const filters = parseDashboardFilters(new URLSearchParams('page=4&q=a'));
    expect(withFilter(filters, { q: 'ab' }).page).toBe(1);
    expect(withFilter(filters, { hidden: true }).page).toBe(1);
  });

  it('maps filters to the CONTRACT list query, swapping a reversed range', () => {
    const params = orderListRequestParams({ status: 3, q: 'x', from: '2025-03-10', to: '2025-03-01', hidden: true, page: 2 }, 12);
    expect(Object.fromEntries(params)).toEqual({
      limit: '12',
      page: '2',
      q: 'x',
      status: '3',
      dateFrom: '2025-03-01',
      dateTo: '2025-03-10',
      hidden: '1',
    });
  });
});

describe('page numbers', () => {
  it('lists every page when there are few', () => {
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });
  it('keeps the ends and the neighbours with gaps', () => {
    expect(pageWindow(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageWindow(1, 10)).toEqual([1, 2, null, 10]);
  });
});

describe('SPEC §3 feedback half steps', () => {
  it('offers ten choices from 0.5 to 5', () => {
    expect(RATING_CHOICES).toEqual([0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5]);
  });
  it('moves by half a star and stays on the scale', () => {
    expect(stepRating(3, 1)).toBe(3.5);
    expect(stepRating(3, -1)).toBe(2.5);
    expect(stepRating(5, 1)).toBe(5);
    expect(stepRating(0.5, -1)).toBe(0.5);
  });
});
