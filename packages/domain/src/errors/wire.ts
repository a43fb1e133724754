import { z } from 'zod';
import type { ErrorBody } from './domain-error';

/**
 * The JSON body of every 4xx answer (CONTRACT "Errors and access"): `{ message?, errors? }`, as the
 * server's error handler writes it. Every route's response schema uses this one; it lives apart from
 * `errors/index.ts` so the web app's eager chunks, which import that file, load no zod.
 */
export const errorBodySchema: z.ZodType<ErrorBody> = z.object({
  message: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
