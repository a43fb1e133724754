import { useSearchParams } from 'wouter';
import { Percent, Users } from 'lucide';
import { EmptyState } from '@/components/ui/empty-state';
import { Tabs } from '@/components/ui/tabs';
import { LOYALTY_TABS, QUERY_PARAM, type LoyaltyTab } from '@/config/paths';
import { PageHeading } from '@/components/ui/page-heading';

const isLoyaltyTab = (value: string | null): value is LoyaltyTab => LOYALTY_TABS.some((tab) => tab === value);

/** SPEC §2 "/loyalty: Bonuses, with sub-tabs referral and discount" (their content comes in a later issue). */
export function Component() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(QUERY_PARAM.tab);
  const tab: LoyaltyTab = isLoyaltyTab(requested) ? requested : 'referral';
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>My Bonuses</PageHeading>
      <Tabs
        label="Bonuses"
        value={tab}
        onValueChange={(next) => setSearchParams({ [QUERY_PARAM.tab]: next }, { replace: true })}
        items={[
          {
            value: 'referral',
            label: 'Referral',
            content: (
              <EmptyState icon={Users} title="Referral program">
                <p>Your referral link and the friends who joined through it will appear here soon.</p>
              </EmptyState>
            ),
          },
          {
            value: 'discount',
            label: 'Discount',
            content: (
              <EmptyState icon={Percent} title="Loyalty discount">
                <p>Your loyalty points and the discount they earn will appear here soon.</p>
              </EmptyState>
            ),
          },
        ]}
      />
    </div>
  );
}
