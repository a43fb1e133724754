import { TERMS_MESSAGE } from '@app/domain/auth/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useAcceptTerms, useTermsStatus } from '../api/terms';

/**
 * ADR 0085: after a sign-in, a customer who has not accepted the current Terms of Use and Privacy Policy
 * is asked to, before anything else; the acceptance is recorded with its time, address and browser. The
 * only other way out is to sign out.
 */
export function TermsDialog({ onSignOut, signingOut }: { onSignOut: () => void; signingOut: boolean }) {
  const status = useTermsStatus();
  const accept = useAcceptTerms();
  const current = status.data;
  if (!current || current.accepted) return null;
  return (
    <Dialog open onOpenChange={() => undefined} title={TERMS_MESSAGE.dialogTitle} dismissible={false}>
      <p className="text-sm text-slate-700">{TERMS_MESSAGE.dialogBody}</p>
      <ul className="flex flex-col gap-1 text-sm">
        <li>
          <a href={paths.terms} target="_blank" rel="noreferrer">
            Terms of Use
          </a>{' '}
          <span className="text-slate-600">(version {current.termsVersion})</span>
        </li>
        <li>
          <a href={paths.privacy} target="_blank" rel="noreferrer">
            Privacy Policy
          </a>{' '}
          <span className="text-slate-600">(version {current.privacyVersion})</span>
        </li>
      </ul>
      {accept.isError && <Alert tone="error">{errorMessage(accept.error)}</Alert>}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" busy={signingOut} onClick={onSignOut}>
          {TERMS_MESSAGE.signOut}
        </Button>
        <Button
          busy={accept.isPending}
          onClick={() => accept.mutate({ termsVersion: current.termsVersion, privacyVersion: current.privacyVersion })}
        >
          {TERMS_MESSAGE.accept}
        </Button>
      </div>
    </Dialog>
  );
}
