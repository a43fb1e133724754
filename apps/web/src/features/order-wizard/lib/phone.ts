import { getCountries, getCountryCallingCode, isValidPhoneNumber, AsYouType, type CountryCode } from 'libphonenumber-js/min';

/**
 * SPEC §3 "Country table": name, ISO code, dialling code. This module is loaded lazily (ADR 0025):
 * libphonenumber's metadata is the heaviest part of checkout and the first step does not need it.
 */
export interface Country {
  iso: CountryCode;
  name: string;
  dialCode: string;
}

let cached: Country[] | null = null;

export const countries = (): Country[] => {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  cached = getCountries()
    .map((iso) => ({ iso, name: names.of(iso) ?? iso, dialCode: getCountryCallingCode(iso) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return cached;
};

export const isKnownCountry = (iso: string): iso is CountryCode => countries().some((c) => c.iso === iso);

/** SPEC §9 "mask (XXX) XXX-XXXX" for us; other countries are formatted as the library types them. */
export const formatPhone = (digits: string, iso: string): string => {
  if (!isKnownCountry(iso)) return digits;
  return new AsYouType(iso).input(digits);
};

export const isPhoneValid = (phone: string, iso: string): boolean => isKnownCountry(iso) && isValidPhoneNumber(phone, iso);

/** The number as sign-up stores it: dial code and digits. */
export const internationalPhone = (phone: string, iso: string): string =>
  isKnownCountry(iso) ? `+${getCountryCallingCode(iso)}${phone.replace(/\D/g, '')}` : phone.replace(/\D/g, '');
