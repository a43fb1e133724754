import { describe, expect, it } from 'vitest';
import {
  dashboardFiltersToParams,
  isRevisionsTabEnabled,
  orderActions,
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

describe('dashboard filters in the address bar', () => {
  it('reads back what it writes', () => {
    const filters = { status: 5, q: 'gatsby', from: '2025-01-01', to: '2025-02-01', hidden: true, page: 3 };
    expect(parseDashboardFilters(dashboardFiltersToParams(filters))).toEqual(filters);
  });

  it('drops malformed values', () => {
    const parsed = parseDashboardFilters(new URLSearchParams('status=x&from=2025-02-30&to=yesterday&page=-2&hidden=yes'));
    expect(parsed).toEqual({ status: null, q: '', from: '', to: '', hidden: false, page: 1 });
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
