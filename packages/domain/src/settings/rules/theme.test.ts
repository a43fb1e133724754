import { describe, expect, it } from 'vitest';
import { contrastRatio, DARK_SURFACE, themeColors } from './theme';

describe('themeColors', () => {
  it('keeps a dark main colour for text and puts white on it', () => {
    expect(themeColors('#1d4ed8')).toMatchObject({ primary: '#1d4ed8', onPrimary: '#ffffff', primaryText: '#1d4ed8' });
  });

  it('puts dark text on a light main colour and keeps links dark enough for AA', () => {
    const colors = themeColors('#fc0');
    expect(colors).toMatchObject({ primary: '#ffcc00', onPrimary: '#0f172a', primaryText: '#0f172a' });
  });

  describe('dark theme (ADR 0094)', () => {
    it('lightens a dark main colour until it reads on the dark surface, with dark text on it', () => {
      expect(themeColors('#1d4ed8')).toMatchObject({ primaryDark: '#7795e8', onPrimaryDark: '#0f172a' });
    });

    it('keeps a main colour that already reads on the dark surface', () => {
      expect(themeColors('#fc0')).toMatchObject({ primaryDark: '#ffcc00', onPrimaryDark: '#0f172a' });
    });

    it.each(['#000', '#1d4ed8', '#b91c1c', '#0f172a', '#123456', '#fff', '#777777', '#00ff00'])(
      'gives %s an AA dark primary and AA text on it',
      (main) => {
        const colors = themeColors(main);
        if (colors === null) throw new Error('refused');
        expect(contrastRatio(colors.primaryDark, DARK_SURFACE)).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(colors.primaryDark, colors.onPrimaryDark)).toBeGreaterThanOrEqual(4.5);
      },
    );
  });

  it.each(['red', 'url(x)', '#12345', '#1d4ed8;color:red', ''])('refuses %j', (value) => {
    expect(themeColors(value)).toBeNull();
  });

  it('computes the WCAG contrast of black on white as 21', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });
});
