import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ColorSchemeChoiceField } from './color-scheme-choice';

const html = document.documentElement;

afterEach(() => {
  localStorage.clear();
  html.removeAttribute('data-theme');
  document.head.querySelector('meta[name="color-scheme"]')?.remove();
});

describe('ColorSchemeChoiceField (ADR 0094)', () => {
  it('starts on System, with nothing stored', () => {
    render(<ColorSchemeChoiceField />);
    expect(screen.getByRole('group', { name: 'Theme' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
  });

  it('shows the stored choice, and takes a stale value for System', () => {
    localStorage.setItem('colorScheme', 'dark');
    const { unmount } = render(<ColorSchemeChoiceField />);
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    unmount();
    localStorage.setItem('colorScheme', 'sepia');
    render(<ColorSchemeChoiceField />);
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
  });

  it('applies a choice at once, remembers it, and System forgets it', async () => {
    const meta = document.createElement('meta');
    meta.name = 'color-scheme';
    meta.content = 'light dark';
    document.head.append(meta);
    const user = userEvent.setup();
    render(<ColorSchemeChoiceField />);

    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(html).toHaveAttribute('data-theme', 'dark');
    expect(localStorage.getItem('colorScheme')).toBe('dark');
    expect(meta.content).toBe('dark');

    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(html).toHaveAttribute('data-theme', 'light');
    expect(localStorage.getItem('colorScheme')).toBe('light');

    await user.click(screen.getByRole('radio', { name: 'System' }));
    expect(html).not.toHaveAttribute('data-theme');
    expect(localStorage.getItem('colorScheme')).toBeNull();
    expect(meta.content).toBe('light dark');
  });

  it('is worked from the keyboard: arrows move the choice', async () => {
    const user = userEvent.setup();
    render(<ColorSchemeChoiceField />);
    await user.tab();
    expect(screen.getByRole('radio', { name: 'System' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(html).toHaveAttribute('data-theme', 'light');
  });
});
