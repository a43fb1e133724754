import { useForm } from 'react-hook-form';
import { useRegisterAfterChange } from '@/lib/register-after-change';
import { AUTH_MESSAGE, FORGOT_PASSWORD_RESULT, isValidEmail } from '@app/domain/auth/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { useForgotPassword } from '../api/forgot-password';

interface ForgotPasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

interface ForgotPasswordValues {
  email: string;
}

function ForgotPasswordForm() {
  const forgot = useForgotPassword();
  const { register, handleSubmit, formState } = useForm<ForgotPasswordValues>({
    mode: 'onBlur',
    defaultValues: { email: '' },
  });
  const field = useRegisterAfterChange(register, formState.isSubmitted);
  const onSubmit = handleSubmit((values) => forgot.mutate(values.email));
  const result = forgot.data;

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={formState.errors.email?.message}
        // SPEC §5 "Forgot password and magic link": an invalid email gives this warning.
        {...field('email', { validate: (v) => isValidEmail(v) || AUTH_MESSAGE.emailMandatory })}
      />
      {forgot.isSuccess && result === FORGOT_PASSWORD_RESULT.success && <Alert tone="success">{AUTH_MESSAGE.newPasswordSent}</Alert>}
      {forgot.isSuccess && result === FORGOT_PASSWORD_RESULT.unknownEmail && <Alert tone="error">{AUTH_MESSAGE.emailNotOnSite}</Alert>}
      {(forgot.isError ||
        (forgot.isSuccess && result !== FORGOT_PASSWORD_RESULT.success && result !== FORGOT_PASSWORD_RESULT.unknownEmail)) && (
        <Alert tone="error">{AUTH_MESSAGE.emailCheckError}</Alert>
      )}
      <Button type="submit" busy={forgot.isPending}>
        Send new password
      </Button>
    </form>
  );
}

/** SPEC §2 modal "forgot password": POST /forgotpassword and its three outcomes (SPEC §8). */
export function ForgotPasswordDialog({ open, onOpenChange }: ForgotPasswordDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Forgot password">
      <p className="text-sm text-slate-700">Enter the email of your account and we will send you a new password.</p>
      <ForgotPasswordForm />
    </Dialog>
  );
}
