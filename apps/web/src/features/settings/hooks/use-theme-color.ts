import { useLayoutEffect } from 'react';
import { themeColors } from '../theme';

/**
 * SPEC §3 application_theme.mainColor becomes the CSS custom properties the styles use. Set through the
 * CSSOM: the CSP (style-src 'self') forbids inline <style>, not style properties set from script.
 * Set before the browser draws the first page (a layout effect, ADR 0062): set after it, each of these
 * inherited properties made the browser restyle the whole page once more, a long task on a slow phone;
 * a value already set is not written again.
 */
export const useThemeColor = (mainColor: string | undefined): void => {
  useLayoutEffect(() => {
    const colors = mainColor === undefined ? null : themeColors(mainColor);
    if (colors === null) return;
    const root = document.documentElement.style;
    const set = (name: string, value: string) => {
      if (root.getPropertyValue(name) !== value) root.setProperty(name, value);
    };
    set('--color-primary', colors.primary);
    set('--color-on-primary', colors.onPrimary);
    set('--color-primary-text', colors.primaryText);
  }, [mainColor]);
};
