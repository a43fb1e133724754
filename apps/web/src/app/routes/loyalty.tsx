import { useSearchParams } from 'wouter';
import { Tabs } from '@/components/ui/tabs';
import { LOYALTY_TABS, QUERY_PARAM, type LoyaltyTab } from '@/config/paths';
import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
import { useLoyaltyPageReady } from '@/features/loyalty/api/loyalty';
import { DiscountTab } from '@/features/loyalty/components/discount-tab';
import { PointsPanel } from '@/features/loyalty/components/points-panel';
import { ReferralTab } from '@/features/loyalty/components/referral-tab';

const isLoyaltyTab = (value: string | null): value is LoyaltyTab => LOYALTY_TABS.some((tab) => tab === value);

/** SPEC §2 "/loyalty: Bonuses, with sub-tabs referral and discount" (ADR 0050, 0051): points above, the sub-tabs below. */
export function Component() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(QUERY_PARAM.tab);
  const tab: LoyaltyTab = isLoyaltyTab(requested) ? requested : 'referral';
  const ready = useLoyaltyPageReady(tab === 'referral');
  if (!ready) {
    return (
      <div className="flex flex-col gap-6">
        <PageHeading>My Bonuses</PageHeading>
        <p className="flex items-center gap-2 text-sm text-slate-700" role="status">
          <Spinner /> Loading your bonuses…
        </p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>My Bonuses</PageHeading>
      <PointsPanel />
      <Tabs
        label="Bonuses"
        value={tab}
        onValueChange={(next) => setSearchParams({ [QUERY_PARAM.tab]: next }, { replace: true })}
        items={[
          { value: 'referral', label: 'Referral', content: <ReferralTab /> },
          { value: 'discount', label: 'Discount', content: <DiscountTab /> },
        ]}
      />
    </div>
  );
}
