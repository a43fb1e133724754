import { describe, expect, it } from 'vitest';
import { API_PATH, referralListPath } from './api-paths';
import { earlyRequests, orderIdOfPage } from './early-requests';

describe('ADR 0100: what a signed-in page asks for itself', () => {
  it('reads the order of an order page as its route does: 1 to 10 digits, with or without its tab', () => {
    expect(orderIdOfPage('/orderinfo/42')).toBe(42);
    expect(orderIdOfPage('/orderinfo/42/messages')).toBe(42);
    expect(orderIdOfPage('/orderinfo/42/messages/')).toBe(42);
    expect(orderIdOfPage('/orderinfo/12345678901')).toBeUndefined();
    expect(orderIdOfPage('/orderinfo/abc/details')).toBeUndefined();
    expect(orderIdOfPage('/orderinfo/42/../../admin')).toBeUndefined();
  });

  it('lists the customer and the page’s own data, same-origin API paths only', () => {
    expect(earlyRequests({ module: 'order-info', pathname: '/orderinfo/42/details', search: '', category: 1 })).toEqual([
      API_PATH.customer,
      API_PATH.order(42),
    ]);
    expect(earlyRequests({ module: 'order-info', pathname: '/orderinfo/x', search: '', category: 1 })).toEqual([API_PATH.customer]);
    expect(earlyRequests({ module: 'loyalty', pathname: '/loyalty', search: '', category: 1 })).toEqual([
      API_PATH.customer,
      API_PATH.loyaltyDiscounts,
      API_PATH.referralInfo,
      referralListPath(0),
    ]);
    // ADR 0101: the discount tab shows no list of friends.
    expect(earlyRequests({ module: 'loyalty', pathname: '/loyalty', search: '?tab=discount', category: 1 })).toEqual([
      API_PATH.customer,
      API_PATH.loyaltyDiscounts,
      API_PATH.referralInfo,
    ]);
    const dashboard = earlyRequests({ module: 'dashboard', pathname: '/dashboard', search: '?status=2&page=3', category: 1 });
    expect(dashboard.slice(0, 2)).toEqual([API_PATH.customer, API_PATH.orderCount]);
    expect(dashboard[2]).toMatch(/^\/api\/en\/sites\/categories\/1\/orders\?/);
    expect(new URLSearchParams(dashboard[2]!.split('?')[1]).get('status')).toBe('2');
    expect(earlyRequests({ module: 'dashboard', pathname: '/dashboard', search: '', category: undefined })).toEqual([
      API_PATH.customer,
      API_PATH.orderCount,
    ]);
    // A visitor's page asks nothing early.
    expect(earlyRequests({ module: 'order', pathname: '/order', search: '', category: 1 })).toEqual([]);
    for (const path of dashboard) expect(path.startsWith('/api/')).toBe(true);
  });
});
