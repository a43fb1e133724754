import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { PASSWORD_MAX_LENGTH } from '@app/domain/auth/rules';
import type { Customer } from '@app/domain/customer';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useRequestEmailChange } from '../api/change-email';

interface Values {
  email: string;
  password: string;
}

/**
 * ADR 0097: the email can be changed. The new address gets a link; until it is opened (signed in, on this
 * device) the email stays as it is. An account with a password gives it.
 */
export function EmailChangeForm({ customer }: { customer: Customer }) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const request = useRequestEmailChange();
  const { register, handleSubmit, setError, setFocus, formState, reset } = useForm<Values>({ defaultValues: { email: '', password: '' } });
  useEffect(() => {
    if (open) setFocus('email');
  }, [open, setFocus]);
  const needsPassword = !customer.signInByLinkOnly;

  const close = () => {
    setOpen(false);
    reset();
    request.reset();
    queueMicrotask(() => opener.current?.focus());
  };
  const onSubmit = handleSubmit(({ email, password }) =>
    request.mutate(needsPassword ? { email, password } : { email }, {
      onSuccess: (answer) => {
        setSent(answer.message);
        setOpen(false);
        reset();
      },
      onError: (error) => {
        const fields = error instanceof ApiError ? error.fieldErrors : {};
        const emailError = fields.email?.[0];
        const passwordError = fields.password?.[0];
        if (emailError) setError('email', { message: emailError }, { shouldFocus: true });
        if (passwordError) setError('password', { message: passwordError }, { shouldFocus: !emailError });
        if (!emailError && !passwordError) setError('root', { message: errorMessage(error) });
      },
    }),
  );

  if (!open) {
    return (
      <div className="flex flex-col gap-2">
        {sent && (
          <div data-testid="email-change-sent">
            <Alert tone="info">{sent}</Alert>
          </div>
        )}
        <div>
          <Button
            ref={opener}
            variant="secondary"
            onClick={() => {
              setSent(null);
              setOpen(true);
            }}
          >
            Change email
          </Button>
        </div>
      </div>
    );
  }
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="email-change-heading"
      className="flex flex-col gap-3 rounded-md border border-slate-200 p-3 sm:p-4"
    >
      <h3 id="email-change-heading" className="text-sm font-semibold text-slate-900">
        Change your email
      </h3>
      <p className="text-sm text-slate-700">
        We will send a link to the new address. Your email changes when you open it while signed in here.
      </p>
      {formState.errors.root?.message && <Alert tone="error">{formState.errors.root.message}</Alert>}
      <TextField
        label="New email"
        type="email"
        autoComplete="email"
        maxLength={254}
        error={formState.errors.email?.message}
        {...register('email', { required: 'Enter the new email address' })}
      />
      {needsPassword && (
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
          error={formState.errors.password?.message}
          {...register('password', { required: 'Enter your password to change your email' })}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={request.isPending}>
          Send the link
        </Button>
        <Button variant="ghost" onClick={close} disabled={request.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
