import { useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useEnableTwoFactor, useTwoFactorSetup, useTwoFactorStatus } from '../api/admin';

/** The QR code as an image: the server's SVG as a data URL (no markup of it is put into the page). */
const svgSrc = (svg: string): string => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/**
 * ADR 0090: two-factor sign-in for the signed-in staff member: scan the QR code with an authenticator app
 * (or type the key), then the first code turns it on. Admins must, before the admin pages open.
 */
export function TwoFactorSetup() {
  const status = useTwoFactorStatus();
  const setup = useTwoFactorSetup();
  const enable = useEnableTwoFactor();
  const { register, handleSubmit, formState, setError, reset } = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const onSubmit = handleSubmit(({ code }) =>
    enable.mutate(code.trim(), {
      onSuccess: () => {
        toast.success('Two-factor sign-in is on');
        setup.reset();
        reset();
      },
      onError: (error) =>
        setError(
          'code',
          { message: (error instanceof ApiError ? error.fieldErrors.code?.[0] : undefined) ?? errorMessage(error) },
          { shouldFocus: true },
        ),
    }),
  );

  if (status.isPending)
    return (
      <p role="status" className="flex items-center gap-2 text-sm">
        <Spinner /> Loading…
      </p>
    );
  if (status.isError)
    return (
      <Alert tone="error" title="Two-factor sign-in could not be loaded">
        {errorMessage(status.error)}
      </Alert>
    );
  if (status.data.enabled) {
    return (
      <Alert tone="success" title="Two-factor sign-in is on">
        Each sign-in asks for the 6-digit code your authenticator app shows.
      </Alert>
    );
  }
  return (
    <section aria-labelledby="tfa-heading" className="flex max-w-xl flex-col gap-4">
      <h2 id="tfa-heading" className="text-lg font-semibold">
        Turn on two-factor sign-in
      </h2>
      {status.data.required && (
        <Alert tone="info" title="Admins must use two-factor sign-in">
          The admin pages open once it is on.
        </Alert>
      )}
      {!setup.data ? (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-slate-700">You need an authenticator app on your phone (any app for time-based codes).</p>
          {setup.isError && <Alert tone="error">{errorMessage(setup.error)}</Alert>}
          <div>
            <Button busy={setup.isPending} onClick={() => setup.mutate()}>
              Show the QR code
            </Button>
          </div>
        </div>
      ) : (
        <form noValidate aria-label="Confirm two-factor sign-in" onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
          <ol className="flex list-decimal flex-col gap-3 pl-5 text-sm">
            <li>
              Scan this code with the app:
              <img
                src={svgSrc(setup.data.qrSvg)}
                alt="QR code for your authenticator app"
                className="mt-2 size-48 rounded border border-slate-200 bg-white p-2"
              />
            </li>
            <li>
              Or type this key into the app:{' '}
              <code className="rounded bg-slate-100 px-1 break-all" data-testid="totp-secret">
                {setup.data.secret}
              </code>
            </li>
            <li>Enter the 6-digit code the app shows now.</li>
          </ol>
          <div className="max-w-xs">
            <TextField
              label="Code from the app"
              inputMode="numeric"
              autoComplete="one-time-code"
              error={formState.errors.code?.message}
              {...register('code', { validate: (v) => /^\d{6}$/.test(v.trim()) || 'Enter the 6 digits the app shows' })}
            />
          </div>
          <div>
            <Button type="submit" busy={enable.isPending}>
              Turn on
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
