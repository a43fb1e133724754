import { describe, expect, it } from 'vitest';
import { getCountries, getCountryCallingCode, parsePhoneNumber, type CountryCode } from 'libphonenumber-js/min';
import {
  COUNTRIES,
  countryByIso,
  countryForInternationalNumber,
  countryForNationalNumber,
  DEFAULT_PHONE_COUNTRY,
  MAIN_COUNTRY_OF_DIAL_CODE,
} from './index';

/** The country libphonenumber-js gives a valid international number, or null. */
const libraryCountry = (international: string): string | null => {
  try {
    const parsed = parsePhoneNumber(international);
    return parsed.isValid() ? (parsed.country ?? null) : null;
  } catch {
    return null;
  }
};
const FILLS = [
  '2345678901',
  '5550123456',
  '9876543210',
  '4021357986',
  '7300000000',
  '6121212121',
  '8765432109',
  '3456789012',
  '1812345678',
  '1612345678',
  '0123456789',
  '9123456789',
];

describe('the country table (SPEC §3: name, ISO code, dialling code, optional area codes)', () => {
  it('lists every country libphonenumber-js knows, once, with its dialling code and an English name', () => {
    expect(COUNTRIES.map((c) => c.iso).sort()).toEqual([...getCountries()].sort());
    for (const c of COUNTRIES) {
      expect(c.dialCode).toBe(getCountryCallingCode(c.iso as CountryCode));
      expect(c.name).not.toBe('');
    }
    expect(countryByIso('ca')).toEqual(expect.objectContaining({ name: 'Canada', dialCode: '1' }));
    expect(countryByIso(DEFAULT_PHONE_COUNTRY)).toEqual(expect.objectContaining({ name: 'United States', dialCode: '1' }));
  });

  it('gives area codes only to countries that share their dialling code, never to the main one', () => {
    for (const c of COUNTRIES) {
      if (!c.areaCodes) continue;
      expect(c.areaCodes.length).toBeGreaterThan(0);
      const sharing = COUNTRIES.filter((other) => other.dialCode === c.dialCode);
      expect(sharing.length).toBeGreaterThan(1);
      expect(MAIN_COUNTRY_OF_DIAL_CODE[c.dialCode]).not.toBe(c.iso);
    }
    for (const [dialCode, iso] of Object.entries(MAIN_COUNTRY_OF_DIAL_CODE)) {
      expect(countryByIso(iso)?.dialCode).toBe(dialCode);
      expect(countryByIso(iso)?.areaCodes).toBeUndefined();
    }
  });

  it('agrees with libphonenumber-js: a valid number under each area code belongs to that country, and to no other', () => {
    for (const c of COUNTRIES) {
      for (const code of c.areaCodes ?? []) {
        const found = new Set<string>();
        for (const fill of FILLS) {
          // The area code plus a fill, at each length the library may accept (7 to 12 national digits).
          for (let length = code.length + 1; length <= 12; length += 1) {
            const country = libraryCountry(`+${c.dialCode}${code}${fill.repeat(2).slice(0, length - code.length)}`);
            if (country) found.add(country);
          }
        }
        expect({ iso: c.iso, code, countries: [...found] }).toEqual({ iso: c.iso, code, countries: [c.iso] });
      }
    }
  });

  it('has the NANP and +7 neighbours SPEC names: Canada, the Caribbean, Kazakhstan', () => {
    expect(countryByIso('CA')?.areaCodes).toEqual(expect.arrayContaining(['416', '604', '514', '613']));
    expect(countryByIso('JM')?.areaCodes).toEqual(['658', '876']);
    expect(countryByIso('PR')?.areaCodes).toEqual(['787', '939']);
    expect(countryByIso('BS')?.areaCodes).toEqual(['242']);
    expect(countryByIso('KZ')?.areaCodes).toEqual(['7']);
    expect(countryByIso('US')?.areaCodes).toBeUndefined();
    expect(countryByIso('RU')?.areaCodes).toBeUndefined();
  });
});

describe('the country of a typed national number', () => {
  it.each([
    // dial code, digits typed, country chosen before, country after
    ['1', '4165550123', 'US', 'CA'],
    ['1', '416', 'US', 'CA'],
    ['1', '8765550123', 'US', 'JM'],
    ['1', '6585550123', 'CA', 'JM'],
    ['1', '2125550123', 'CA', 'US'],
    ['1', '2125550123', 'JM', 'US'],
    ['1', '2125550123', 'US', 'US'],
    ['1', '8095550123', 'US', 'DO'],
    // too few digits to decide: the chosen country stays
    ['1', '', 'JM', 'JM'],
    ['1', '8', 'JM', 'JM'],
    ['1', '87', 'JM', 'JM'],
    ['1', '41', 'US', 'US'],
    ['7', '7012345678', 'RU', 'KZ'],
    ['7', '4951234567', 'KZ', 'RU'],
    ['7', '9161234567', 'RU', 'RU'],
    ['44', '1624123456', 'GB', 'IM'],
    ['44', '7457612345', 'GB', 'IM'],
    ['44', '2071234567', 'IM', 'GB'],
    // a country known by whole numbers only keeps its choice
    ['44', '1534123456', 'JE', 'JE'],
    ['44', '2071234567', 'GG', 'GG'],
    // a dial code of its own: never changes
    ['33', '612345678', 'FR', 'FR'],
  ])('+%s %s chosen as %s is %s', (dialCode, digits, current, expected) => {
    expect(countryForNationalNumber(dialCode, digits, current)).toBe(expected);
  });
});

describe('the country of an international number (typed or pasted with +)', () => {
  it.each([
    ['+1 416 555 0123', 'US', { iso: 'CA', nationalDigits: '4165550123' }],
    ['+1 (876) 555-0123', 'US', { iso: 'JM', nationalDigits: '8765550123' }],
    ['+1 212 555 0123', 'JM', { iso: 'US', nationalDigits: '2125550123' }],
    ['+1 212 555 0123', 'FR', { iso: 'US', nationalDigits: '2125550123' }],
    ['+7 701 234 5678', 'US', { iso: 'KZ', nationalDigits: '7012345678' }],
    ['+7 495 123 4567', 'US', { iso: 'RU', nationalDigits: '4951234567' }],
    ['+44 20 7123 4567', 'US', { iso: 'GB', nationalDigits: '2071234567' }],
    ['+44 1534 123456', 'JE', { iso: 'JE', nationalDigits: '1534123456' }],
    ['+33 6 12 34 56 78', 'US', { iso: 'FR', nationalDigits: '612345678' }],
    ['+380 44 123 4567', 'US', { iso: 'UA', nationalDigits: '441234567' }],
    ['+1', 'CA', { iso: 'CA', nationalDigits: '' }],
  ])('%s (chosen %s) is %o', (typed, current, expected) => {
    expect(countryForInternationalNumber(typed, current)).toEqual(expected);
  });

  it('is undefined for digits that start no dialling code', () => {
    expect(countryForInternationalNumber('+', 'US')).toBeUndefined();
    expect(countryForInternationalNumber('+0 123', 'US')).toBeUndefined();
  });
});
