import { useEffect } from 'react';
import { themeColors } from '../theme';

/**
 * SPEC §3 application_theme.mainColor becomes the CSS custom properties the styles use. Set through the
 * CSSOM: the CSP (style-src 'self') forbids inline <style>, not style properties set from script.
 */
export const useThemeColor = (mainColor: string | undefined): void => {
  useEffect(() => {
    const colors = mainColor === undefined ? null : themeColors(mainColor);
    if (colors === null) return;
    const root = document.documentElement.style;
    root.setProperty('--color-primary', colors.primary);
    root.setProperty('--color-on-primary', colors.onPrimary);
    root.setProperty('--color-primary-text', colors.primaryText);
  }, [mainColor]);
};
