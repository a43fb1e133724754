import { lazy, Suspense, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useRegisterAfterChange } from '@/lib/register-after-change';
import { AUTH_MESSAGE, emailOnItsWayBody, isValidEmail } from '@app/domain/auth/rules';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useRequestMagicLink } from '../api/request-magic-link';
import { useSignIn } from '../api/sign-in';

// Radix Dialog is not part of /login's first paint (ADR 0057): it loads when the link is pressed.
const ForgotPasswordDialog = lazy(() => import('./forgot-password-dialog').then((m) => ({ default: m.ForgotPasswordDialog })));

interface LoginValues {
  email: string;
  password: string;
  /** ADR 0090: asked only after the server answered that the account needs it. */
  otp: string;
}

type Notice = { tone: 'error' | 'success'; title?: string; text: string } | null;

interface LoginFormProps {
  /** Called once the tokens are stored; resolves false when the account has no customer area. */
  onSignedIn: () => Promise<boolean>;
}

/** UI contract "/login": SPEC §5 messages on blur and submit, server messages as an alert. */
export function LoginForm({ onSignedIn }: LoginFormProps) {
  const signIn = useSignIn();
  const magicLink = useRequestMagicLink();
  const [notice, setNotice] = useState<Notice>(null);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  const { register, handleSubmit, formState, getValues, setError, setFocus, trigger } = useForm<LoginValues>({
    mode: 'onBlur',
    defaultValues: { email: '', password: '', otp: '' },
  });
  const field = useRegisterAfterChange(register, formState.isSubmitted);
  // ADR 0090: focus moves to the code field when it appears.
  useEffect(() => {
    if (needsCode) setFocus('otp');
  }, [needsCode, setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    setNotice(null);
    try {
      await signIn.mutateAsync(needsCode ? values : { email: values.email, password: values.password });
    } catch (error) {
      // ADR 0090: a staff account with two-factor sign-in: the server asks for the code on the field `otp`.
      const otpError = error instanceof ApiError ? error.fieldErrors.otp?.[0] : undefined;
      if (otpError) {
        if (needsCode) setError('otp', { message: otpError }, { shouldFocus: true });
        else setNeedsCode(true);
        return;
      }
      setNotice({ tone: 'error', text: errorMessage(error) });
      return;
    }
    setFinishing(true);
    const found = await onSignedIn().catch(() => false);
    setFinishing(false);
    if (!found) setNotice({ tone: 'error', text: TRANSPORT_MESSAGE.somethingWentWrong });
  });

  const onMagicLink = async () => {
    const email = getValues('email').trim();
    setNotice(null);
    if (!isValidEmail(email)) {
      // Let the blur validation of the field finish first, then put SPEC §5's magic-link wording in place.
      await trigger('email');
      setError('email', { message: AUTH_MESSAGE.emailMandatory }, { shouldFocus: true });
      return;
    }
    magicLink.mutate(email, {
      onSuccess: () => setNotice({ tone: 'success', title: AUTH_MESSAGE.emailOnItsWay, text: emailOnItsWayBody(email) }),
      onError: (error) =>
        setNotice({
          tone: 'error',
          text: error instanceof ApiError && error.status === 404 ? AUTH_MESSAGE.emailNotOnSite : errorMessage(error),
        }),
    });
  };

  return (
    <>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          error={formState.errors.email?.message}
          {...field('email', { validate: (v) => isValidEmail(v) || AUTH_MESSAGE.invalidEmail })}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={formState.errors.password?.message}
          {...field('password', { validate: (v) => v.length > 0 || AUTH_MESSAGE.passwordMandatory })}
        />
        {needsCode && (
          <TextField
            label="Code from your authenticator app"
            inputMode="numeric"
            autoComplete="one-time-code"
            hint="Two-factor sign-in is on for this account: enter the 6-digit code the app shows now."
            error={formState.errors.otp?.message}
            {...field('otp', { validate: (v) => /^\d{6}$/.test(v.trim()) || 'Enter the 6-digit code from your authenticator app' })}
          />
        )}
        {notice && (
          <Alert tone={notice.tone} title={notice.title}>
            {notice.text}
          </Alert>
        )}
        <Button type="submit" busy={signIn.isPending || finishing}>
          Sign in
        </Button>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Button variant="link" onClick={() => setForgotOpen(true)}>
            Forgot password?
          </Button>
          <Button variant="secondary" busy={magicLink.isPending} onClick={() => void onMagicLink()}>
            Email me a sign-in link
          </Button>
        </div>
      </form>
      {forgotOpen && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
        </Suspense>
      )}
    </>
  );
}
