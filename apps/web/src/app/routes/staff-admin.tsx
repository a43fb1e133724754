import { Redirect, useParams } from 'wouter';
import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useTwoFactorStatus } from '@/features/admin/api/admin';
import { AuditLog } from '@/features/admin/components/audit-log';
import { DiscountsAdmin } from '@/features/admin/components/discounts-admin';
import { PricesEditor } from '@/features/admin/components/prices-editor';
import { StaffAccounts } from '@/features/admin/components/staff-accounts';
import { TwoFactorSetup } from '@/features/admin/components/two-factor';
import { isAdmin, type StaffMe } from '@/features/staff/api/get-staff-me';

const SECTIONS = {
  prices: 'Prices',
  discounts: 'Discount codes',
  staff: 'Staff accounts',
  audit: 'Audit log',
} as const;
type Section = keyof typeof SECTIONS;
const isSection = (value: string): value is Section => Object.hasOwn(SECTIONS, value);

/** ADR 0090: the staff member's own two-factor sign-in. */
export function TwoFactorPage() {
  return (
    <div className="flex flex-col gap-4">
      <PageHeading>Two-factor sign-in</PageHeading>
      <TwoFactorSetup />
    </div>
  );
}

/** ADR 0090: the admin section (role 7): its pages open once two-factor sign-in is on, as the server requires. */
export function AdminPage({ me }: { me: StaffMe }) {
  const { section = '' } = useParams();
  const twoFactor = useTwoFactorStatus();
  if (!isAdmin(me) || !isSection(section)) return <Redirect to={paths.notFound} replace />;
  let body;
  if (twoFactor.isPending) {
    body = (
      <p role="status" className="flex items-center gap-2 text-sm">
        <Spinner /> Loading…
      </p>
    );
  } else if (!twoFactor.data?.enabled) {
    body = <TwoFactorSetup />;
  } else {
    body = {
      prices: <PricesEditor />,
      discounts: <DiscountsAdmin />,
      staff: <StaffAccounts selfId={me.id} />,
      audit: <AuditLog />,
    }[section];
  }
  return (
    <div className="flex flex-col gap-4">
      <PageHeading>{SECTIONS[section]}</PageHeading>
      {body}
    </div>
  );
}
