import { describe, expect, it } from 'vitest';
import { contrastRatio, themeColors } from './theme';

describe('themeColors', () => {
  it('keeps a dark main colour for text and puts white on it', () => {
    expect(themeColors('#1d4ed8')).toEqual({ primary: '#1d4ed8', onPrimary: '#ffffff', primaryText: '#1d4ed8' });
  });

  it('puts dark text on a light main colour and keeps links dark enough for AA', () => {
    const colors = themeColors('#fc0');
    expect(colors).toEqual({ primary: '#ffcc00', onPrimary: '#0f172a', primaryText: '#0f172a' });
  });

  it.each(['red', 'url(x)', '#12345', '#1d4ed8;color:red', ''])('refuses %j', (value) => {
    expect(themeColors(value)).toBeNull();
  });

  it('computes the WCAG contrast of black on white as 21', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });
});
