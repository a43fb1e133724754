import { useEffect, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FullPageLoading } from '@/components/ui/spinner';
import { ShellSkeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { tokenStorage } from '@/lib/storage';
import { toast } from '@/components/ui/toast';
import { QUERY_PARAM } from '@/config/paths';
import { magicLinkInvalidMessage, useMagicLinkSignIn } from '@/features/auth/api/magic-link-sign-in';
import { useCurrentCustomerQuery } from '@/features/customer/api/get-customer';
import { useSiteSettings } from '@/features/settings/api/get-site-settings';
import { useThemeColor } from '@/features/settings/hooks/use-theme-color';

const SIGNED_IN_PAGES = [paths.dashboard, paths.transactions, paths.profile, paths.loyalty, paths.orderInfoLookup];
/** The customer's own pages (the shell with the side navigation), not the wizard, sign-in or staff pages. */
const isSignedInPage = (pathname: string): boolean => SIGNED_IN_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`));

function StartupFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center gap-4 p-6">
      <Alert tone="error">{TRANSPORT_MESSAGE.somethingWentWrong}</Alert>
      <Button onClick={onRetry}>Try again</Button>
    </main>
  );
}

/**
 * SPEC §2 "Startup order": site settings, then the magic-link sign-in, then the user. Until all three
 * are done a full-page loading state shows; only then do routes render.
 */
export function Startup({ children }: { children: ReactNode }) {
  const [searchParams] = useSearchParams();
  const [pathname, navigate] = useLocation();
  const magicToken = searchParams.get(QUERY_PARAM.magicLink);

  const settings = useSiteSettings();
  useThemeColor(settings.data?.application_theme.mainColor);

  const magicLink = useMagicLinkSignIn(magicToken, settings.isSuccess);
  const magicLinkDone = magicToken === null || magicLink.isSuccess || magicLink.isError;

  const customer = useCurrentCustomerQuery({ enabled: settings.isSuccess && magicLinkDone });

  const magicLinkFailed = magicLink.isError;
  const magicLinkNotice = magicLink.data?.notice ?? null;
  const magicLinkSignedIn = magicLink.data?.signedIn ?? null;
  useEffect(() => {
    if (magicToken === null || !magicLinkDone) return;
    // Issue 27: a link that signed the customer in says so ("You're signed in"), unless it has more to say:
    // it removed a password set before the mailbox was proven (ADR 0038). The token leaves the address bar.
    if (magicLinkFailed) void magicLinkInvalidMessage().then((message) => toast.error(message));
    else if (magicLinkNotice) toast.show(magicLinkNotice);
    else if (magicLinkSignedIn) toast.success(magicLinkSignedIn);
    const params = new URLSearchParams(searchParams);
    params.delete(QUERY_PARAM.magicLink);
    const search = params.toString();
    navigate(search === '' ? pathname : `${pathname}?${search}`, { replace: true });
  }, [magicToken, magicLinkDone, magicLinkFailed, magicLinkNotice, magicLinkSignedIn, searchParams, navigate, pathname]);

  if (settings.isError) return <StartupFailed onRetry={() => void settings.refetch()} />;
  if (customer.isError) return <StartupFailed onRetry={() => void customer.refetch()} />;
  if (!settings.isSuccess || !magicLinkDone || magicToken !== null || customer.isPending) {
    // Issue 27: a signed-in customer's page loads as the shell's frame with placeholders.
    return isSignedInPage(pathname) && tokenStorage.hasAny() ? <ShellSkeleton fallback={<FullPageLoading />} /> : <FullPageLoading />;
  }
  return children;
}
