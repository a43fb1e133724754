import { isValidPhoneNumber, AsYouType, type CountryCode } from 'libphonenumber-js/min';
import { COUNTRIES, countryForInternationalNumber, countryForNationalNumber, type Country } from '@app/domain/order-form/countries';

/**
 * SPEC §3 "Country table" (the domain's: name, ISO code, dialling code, optional area codes) with the
 * library that formats and validates numbers. This module is loaded lazily (ADR 0025): libphonenumber's
 * metadata is the heaviest part of checkout and the first step does not need it.
 */
export type { Country };

export const countries = (): readonly Country[] => COUNTRIES;

export const isKnownCountry = (iso: string): iso is CountryCode => COUNTRIES.some((c) => c.iso === iso);

const dialCodeOf = (iso: string): string | undefined => COUNTRIES.find((c) => c.iso === iso)?.dialCode;

/** SPEC §9 "mask (XXX) XXX-XXXX" for us; other countries are formatted as the library types them. */
export const formatPhone = (digits: string, iso: string): string => {
  if (!isKnownCountry(iso)) return digits;
  return new AsYouType(iso).input(digits);
};

export const isPhoneValid = (phone: string, iso: string): boolean => isKnownCountry(iso) && isValidPhoneNumber(phone, iso);

/** The number as sign-up stores it: dial code and digits. */
export const internationalPhone = (phone: string, iso: string): string => {
  const dialCode = dialCodeOf(iso);
  return dialCode ? `+${dialCode}${phone.replace(/\D/g, '')}` : phone.replace(/\D/g, '');
};

/** National digits are kept to 15, the longest number E.164 allows. */
const MAX_DIGITS = 15;

/**
 * What the phone field holds after the customer typed or pasted `raw` with `iso` chosen (ADR 0027):
 * a number starting with '+' chooses its country by dialling code and area code (+1 416 … Canada);
 * national digits move the choice among the countries sharing the dialling code (876 … Jamaica under +1).
 */
export const readPhoneInput = (raw: string, iso: string): { country: string; phone: string } => {
  const plus = raw.indexOf('+');
  if (plus !== -1) {
    const found = countryForInternationalNumber(raw.slice(plus), iso);
    if (found) return { country: found.iso, phone: found.nationalDigits.slice(0, MAX_DIGITS) };
  }
  const phone = raw.replace(/\D/g, '').slice(0, MAX_DIGITS);
  const dialCode = dialCodeOf(iso);
  return { country: dialCode ? countryForNationalNumber(dialCode, phone, iso) : iso, phone };
};

/**
 * Issue 27: an international number being typed, before its digits name a country ('+', '+3', '+35'): the
 * field keeps showing it as typed (it would drop the '+' otherwise). Null once a dialling code is
 * complete (then `readPhoneInput` moves it into the country) or when the text does not start with '+'.
 */
export const internationalDraft = (raw: string, iso: string): string | null => {
  const text = raw.trimStart();
  if (!text.startsWith('+')) return null;
  if (countryForInternationalNumber(text, iso)) return null;
  return `+${text.replace(/\D/g, '').slice(0, MAX_DIGITS)}`;
};

/**
 * A stored phone (the profile keeps digits only, SPEC §5: the dialling code then the national number; a
 * number from sign-up may start with '+') split for the phone input: the country its dialling code and area
 * code name, the national digits. A number no dialling code fits stays as national digits of `fallback`.
 */
export const splitStoredPhone = (stored: string, fallback: string): { country: string; phone: string } => {
  const digits = stored.replace(/\D/g, '');
  if (digits === '') return { country: fallback, phone: '' };
  const found = countryForInternationalNumber(`+${digits}`, fallback);
  return found
    ? { country: found.iso, phone: found.nationalDigits.slice(0, MAX_DIGITS) }
    : { country: fallback, phone: digits.slice(0, MAX_DIGITS) };
};

/** The profile's form of a number: digits only, the dialling code first (SPEC §5); empty stays empty. */
export const storedPhone = (phone: string, iso: string): string => (phone === '' ? '' : internationalPhone(phone, iso).replace(/\D/g, ''));
