import type { PaymentAttentionReason } from '@app/domain';
import type { Queryable } from '../../db/client';

/** SQL of the reconciliation job (ADR 0037): its whole state is on the attempt rows. */
export const createReconcileRepo = (q: Queryable) => ({
  /**
   * Claims up to `limit` open attempts that are due (first check `afterMs` after creation, later ones at
   * reconcile_at) and moves their next check to `nextAt` before anyone asks the provider: another instance
   * skips them (SKIP LOCKED, then the new time), and a crash leaves them due again at `nextAt`.
   * Run it in a transaction.
   */
  async claimDue({
    now,
    afterMs,
    nextAt,
    limit,
  }: {
    now: Date;
    afterMs: number;
    nextAt: Date;
    limit: number;
  }): Promise<{ id: string; checks: number }[]> {
    const due = await q.query<{ id: string }>(
      `SELECT id FROM payments
        WHERE state IN ('created', 'pending') AND support_since IS NULL
          AND COALESCE(reconcile_at, created_at + $2 * interval '1 millisecond') <= $1
        ORDER BY COALESCE(reconcile_at, created_at), id
        LIMIT $3
        FOR UPDATE SKIP LOCKED`,
      [now, afterMs, limit],
    );
    if (due.length === 0) return [];
    const rows = await q.query<{ id: string; reconcile_checks: number }>(
      `UPDATE payments SET reconcile_at = $2, reconcile_checks = reconcile_checks + 1
        WHERE id = ANY($1::text[]) RETURNING id, reconcile_checks`,
      [due.map((r) => r.id), nextAt],
    );
    return rows.map((r) => ({ id: String(r.id), checks: Number(r.reconcile_checks) }));
  },

  /** When the attempt is asked about next (the delay grows with every check). */
  async schedule(id: string, at: Date): Promise<void> {
    await q.query('UPDATE payments SET reconcile_at = $2 WHERE id = $1', [id, at]);
  },

  /** The provider cannot be asked or never settled it: support looks at it; the job stops asking. */
  async handToSupport({ id, now, reason }: { id: string; now: Date; reason: PaymentAttentionReason }): Promise<void> {
    await q.query('UPDATE payments SET support_since = $2, support_reason = $3 WHERE id = $1 AND support_since IS NULL', [id, now, reason]);
  },
});
