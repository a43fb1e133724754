import { CUSTOMER_ROLE_IDS, CUSTOMER_STATUS, type BillingDetails, type PrivacyBody } from '@app/domain';
import type { Queryable } from '../../db/client';
import { NO_PASSWORD_HASH } from './auth.repo';

/** The profile fields a customer edits (SPEC §7 PUT body); absent address fields keep the stored value (ADR 0053). */
export interface ProfileUpdate {
  firstName: string;
  lastName: string;
  phone: string;
  enabledNewsletters: boolean;
  enabledNightCalls: boolean;
  enabledFacebookMessenger: boolean;
  country?: string | undefined;
  state?: string | undefined;
  city?: string | undefined;
  address?: string | undefined;
  zip?: string | undefined;
  /** Absent: the stored billing details stay (ADR 0085). */
  billing?: BillingDetails | undefined;
}

/**
 * The writes the customers module makes to a customer's account row, in the caller's transaction (`q`).
 * The auth module owns `users` (ADR 0077); the customers module reads the row and shapes its answers.
 */
export const accountWrites = (q: Queryable) => ({
  /** False when no live customer account has the id. */
  async updateProfile({ customerId, profile: p, now }: { customerId: number; profile: ProfileUpdate; now: Date }): Promise<boolean> {
    const rows = await q.query(
      `UPDATE users SET first_name = $2, last_name = $3, phone = $4, enabled_newsletters = $5, enabled_night_calls = $6,
         enabled_facebook_messenger = $7, updated_at = $8, country = COALESCE($9, country), state = COALESCE($10, state),
         city = COALESCE($11, city), address = COALESCE($12, address), zip = COALESCE($13, zip),
         billing_name = COALESCE($16, billing_name), billing_company = COALESCE($17, billing_company),
         billing_tax_id = COALESCE($18, billing_tax_id), billing_address = COALESCE($19, billing_address)
       WHERE id = $1 AND role = ANY($14::int[]) AND status_id <> $15
       RETURNING id`,
      [
        customerId,
        p.firstName,
        p.lastName,
        p.phone,
        p.enabledNewsletters,
        p.enabledNightCalls,
        p.enabledFacebookMessenger,
        now,
        p.country ?? null,
        p.state ?? null,
        p.city ?? null,
        p.address ?? null,
        p.zip ?? null,
        CUSTOMER_ROLE_IDS,
        CUSTOMER_STATUS.deactivated.id,
        p.billing?.name ?? null,
        p.billing?.company ?? null,
        p.billing?.taxId ?? null,
        p.billing?.address ?? null,
      ],
    );
    return rows.length > 0;
  },

  /** ADR 0085: the billing details alone (the checkout's section). False when no live customer account has the id. */
  async updateBilling({ customerId, billing: b, now }: { customerId: number; billing: BillingDetails; now: Date }): Promise<boolean> {
    const rows = await q.query(
      `UPDATE users SET billing_name = $2, billing_company = $3, billing_tax_id = $4, billing_address = $5, updated_at = $6
       WHERE id = $1 AND role = ANY($7::int[]) AND status_id <> $8
       RETURNING id`,
      [customerId, b.name, b.company, b.taxId, b.address, now, CUSTOMER_ROLE_IDS, CUSTOMER_STATUS.deactivated.id],
    );
    return rows.length > 0;
  },

  /** The six consent flags (SPEC §7 privacy body); the caller holds the row's lock and writes the consent history beside them. */
  async setConsents({ customerId, flags: f, now }: { customerId: number; flags: PrivacyBody; now: Date }): Promise<boolean> {
    const rows = await q.query(
      `UPDATE users SET enabled_cookies_usage = $2, enabled_personal_data = $3, enabled_technical_data = $4,
         enabled_location_usage = $5, enabled_information_sharing = $6, enabled_email_subscription = $7, updated_at = $8
       WHERE id = $1 RETURNING id`,
      [
        customerId,
        f.cookies_usages,
        f.personal_data,
        f.technical_data,
        f.location_usages,
        f.information_sharing,
        f.email_subscription,
        now,
      ],
    );
    return rows.length > 0;
  },
});

/**
 * The auth module's part of an account deletion (ADR 0052), in the deletion's transaction: the account row
 * stays as an anonymous holder of the books, every session and every emailed link ends (no refresh, and
 * the access tokens fail the liveness check).
 */
export const eraseAccount = async (tx: Queryable, { customerId, now }: { customerId: number; now: Date }): Promise<void> => {
  await tx.query(
    `UPDATE users SET status_id = $4, deleted_at = $2, updated_at = $2, email = 'deleted-' || id || '@deleted.invalid',
       password_hash = $3, password_unproven = false, first_name = '', last_name = '', phone = '', country = '', state = '',
       city = '', address = '', zip = '', ip_client = '', hash_device = '', enabled_newsletters = false,
       enabled_night_calls = false, enabled_facebook_messenger = false, enabled_cookies_usage = false,
       enabled_personal_data = false, enabled_technical_data = false, enabled_location_usage = false,
       enabled_information_sharing = false, enabled_email_subscription = false, billing_name = '', billing_company = '',
       billing_tax_id = '', billing_address = ''
     WHERE id = $1`,
    [customerId, now, NO_PASSWORD_HASH, CUSTOMER_STATUS.deactivated.id],
  );
  await tx.query('DELETE FROM refresh_tokens WHERE user_id = $1', [customerId]);
  await tx.query('DELETE FROM one_time_tokens WHERE user_id = $1', [customerId]);
  // ADR 0085: the Terms accepted go with the account (the receipts keep their printed buyer: the books).
  await tx.query('DELETE FROM terms_acceptances WHERE customer_id = $1', [customerId]);
};
