import type { Discount } from '@app/domain/discount';
import { apiFetch } from '@/lib/api-client';

/** SPEC §7 apply: multipart field `code`, no token needed (CONTRACT). */
export const applyDiscount = (code: string): Promise<Discount> => {
  const form = new FormData();
  form.append('code', code);
  return apiFetch('/api/en/orders/discounts/apply', {
    method: 'POST',
    auth: false,
    form,
    schema: () => import('@app/domain/discount').then((m) => m.discountSchema),
  });
};
