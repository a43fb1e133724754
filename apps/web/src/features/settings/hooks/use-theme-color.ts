import { useLayoutEffect } from 'react';
import { THEME_PROPERTIES, themeColors, type ThemeColors } from '@app/domain/settings/rules';

/**
 * SPEC §3 application_theme.mainColor becomes the CSS custom properties the styles use. Set through the
 * CSSOM: the CSP (style-src 'self') forbids inline <style>, not style properties set from script.
 * Set before the browser draws the first page (a layout effect, ADR 0062): set after it, each of these
 * inherited properties made the browser restyle the whole page once more, a long task on a slow phone;
 * a value the page already has is not written again.
 */
export const useThemeColor = (mainColor: string | undefined): void => {
  useLayoutEffect(() => {
    const colors = mainColor === undefined ? null : themeColors(mainColor);
    if (colors === null) return;
    // What the page already has (the style sheet's defaults, or the theme the server put in a page it
    // drew, ADR 0064) is not set again: the style is clean at this point, so reading it costs nothing.
    const computed = getComputedStyle(document.documentElement);
    for (const key of Object.keys(THEME_PROPERTIES) as (keyof ThemeColors)[]) {
      const name = THEME_PROPERTIES[key];
      if (computed.getPropertyValue(name).trim().toLowerCase() !== colors[key])
        document.documentElement.style.setProperty(name, colors[key]);
    }
  }, [mainColor]);
};
