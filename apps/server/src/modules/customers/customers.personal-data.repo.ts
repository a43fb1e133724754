import type { Queryable } from '../../db/client';

/** The account being deleted, as every module's erase step is given it (the email as it was before the erasure). */
export interface DeletedAccount {
  customerId: number;
  email: string;
  now: Date;
}

/** One module's part of an account deletion, run in the deletion's one transaction (ADR 0052, 0077). */
export type EraseStep = (tx: Queryable, account: DeletedAccount) => Promise<void>;

/** One batch of a report section, by keyset: the rows after `afterId`, oldest first, at most `limit`. */
export type ReportSection = (
  q: Queryable,
  page: { customerId: number; afterId: number; limit: number },
) => Promise<Record<string, unknown>[]>;

/**
 * What the app holds of a customer, module by module: each module's face gives its erase step and its report
 * sections, and the composition root (services.ts) lists them. The report's keys are its sections, in order.
 */
export interface PersonalData {
  erase: readonly EraseStep[];
  report: Readonly<Record<string, ReportSection>>;
}

/** The customers module's own part of a deletion: the consent history goes. */
export const eraseConsentHistory = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query('DELETE FROM consent_history WHERE customer_id = $1', [customerId]);
};

/** The report's `consentHistory` section. */
export const consentHistoryReport: ReportSection = (q, { customerId, afterId, limit }) =>
  q.query(
    `SELECT c.id, c.consent, c.granted, c.previous, c.created_at AS date
    FROM consent_history c WHERE c.customer_id = $1 AND c.id > $2 ORDER BY c.id LIMIT $3`,
    [customerId, afterId, limit],
  );
