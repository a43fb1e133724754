import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { PASSWORD_MAX_LENGTH } from '@app/domain/auth/rules';
import { ACCOUNT_DELETION_REDIRECT_MS } from '@app/domain/ui';
import { consentLabel, CUSTOMER_MESSAGE, PRIVACY_CONSENTS, privacyBodyOf, type Customer, type PrivacyBody } from '@app/domain/customer';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { CheckboxField, TextField } from '@/components/ui/field';
import { Tabs } from '@/components/ui/tabs';
import { toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { ApiError, holdSessionEnd } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useConsentHistory } from '../api/consent-history';
import { useDeactivateAccount } from '../api/deactivate';
import { useDownloadReport } from '../api/download-report';
import { useUpdatePrivacy } from '../api/update-privacy';

type PrivacyTab = 'settings' | 'personal-data' | 'consent';

/** Consent preferences: the six flags (CONTRACT: booleans), saved together; each change is kept with its time. */
function ConsentPreferences({ customer }: { customer: Customer }) {
  const update = useUpdatePrivacy();
  const { register, handleSubmit, formState } = useForm<PrivacyBody>({ values: privacyBodyOf(customer) });
  const onSubmit = handleSubmit((body) =>
    update.mutate(
      { customerId: customer.id, body },
      {
        onSuccess: () => toast.success(CUSTOMER_MESSAGE.preferencesSaved),
        // SPEC §8 "Privacy failure" (its spelling is SPEC's).
        onError: () => toast.error(CUSTOMER_MESSAGE.privacyFailed),
      },
    ),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm text-slate-700">
          Choose what you allow. Every change is kept with its date in your consent history.
        </legend>
        {PRIVACY_CONSENTS.map((consent) => (
          <div key={consent.key} className="flex flex-col gap-0.5">
            <CheckboxField label={consent.label} aria-describedby={`consent-${consent.key}`} {...register(consent.key)} />
            <p id={`consent-${consent.key}`} className="ml-6 text-sm text-slate-600">
              {consent.description}
            </p>
          </div>
        ))}
      </fieldset>
      <div>
        <Button type="submit" busy={update.isPending} disabled={!formState.isDirty}>
          Save preferences
        </Button>
      </div>
      <ConsentHistoryList />
    </form>
  );
}

const onOff = (v: boolean): string => (v ? 'On' : 'Off');

