import { defaultOrderForm } from '../order-form/index';
import { toOrderBody } from '../order-form/rules/index';
import { checkOrderSubmission, type OrderCatalogues, type OrderCheckResult } from '../order-form/submission';
import { orderBodySchema } from '../order-form/order-body';

/** The catalogues an order of the stripping tests is checked against. */
const catalogues: OrderCatalogues = {
  workTypes: [1, 2, 3, 4],
  levels: [1, 2, 3, 4, 5],
  paperTypes: [1, 17],
  paperFormats: [1, 2],
  subjects: [4],
  resumeServices: [1],
  urgencies: [
    { id: 1, hours: 240 },
    { id: 3, hours: 24 },
  ],
};

/** The server's check of an order whose one stripped `field` is `value`, the others valid (past the wire's raw caps). */
export const submitWithField = (field: 'topic' | 'paperDetails' | 'credentials' | 'discountCode', value: string): OrderCheckResult => {
  const body = orderBodySchema.parse(
    toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'A proper title', details: 'Enough details here' }, 1),
  );
  return checkOrderSubmission({ ...body, [field]: value }, { siteCategory: 1, catalogues });
};
