import { useMemo, useRef, useState } from 'react';
import { Command } from 'cmdk';
import { ChevronsUpDown } from 'lucide';
import { Popover } from 'radix-ui';
import { flagClass } from '@/lib/flags';
import { landmarkOf } from '@/lib/landmark';
import { countries, formatPhone, internationalDraft, readPhoneInput } from '@/lib/phone';
import { Icon } from './icon';

export interface PhoneValue {
  /** ISO 3166-1 alpha-2 of the chosen country */
  country: string;
  /** the national digits */
  phone: string;
}

interface PhoneInputProps extends PhoneValue {
  /** the number field's id (its <label htmlFor>) */
  id: string;
  onChange: (next: PhoneValue) => void;
  onBlur?: () => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  inputRef?: (element: HTMLInputElement | null) => void;
  autoComplete?: string;
}

function Flag({ iso }: { iso: string }) {
  // Decorative: the country's name is said beside it.
  return <span aria-hidden="true" className={`${flagClass(iso)} shrink-0 rounded-[2px] shadow-[0_0_0_1px_rgb(0_0_0/0.1)]`} />;
}

/**
 * One phone input for the wizard and the profile (ADR 0091): a country button with its flag and dialling code
 * opening a searchable list (cmdk in a Radix popover: type a name, an ISO code or a dialling code; arrows and
 * Enter choose), and the number formatted as it is typed (libphonenumber-js AsYouType). A pasted '+44 …'
 * chooses its country by itself (ADR 0027), and so does one typed: '+' and the digits show as typed until
 * they name a country, which then moves into the button (issue 27).
 */
export function PhoneInput({
  id,
  country,
  phone,
  onChange,
  onBlur,
  invalid,
  describedBy,
  inputRef,
  autoComplete = 'tel-national',
}: PhoneInputProps) {
  const list = countries();
  const current = useMemo(() => list.find((c) => c.iso === country) ?? list.find((c) => c.iso === 'US'), [list, country]);
  const [open, setOpen] = useState(false);
  const [container, setContainer] = useState<HTMLElement | undefined>();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const numberRef = useRef<HTMLInputElement | null>(null);
  const chosen = useRef(false);
  // Issue 27: '+', '+3', '+35' as typed, until the digits name a country.
  const [draft, setDraft] = useState<string | null>(null);
  const choose = (iso: string) => {
    const picked = list.find((c) => c.iso === iso);
    setOpen(false);
    setDraft(null);
    // A country known by one area code starts the number with it (Jamaica is +1, 876 …).
    if (iso !== country) onChange({ country: iso, phone: picked?.areaCodes?.length === 1 ? (picked.areaCodes[0] ?? '') : '' });
    chosen.current = true;
  };
  return (
    <div className="flex min-w-0 gap-2">
      <Popover.Root
        open={open}
        onOpenChange={(next) => {
          if (next) setContainer(landmarkOf(buttonRef.current));
          setOpen(next);
        }}
      >
        <Popover.Trigger asChild>
          <button
            ref={buttonRef}
            type="button"
            aria-label={`Country: ${current?.name ?? country} +${current?.dialCode ?? ''}`}
            className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-slate-400 bg-white px-2 py-2 text-base text-slate-900 hover:bg-slate-50"
          >
            <Flag iso={current?.iso ?? country} />
            <span className="tabular-nums">+{current?.dialCode}</span>
            <Icon icon={ChevronsUpDown} className="size-4 text-slate-600" />
          </button>
        </Popover.Trigger>
        <Popover.Portal container={container}>
          <Popover.Content
            align="start"
            sideOffset={4}
            collisionPadding={8}
            aria-label="Choose a country"
            // After a choice the number is what comes next; Escape goes back to the button.
            onCloseAutoFocus={(event) => {
              if (!chosen.current) return;
              chosen.current = false;
              event.preventDefault();
              numberRef.current?.focus();
            }}
            className="z-50 w-80 max-w-[calc(100vw-1rem)] rounded-md border border-slate-300 bg-white shadow-lg"
          >
            <Command label="Search countries" defaultValue={current?.iso} loop>
              <Command.Input
                placeholder="Search country or code"
                className="w-full rounded-t-md border-b border-slate-300 px-3 py-2 text-base outline-none"
              />
              <Command.List data-focus-inset className="max-h-64 overflow-y-auto p-1">
                <Command.Empty className="px-3 py-2 text-sm text-slate-600">No country found.</Command.Empty>
                {list.map((c) => (
                  <Command.Item
                    key={c.iso}
                    value={c.iso}
                    keywords={[c.name, `+${c.dialCode}`]}
                    onSelect={choose}
                    className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-900 data-[selected=true]:bg-slate-100"
                  >
                    <Flag iso={c.iso} />
                    <span className="flex-1">{c.name}</span>
                    <span className="text-slate-600 tabular-nums">+{c.dialCode}</span>
                  </Command.Item>
                ))}
              </Command.List>
            </Command>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <input
        id={id}
        type="tel"
        autoComplete={autoComplete}
        ref={(element) => {
          numberRef.current = element;
          inputRef?.(element);
        }}
        placeholder={country === 'US' ? '(XXX) XXX-XXXX' : undefined}
        className="block w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 aria-invalid:border-red-700"
        value={draft ?? formatPhone(phone, country)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          const pending = internationalDraft(event.target.value, country);
          setDraft(pending);
          onChange(pending === null ? readPhoneInput(event.target.value, country) : { country, phone: '' });
        }}
        onBlur={onBlur}
      />
    </div>
  );
}
