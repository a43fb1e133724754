import type { ComponentProps } from 'react';
import { Spinner } from './spinner';

type Variant = 'primary' | 'secondary' | 'ghost' | 'link';

const VARIANT_CLASS: Record<Variant, string> = {
  primary: 'bg-primary text-on-primary hover:brightness-110 disabled:opacity-60',
  secondary: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 disabled:opacity-60',
  ghost: 'text-slate-800 hover:bg-slate-200/70 disabled:opacity-60',
  link: 'px-0! py-0! text-primary-text underline underline-offset-2 hover:no-underline',
};

export const buttonClass = (variant: Variant = 'primary', extra = ''): string =>
  `inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md px-4 py-2 text-sm font-medium transition ${VARIANT_CLASS[variant]} ${extra}`;

interface ButtonProps extends ComponentProps<'button'> {
  variant?: Variant;
  /** DESIGN rule 9: a button waiting for the server shows it and cannot be pressed twice. */
  busy?: boolean;
}

export function Button({ variant = 'primary', busy = false, className = '', disabled, children, type = 'button', ...props }: ButtonProps) {
  return (
    <button type={type} className={buttonClass(variant, className)} disabled={disabled || busy} aria-busy={busy || undefined} {...props}>
      {busy && <Spinner />}
      {children}
    </button>
  );
}
