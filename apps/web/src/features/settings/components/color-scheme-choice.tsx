import { useState } from 'react';
import {
  COLOR_SCHEME_ATTRIBUTE,
  COLOR_SCHEME_CHOICES,
  COLOR_SCHEME_STORAGE_KEY,
  parseColorSchemeChoice,
  type ColorSchemeChoice,
} from '@app/domain/settings/rules';
import { readStored, writeStored } from '@/lib/persisted';

const LABEL: Readonly<Record<ColorSchemeChoice, string>> = { system: 'System', light: 'Light', dark: 'Dark' };

const readChoice = (): ColorSchemeChoice => parseColorSchemeChoice(readStored(COLOR_SCHEME_STORAGE_KEY));

/**
 * The choice as the server's pre-paint script (apps/server/src/plugins/theme-boot.ts) applies it on the
 * next load: "system" is no attribute (the style sheet follows the device) and nothing stored.
 */
const applyChoice = (choice: ColorSchemeChoice): void => {
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute(COLOR_SCHEME_ATTRIBUTE);
  else root.setAttribute(COLOR_SCHEME_ATTRIBUTE, choice);
  document.querySelector('meta[name="color-scheme"]')?.setAttribute('content', choice === 'system' ? 'light dark' : choice);
  // Storage refused (a private window, a policy): the choice holds for this page only (lib/persisted).
  writeStored(COLOR_SCHEME_STORAGE_KEY, choice === 'system' ? null : choice);
};

/**
 * ADR 0094: /profile's choice of theme, System (the device's `prefers-color-scheme`), Light or Dark,
 * applied at once and remembered in this browser.
 */
export function ColorSchemeChoiceField() {
  const [choice, setChoice] = useState<ColorSchemeChoice>(readChoice);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium text-slate-800">Theme</legend>
      <div className="flex flex-wrap gap-2">
        {COLOR_SCHEME_CHOICES.map((value) => (
          <label
            key={value}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-4 text-sm text-slate-800 has-checked:border-primary has-checked:bg-primary/10 has-checked:font-semibold"
          >
            <input
              type="radio"
              name="color-scheme"
              value={value}
              checked={choice === value}
              className="accent-primary"
              onChange={() => {
                setChoice(value);
                applyChoice(value);
              }}
            />
            {LABEL[value]}
          </label>
        ))}
      </div>
      <p className="text-sm text-slate-600">System follows your device’s setting. Remembered in this browser.</p>
    </fieldset>
  );
}
