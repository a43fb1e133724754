/**
 * ADR 0094: the customer's choice of colour scheme, kept in the browser (localStorage). "system" follows
 * the device (`prefers-color-scheme`) and is stored as no value at all; the other two are written to
 * <html data-theme> before the first paint by the server's inline script and by the profile's choice.
 */
export const COLOR_SCHEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ColorSchemeChoice = (typeof COLOR_SCHEME_CHOICES)[number];

/** The localStorage key of the choice. */
export const COLOR_SCHEME_STORAGE_KEY = 'colorScheme';
/** The attribute of <html> that carries an explicit choice (apps/web/src/theme-dark.css reads it). */
export const COLOR_SCHEME_ATTRIBUTE = 'data-theme';

/** A stored value as a choice: anything but "light" or "dark" (nothing, a stale or edited value) is "system". */
export const parseColorSchemeChoice = (stored: string | null | undefined): ColorSchemeChoice =>
  stored === 'light' || stored === 'dark' ? stored : 'system';
