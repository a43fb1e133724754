import { useForm } from 'react-hook-form';
import { useRegisterAfterChange } from '@/lib/register-after-change';
import { useLocation } from 'wouter';
import { AUTH_MESSAGE, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@app/domain/auth/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useResetPassword } from '../api/reset-password';

interface ResetPasswordValues {
  password: string;
}

const checkPassword = (value: string): true | string => {
  if (value.length === 0) return AUTH_MESSAGE.passwordMandatory;
  if (value.length < PASSWORD_MIN_LENGTH) return AUTH_MESSAGE.passwordTooShort;
  return true;
};

/** UI contract "/reset-password": success goes to /login with a toast; failure shows the server's message. */
export function ResetPasswordForm({ token }: { token: string }) {
  const reset = useResetPassword();
  const [, navigate] = useLocation();
  const { register, handleSubmit, formState } = useForm<ResetPasswordValues>({
    mode: 'onBlur',
    defaultValues: { password: '' },
  });
  const field = useRegisterAfterChange(register, formState.isSubmitted);
  const onSubmit = handleSubmit((values) =>
    reset.mutate(
      { token, password: values.password },
      {
        onSuccess: () => {
          toast.success(AUTH_MESSAGE.passwordChanged);
          navigate(paths.login, { replace: true });
        },
      },
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={formState.errors.password?.message}
        {...field('password', { validate: checkPassword })}
      />
      {reset.isError && <Alert tone="error">{errorMessage(reset.error)}</Alert>}
      <Button type="submit" busy={reset.isPending}>
        Set new password
      </Button>
    </form>
  );
}
