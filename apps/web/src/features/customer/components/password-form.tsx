import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MAX_LENGTH } from '@app/domain/auth/rules';
import { CUSTOMER_MESSAGE, passwordChangeFormSchema, type PasswordChangeFormValues } from '@app/domain/customer';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { ApiError } from '@/lib/api-client';
import { useRegisterAfterChange } from '@/lib/register-after-change';
import { useChangePassword } from '../api/change-password';

/** SPEC §7 PUT …/customer/password: the current password first; the other sessions end (ADR 0053). */
export function PasswordForm() {
  const change = useChangePassword();
  const { register, handleSubmit, formState, setError, reset } = useForm<PasswordChangeFormValues>({
    resolver: zodResolver(passwordChangeFormSchema),
    mode: 'onBlur',
    defaultValues: { currentPassword: '', newPassword: '', repeatPassword: '' },
  });
  const field = useRegisterAfterChange(register, formState.isSubmitted);
  const errors = formState.errors;
  const onSubmit = handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          reset();
          toast.success(CUSTOMER_MESSAGE.passwordUpdated);
        },
        onError: (error) => {
          const wrong = error instanceof ApiError ? error.fieldErrors.currentPassword?.[0] : undefined;
          if (wrong) setError('currentPassword', { message: wrong }, { shouldFocus: true });
          toast.error(TRANSPORT_MESSAGE.somethingWentWrong);
        },
      },
    ),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        maxLength={PASSWORD_MAX_LENGTH}
        error={errors.currentPassword?.message}
        {...field('currentPassword')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          error={errors.newPassword?.message}
          {...field('newPassword')}
        />
        <TextField
          label="Repeat new password"
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          error={errors.repeatPassword?.message}
          {...field('repeatPassword')}
        />
      </div>
      <p className="text-sm text-slate-600">Changing the password signs out every other device; this one stays signed in.</p>
      <div>
        <Button type="submit" busy={change.isPending}>
          Change password
        </Button>
      </div>
    </form>
  );
}
