import { Link, useSearchParams } from 'wouter';
import { AUTH_MESSAGE } from '@app/domain/auth/rules';
import { Alert } from '@/components/ui/alert';
import { paths, QUERY_PARAM } from '@/config/paths';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { StandalonePage } from './standalone-layout';

/** CONTRACT "Identity": the emailed link opens /reset-password?token=…. */
export function Component() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get(QUERY_PARAM.resetToken);
  return (
    <StandalonePage title="Set a new password">
      {token ? (
        <ResetPasswordForm token={token} />
      ) : (
        <>
          <Alert tone="error">{AUTH_MESSAGE.resetLinkInvalid}</Alert>
          <Link to={paths.login}>Sign in</Link>
        </>
      )}
    </StandalonePage>
  );
}
