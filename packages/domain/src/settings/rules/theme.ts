import { isSafeThemeColor } from './site';

export interface ThemeColors {
  primary: string;
  /** Text drawn on the primary colour: black or white, whichever contrasts more. */
  onPrimary: string;
  /** Links and accents on white: the primary colour when it reaches 4.5:1, a dark slate otherwise. */
  primaryText: string;
}

const AA_TEXT_CONTRAST = 4.5;
const DARK_TEXT = '#0f172a';
const LIGHT_TEXT = '#ffffff';

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

/** The CSS custom properties the web app's styles read the theme from (apps/web/src/index.css). */
export const THEME_PROPERTIES: Readonly<Record<keyof ThemeColors, string>> = {
  primary: '--color-primary',
  onPrimary: '--color-on-primary',
  primaryText: '--color-primary-text',
};

/** The theme as CSS declarations (`--color-primary: #…; …`), for the server's page (ADR 0064). */
export const themeDeclarations = (colors: ThemeColors): string =>
  (Object.keys(THEME_PROPERTIES) as (keyof ThemeColors)[]).map((key) => `${THEME_PROPERTIES[key]}: ${colors[key]}`).join('; ');

/** The theme from settings.application_theme.mainColor; null when the value is not a plain hex colour. */
export const themeColors = (mainColor: string): ThemeColors | null => {
  if (!isSafeThemeColor(mainColor)) return null;
  const primary = expand(mainColor).toLowerCase();
  const onPrimary = contrastRatio(primary, LIGHT_TEXT) >= contrastRatio(primary, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
  const primaryText = contrastRatio(primary, LIGHT_TEXT) >= AA_TEXT_CONTRAST ? primary : DARK_TEXT;
  return { primary, onPrimary, primaryText };
};
