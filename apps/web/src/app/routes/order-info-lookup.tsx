import { Redirect, useSearchParams } from 'wouter';
import { FullPageLoading } from '@/components/ui/spinner';
import { paths, QUERY_PARAM } from '@/config/paths';
import { useOrderByUid } from '@/features/orders/api/get-order-by-uid';

/** SPEC §2 "/orderinfo (no id)": look the order up by its uid, or go to /dashboard. */
export function Component() {
  const [searchParams] = useSearchParams();
  const uid = searchParams.get(QUERY_PARAM.orderUid);
  const order = useOrderByUid(uid);
  if (uid === null || uid === '' || order.isError) return <Redirect to={paths.dashboard} replace />;
  if (order.isPending) return <FullPageLoading />;
  return <Redirect to={paths.orderInfo(order.data.id)} replace />;
}
