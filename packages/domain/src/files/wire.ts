import { z } from 'zod';

/**
 * SPEC §3 "File" on the wire: id, name, typeName (the extension as the lists spell it, e.g. `pdf`,
 * `tar-gz`), size in bytes and `remote` (true: stored on the server, as opposed to a file the wizard
 * still holds locally).
 */
export const orderFileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  typeName: z.string(),
  size: z.number().int(),
  remote: z.literal(true),
});
export type OrderFile = z.infer<typeof orderFileSchema>;
export const orderFileListSchema = z.array(orderFileSchema);

/** `GET /api/en/orders/customers/files`: every file the customer uploaded, with its order. */
export const customerFileSchema = orderFileSchema.extend({ orderId: z.number().int() });
export const customerFileListSchema = z.array(customerFileSchema);
export type CustomerFile = z.infer<typeof customerFileSchema>;