/** ADR 0097: the consent history the modal promises: each change with its date, the flag and old → new. */
function ConsentHistoryList() {
  const history = useConsentHistory();
  return (
    <section aria-labelledby="consent-history-heading" className="flex flex-col gap-2 border-t border-slate-200 pt-4">
      <h3 id="consent-history-heading" className="text-sm font-semibold text-slate-900">
        Consent history
      </h3>
      {history.isPending && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
          <Spinner /> Loading your consent history
        </p>
      )}
      {history.isError && <p className="text-sm text-red-700">Your consent history could not be loaded.</p>}
      {history.data && history.data.entries.length === 0 && (
        <p className="text-sm text-slate-700">No changes yet: your choices are the ones made when you signed up.</p>
      )}
      {history.data && history.data.entries.length > 0 && (
        <>
          <ol
            aria-labelledby="consent-history-heading"
            className="flex max-h-56 flex-col divide-y divide-slate-100 overflow-y-auto text-sm"
          >
            {history.data.entries.map((entry, i) => (
              <li
                key={`${entry.date}-${entry.consent}-${i}`}
                className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5"
                data-testid="consent-change"
              >
                <span className="font-medium text-slate-900">{consentLabel(entry.consent)}</span>
                <span className="text-slate-800">
                  {onOff(entry.previous)} <span aria-hidden="true">→</span>
                  <span className="sr-only">to</span> <strong>{onOff(entry.granted)}</strong>
                </span>
                <time dateTime={entry.date} className="w-full text-xs text-slate-600 sm:w-auto">
                  {formatDateTime(entry.date)}
                </time>
              </li>
            ))}
          </ol>
          {history.data.total > history.data.entries.length && (
            <p className="text-xs text-slate-600">
              The {history.data.entries.length} newest of {history.data.total} changes; the personal-data report has them all.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function PersonalData({ customer }: { customer: Customer }) {
  const report = useDownloadReport();
  return (
    <div className="flex flex-col gap-3 text-sm text-slate-800">
      <p>
        Download everything we keep about you as one JSON file: your profile, orders, messages, the list of your files, transactions,
        referrals, loyalty points and your consent history.
      </p>
      <div>
        <Button
          busy={report.isPending}
          onClick={() => report.mutate(customer.id, { onError: () => toast.error(CUSTOMER_MESSAGE.somethingWentWrong) })}
        >
          Download my data
        </Button>
      </div>
    </div>
  );
}

type DeletionStep = 'idle' | 'confirming' | 'mailed';

/** What a failed deletion call says in the panel: SPEC §8's texts, or the server's clear one (ADR 0070). */
const deletionFailure = (error: unknown): string => {
  if (!(error instanceof ApiError)) return CUSTOMER_MESSAGE.deletionFailed;
  const said = error.serverMessage;
  if (said === CUSTOMER_MESSAGE.emailNotConfirmed || error.status === 429) return said ?? CUSTOMER_MESSAGE.deletionFailed;
  return CUSTOMER_MESSAGE.deletionFailed;
};

/**
 * SPEC §2 account-delete confirmation; SPEC §8 "Account deletion" texts; SPEC §9 3 s to /logout. ADR 0070:
 * the confirmation asks for the password; an account without one is mailed a link that deletes it.
 */
function DeleteAccount({ customer }: { customer: Customer }) {
  const deactivate = useDeactivateAccount();
  const [step, setStep] = useState<DeletionStep>('idle');
  const [, navigate] = useLocation();
  const timer = useRef<number | undefined>(undefined);
  const opener = useRef<HTMLButtonElement>(null);
  const mailedNotice = useRef<HTMLDivElement>(null);
  const byLink = customer.signInByLinkOnly;
  const { register, handleSubmit, formState, setError, reset, setFocus } = useForm<{ password: string }>({
    defaultValues: { password: '' },
  });
  // ADR 0070: while the deletion is asked and for its 3 s, the session's end (the server closes this tab's
  // chat socket as it deletes) does not move the app: the deletion leaves for /logout itself.
  const held = useRef<((leftByItself: boolean) => void) | null>(null);
  const release = (leftByItself: boolean) => {
    held.current?.(leftByItself);
    held.current = null;
  };
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      held.current?.(false);
    },
    [],
  );
  // The panel's first control takes the focus when it opens; the mailed notice when it shows; the
  // "Delete account" button again when the panel is left.
  useEffect(() => {
    if (step === 'confirming' && !byLink) setFocus('password');
    if (step === 'mailed') mailedNotice.current?.focus();
  }, [step, byLink, setFocus]);

  if (deactivate.isSuccess && !deactivate.data.confirmByEmail) {
    return (
      <Alert tone="success" title={CUSTOMER_MESSAGE.accountDeleted}>
        You will be signed out in a few seconds.
      </Alert>
    );
  }
  const leave = () => {
    setStep('idle');
    reset();
    deactivate.reset();
    window.setTimeout(() => opener.current?.focus(), 0);
  };
  const send = (password: string | undefined) => {
    release(false);
    held.current = holdSessionEnd();
    deactivate.mutate(password, {
      onSuccess: (answer) => {
        if (answer.confirmByEmail) {
          release(false);
          setStep('mailed');
          return;
        }
        toast.success(CUSTOMER_MESSAGE.accountDeleted);
        timer.current = window.setTimeout(() => {
          navigate(paths.logout, { replace: true });
          release(true);
        }, ACCOUNT_DELETION_REDIRECT_MS);
      },
      onError: (error) => {
        release(false);
        const wrong = error instanceof ApiError ? error.fieldErrors.password?.[0] : undefined;
        if (wrong) setError('password', { message: wrong }, { shouldFocus: true });
      },
    });
  };
  const submit = ({ password }: { password: string }) => {
    if (byLink) send(undefined);
    else if (password === '') setError('password', { message: CUSTOMER_MESSAGE.deletionPasswordMissing }, { shouldFocus: true });
    else send(password);
  };
  // A refused password is said on its field; any other failure in the panel.
  const failure = deactivate.isError && !formState.errors.password ? deletionFailure(deactivate.error) : null;
  return (
    <section aria-labelledby="delete-account-title" className="flex flex-col gap-3 text-sm text-slate-800">
      <h3 id="delete-account-title" className="text-base font-semibold text-slate-900">
        Delete account
      </h3>
      <p>
        Deleting the account signs you out everywhere and erases your personal data. Payments and transactions stay, without your name, for
        our accounting.
      </p>
      {!customer.emailConfirmed && <p>Deleting the account needs a confirmed email.</p>}
      {failure && (
        <p role="alert" className="text-red-700">
          {failure}
        </p>
      )}
      {step === 'mailed' ? (
        <div ref={mailedNotice} tabIndex={-1} className="outline-none">
          <Alert tone="success" title="Check your email">
            {CUSTOMER_MESSAGE.deletionLinkSent}
          </Alert>
        </div>
      ) : step === 'confirming' ? (
        <form
          noValidate
          onSubmit={(event) => void handleSubmit(submit)(event)}
          aria-labelledby="delete-account-confirm"
          className="flex flex-col gap-3 rounded-md border border-red-300 bg-red-50 p-3"
        >
          <p id="delete-account-confirm" className="font-medium text-red-900">
            Delete your account for good? This cannot be undone.
          </p>
          {byLink ? (
            <p>Your account has no password: we will email you a link, and opening it while signed in deletes the account.</p>
          ) : (
            <TextField
              label="Your password"
              type="password"
              autoComplete="current-password"
              maxLength={PASSWORD_MAX_LENGTH}
              hint="Enter your password to confirm it is you."
              error={formState.errors.password?.message}
              {...register('password')}
            />
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" className="bg-red-700! text-white!" busy={deactivate.isPending}>
              {byLink ? 'Email me the link' : 'Yes, delete my account'}
            </Button>
            <Button type="button" variant="secondary" onClick={leave}>
              Keep my account
            </Button>
          </div>
        </form>
      ) : (
        <div>
          <Button ref={opener} variant="secondary" className="border-red-300! text-red-800!" onClick={() => setStep('confirming')}>
            Delete account
          </Button>
        </div>
      )}
    </section>
  );
}

/** SPEC §2 privacy modal: settings, personal data, consent preferences, with the account-delete confirmation. */
export function PrivacyDialog({
  customer,
  open,
  onOpenChange,
}: {
  customer: Customer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [tab, setTab] = useState<PrivacyTab>('consent');
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Privacy" wide>
      <Tabs
        label="Privacy"
        value={tab}
        onValueChange={setTab}
        items={[
          { value: 'consent', label: 'Consent preferences', content: <ConsentPreferences customer={customer} /> },
          { value: 'personal-data', label: 'Personal data', content: <PersonalData customer={customer} /> },
          { value: 'settings', label: 'Settings', content: <DeleteAccount customer={customer} /> },
        ]}
      />
    </Dialog>
  );
}
