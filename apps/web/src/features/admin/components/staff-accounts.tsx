import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ROLE, isValidEmail } from '@app/domain/auth/rules';
import type { AdminStaff, AdminStaffBody } from '@app/domain/admin';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, TextField } from '@/components/ui/field';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useAddStaff, useStaffAccounts, useStaffAction } from '../api/admin';

const ROLE_NAME: Record<number, string> = { [ROLE.writer]: 'Writer', [ROLE.support]: 'Support', [ROLE.admin]: 'Admin' };

function AddStaffForm() {
  const add = useAddStaff();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, reset } = useForm<AdminStaffBody>({
    defaultValues: { role: 'writer', email: '', firstName: '', lastName: '' },
  });
  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    add.mutate(values, {
      onSuccess: (created) => {
        toast.success(`${created.email} added; a link to set the password was emailed`);
        reset();
      },
      onError: (error) => {
        const fields = error instanceof ApiError ? error.fieldErrors : {};
        const email = fields.email?.[0];
        if (email) setError('email', { message: email }, { shouldFocus: true });
        else setFormError(errorMessage(error));
      },
    });
  });
  return (
    <form noValidate aria-label="Add a staff account" onSubmit={(event) => void onSubmit(event)} className="grid gap-3 sm:grid-cols-2">
      <TextField
        label="Email"
        type="email"
        autoComplete="off"
        error={formState.errors.email?.message}
        {...register('email', { validate: (v) => isValidEmail(v) || 'Invalid email address.' })}
      />
      <Field label="Role">
        {(control) => (
          <select
            {...control}
            className="block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base"
            {...register('role')}
          >
            <option value="writer">Writer</option>
            <option value="support">Support</option>
            <option value="admin">Admin</option>
          </select>
        )}
      </Field>
      <TextField
        label="First name"
        autoComplete="off"
        error={formState.errors.firstName?.message}
        {...register('firstName', { validate: (v) => v.trim() !== '' || 'Enter a first name' })}
      />
      <TextField label="Last name" autoComplete="off" {...register('lastName')} />
      {formError && (
        <div className="sm:col-span-2">
          <Alert tone="error">{formError}</Alert>
        </div>
      )}
      <div className="sm:col-span-2">
        <Button type="submit" busy={add.isPending}>
          Add account
        </Button>
      </div>
    </form>
  );
}

/** ADR 0090: staff accounts: add (the holder sets a password from the emailed link), suspend (every session ends), reset the password. */
export function StaffAccounts({ selfId }: { selfId: number }) {
  const staff = useStaffAccounts();
  const action = useStaffAction();
  const [confirm, setConfirm] = useState<{ account: AdminStaff; action: 'suspend' | 'password-reset' } | null>(null);
  const run = () => {
    if (!confirm) return;
    action.mutate(
      { id: confirm.account.id, action: confirm.action },
      {
        onSuccess: (account) => {
          toast.success(
            confirm.action === 'suspend'
              ? `${account.email} suspended; every session ended`
              : `Password of ${account.email} reset; a link was emailed`,
          );
          setConfirm(null);
        },
        onError: (error) => {
          toast.error(errorMessage(error));
          setConfirm(null);
        },
      },
    );
  };
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="add-staff-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="add-staff-heading" className="text-lg font-semibold">
          Add a staff account
        </h2>
        <AddStaffForm />
      </section>
      <section aria-labelledby="staff-list-heading" className="flex flex-col gap-3">
        <h2 id="staff-list-heading" className="text-lg font-semibold">
          All staff accounts
        </h2>
        {staff.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm">
            <Spinner /> Loading…
          </p>
        ) : staff.isError ? (
          <Alert tone="error" title="Staff accounts could not be loaded">
            {errorMessage(staff.error)}
          </Alert>
        ) : (
          <ul aria-label="Staff accounts" className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {staff.data.staff.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div className="min-w-0">
                  <p className="font-semibold break-words">
                    {s.firstName} {s.lastName} <span className="font-normal text-slate-700">#{s.id}</span>
                  </p>
                  <p className="text-sm break-all text-slate-700">{s.email}</p>
                  <p className="text-sm text-slate-700">
                    {ROLE_NAME[s.role] ?? `Role ${s.role}`} · {s.active ? 'Active' : 'Suspended'} ·{' '}
                    {s.twoFactor ? 'Two-factor on' : 'Two-factor off'}
                  </p>
                </div>
                {s.id !== selfId && (
                  <div className="flex flex-wrap gap-2">
                    <Button
                      variant="secondary"
                      onClick={() => setConfirm({ account: s, action: 'password-reset' })}
                      aria-label={`Reset the password of ${s.email}`}
                    >
                      Reset password
                    </Button>
                    {s.active && (
                      <Button
                        variant="secondary"
                        onClick={() => setConfirm({ account: s, action: 'suspend' })}
                        aria-label={`Suspend ${s.email}`}
                      >
                        Suspend
                      </Button>
                    )}
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <Dialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm?.action === 'suspend' ? 'Suspend this account?' : 'Reset this password?'}
      >
        <p className="text-sm">
          {confirm?.action === 'suspend'
            ? `${confirm.account.email} will be signed out everywhere at once and can no longer sign in.`
            : `${confirm?.account.email ?? ''} will be signed out everywhere; the old password stops working and a link to set a new one is emailed.`}
        </p>
        <div className="flex flex-wrap gap-3">
          <Button busy={action.isPending} onClick={run}>
            {confirm?.action === 'suspend' ? 'Suspend' : 'Reset password'}
          </Button>
          <Button variant="secondary" onClick={() => setConfirm(null)}>
            Cancel
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
