import { isSafeThemeColor } from './site';

export interface ThemeColors {
  primary: string;
  /** Text drawn on the primary colour: black or white, whichever contrasts more. */
  onPrimary: string;
  /** Links and accents on white: the primary colour when it reaches 4.5:1, a dark slate otherwise. */
  primaryText: string;
  /**
   * The primary colour in the dark theme (ADR 0094): lightened towards white until it reaches 4.5:1 on
   * the lightest dark surface text sits on, so it serves for links and accents as well as buttons.
   */
  primaryDark: string;
  /** Text drawn on `primaryDark`: black or white, whichever contrasts more. */
  onPrimaryDark: string;
}

const AA_TEXT_CONTRAST = 4.5;
const DARK_TEXT = '#0f172a';
const LIGHT_TEXT = '#ffffff';
/** The lightest surface of the dark theme that text sits on (Tailwind's slate-800, apps/web/src/theme-dark.css). */
export const DARK_SURFACE = '#1d293d';

const expand = (hex: string): string => (hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex);

// WCAG 2.x relative luminance of an sRGB colour.
const luminance = (hex: string): number => {
  const full = expand(hex);
  const channel = (offset: number): number => {
    const value = Number.parseInt(full.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
};

export const contrastRatio = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/**
 * The CSS custom properties the web app's styles read the theme from (apps/web/src/index.css): raw
 * values, which the style sheet turns into Tailwind's `--color-primary` and friends for the page's
 * theme, light or dark (ADR 0094).
 */
export const THEME_PROPERTIES: Readonly<Record<keyof ThemeColors, string>> = {
  primary: '--theme-primary',
  onPrimary: '--theme-on-primary',
  primaryText: '--theme-primary-text',
  primaryDark: '--theme-primary-dark',
  onPrimaryDark: '--theme-on-primary-dark',
};

const hex2 = (value: number): string => Math.round(value).toString(16).padStart(2, '0');

/** `hex` moved `share` (0–1) of the way towards white, in sRGB. */
const towardsWhite = (hex: string, share: number): string => {
  const channel = (offset: number) => Number.parseInt(hex.slice(offset, offset + 2), 16);
  return `#${[1, 3, 5].map((o) => hex2(channel(o) + (255 - channel(o)) * share)).join('')}`;
};

/** The first of `hex` lightened in tenths that reaches AA text contrast on the dark surface. */
const lightenedForDark = (hex: string): string => {
  for (let step = 0; step <= 10; step += 1) {
    const candidate = towardsWhite(hex, step / 10);
    if (contrastRatio(candidate, DARK_SURFACE) >= AA_TEXT_CONTRAST) return candidate;
  }
  return LIGHT_TEXT;
};

const bestTextOn = (background: string): string =>
  contrastRatio(background, LIGHT_TEXT) >= contrastRatio(background, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;

/** The theme as CSS declarations (`--color-primary: #…; …`), for the server's page (ADR 0064). */
export const themeDeclarations = (colors: ThemeColors): string =>
  (Object.keys(THEME_PROPERTIES) as (keyof ThemeColors)[]).map((key) => `${THEME_PROPERTIES[key]}: ${colors[key]}`).join('; ');

/** The theme from settings.application_theme.mainColor; null when the value is not a plain hex colour. */
export const themeColors = (mainColor: string): ThemeColors | null => {
  if (!isSafeThemeColor(mainColor)) return null;
  const primary = expand(mainColor).toLowerCase();
  const primaryText = contrastRatio(primary, LIGHT_TEXT) >= AA_TEXT_CONTRAST ? primary : DARK_TEXT;
  const primaryDark = lightenedForDark(primary);
  return { primary, onPrimary: bestTextOn(primary), primaryText, primaryDark, onPrimaryDark: bestTextOn(primaryDark) };
};
