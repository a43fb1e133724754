import { describe, expect, it } from 'vitest';
import { dateTimeFormat } from './dates';

describe('dateTimeFormat (ADR 0101)', () => {
  it('makes one formatter per locale and options, and formats as a new one would', () => {
    const kyiv = dateTimeFormat(undefined, { timeZone: 'Europe/Kyiv', hour: 'numeric', minute: '2-digit' });
    expect(dateTimeFormat(undefined, { timeZone: 'Europe/Kyiv', hour: 'numeric', minute: '2-digit' })).toBe(kyiv);
    const tokyo = dateTimeFormat(undefined, { timeZone: 'Asia/Tokyo', hour: 'numeric', minute: '2-digit' });
    expect(tokyo).not.toBe(kyiv);
    const when = new Date('2026-11-26T22:00:00Z');
    expect(tokyo.format(when)).toBe(
      new Intl.DateTimeFormat(undefined, { timeZone: 'Asia/Tokyo', hour: 'numeric', minute: '2-digit' }).format(when),
    );
    expect(dateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' })).not.toBe(dateTimeFormat(undefined, { timeZone: 'Asia/Tokyo' }));
  });
});
