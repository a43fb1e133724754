import { useLayoutEffect } from 'react';
import { THEME_PROPERTIES, themeColors, type ThemeColors } from '@app/domain/settings/rules';

/** The main colour whose custom properties the page has now (checked or set), once known. */
let applied: string | undefined;

/**
 * SPEC §3 application_theme.mainColor becomes the CSS custom properties the styles use. Set through the
 * CSSOM: the CSP (style-src 'self') forbids inline <style>, not style properties set from script.
 * A value the page already has (the style sheet's defaults, or the theme the server put in the page,
 * ADR 0064) is not written again: each of these inherited properties makes the browser restyle the
 * whole page. Reading them costs a style recalculation of the page as it is: the startup does it once,
 * before the first render (ADR 0101), when the page is a skeleton; read in the first commit it forced the
 * style of the whole new page in the middle of it (73 ms at 4x CPU on /dashboard).
 */
export const applyThemeColor = (mainColor: string | undefined): void => {
  // The server's draw of a page (ADR 0064) puts the theme in the page itself: nothing to apply there.
  if (typeof document === 'undefined') return;
  if (mainColor === undefined || mainColor === applied) return;
  const colors = themeColors(mainColor);
  if (colors === null) return;
  applied = mainColor;
  const computed = getComputedStyle(document.documentElement);
  for (const key of Object.keys(THEME_PROPERTIES) as (keyof ThemeColors)[]) {
    const name = THEME_PROPERTIES[key];
    if (computed.getPropertyValue(name).trim().toLowerCase() !== colors[key]) document.documentElement.style.setProperty(name, colors[key]);
  }
};

/**
 * The theme of the site's settings, set before the browser draws the page (a layout effect, ADR 0062):
 * set after it, the page was drawn twice. A colour the startup applied already costs nothing here.
 */
export const useThemeColor = (mainColor: string | undefined): void => {
  useLayoutEffect(() => applyThemeColor(mainColor), [mainColor]);
};
