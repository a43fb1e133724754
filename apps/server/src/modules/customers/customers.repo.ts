import {
  CUSTOMER_ROLE_IDS,
  CUSTOMER_STATUS,
  changedConsents,
  customerStatusName,
  privacyBodyOf,
  type BillingDetails,
  type Customer,
  type PrivacyBody,
} from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import { NO_PASSWORD_HASH } from '../auth';
import { orderWrites } from '../orders';

interface CustomerSqlRow {
  id: number;
  role: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  country: string;
  state: string;
  city: string;
  address: string;
  zip: string;
  ip_client: string;
  status_id: number;
  enabled_newsletters: boolean;
  enabled_night_calls: boolean;
  enabled_facebook_messenger: boolean;
  enabled_cookies_usage: boolean;
  enabled_personal_data: boolean;
  enabled_technical_data: boolean;
  enabled_location_usage: boolean;
  enabled_information_sharing: boolean;
  enabled_email_subscription: boolean;
  email_confirmed: boolean;
  password_set: boolean;
  billing_name: string;
  billing_company: string;
  billing_tax_id: string;
  billing_address: string;
}

// Never password_hash: the profile leaves the server as is (CONTRACT "Identity").
const CUSTOMER_COLUMNS = `id, role, email, first_name, last_name, phone, country, state, city, address, zip, ip_client,
  status_id, enabled_newsletters, enabled_night_calls, enabled_facebook_messenger, enabled_cookies_usage,
  enabled_personal_data, enabled_technical_data, enabled_location_usage, enabled_information_sharing,
  enabled_email_subscription, email_confirmed_at IS NOT NULL AS email_confirmed, password_set,
  billing_name, billing_company, billing_tax_id, billing_address`;

const toCustomer = (r: CustomerSqlRow): Customer => ({
  id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  phone: r.phone,
  country: r.country,
  state: r.state,
  city: r.city,
  address: r.address,
  zip: r.zip,
  ipClient: r.ip_client,
  status: { id: r.status_id, name: customerStatusName(r.status_id) },
  role: r.role,
  enabledNewsletters: r.enabled_newsletters,
  enabledNightCalls: r.enabled_night_calls,
  enabledFacebookMessenger: r.enabled_facebook_messenger,
  // SPEC §3 facebookData: the checkbox plugin's state. No Messenger app is configured (no app or page id),
  // so the opt-in is the site's own checkbox; `ref` names where it sits, `userRef` whose it is (ADR 0053).
  facebookData: {
    fbMessengerAppId: null,
    fbPageId: null,
    ref: 'profile',
    userRef: `customer-${r.id}`,
    isChecked: r.enabled_facebook_messenger,
  },
  enabledCookiesUsage: r.enabled_cookies_usage,
  enabledPersonalData: r.enabled_personal_data,
  enabledTechnicalData: r.enabled_technical_data,
  enabledLocationUsage: r.enabled_location_usage,
  enabledInformationSharing: r.enabled_information_sharing,
  enabledEmailSubscription: r.enabled_email_subscription,
  emailConfirmed: r.email_confirmed,
  signInByLinkOnly: !r.password_set,
  billing: { name: r.billing_name, company: r.billing_company, taxId: r.billing_tax_id, address: r.billing_address },
});

export interface ProfileUpdate {
  firstName: string;
  lastName: string;
  phone: string;
  enabledNewsletters: boolean;
  enabledNightCalls: boolean;
  enabledFacebookMessenger: boolean;
  /** Absent: the stored value stays (SPEC §7's body has no address fields; ADR 0053). */
  country?: string | undefined;
  state?: string | undefined;
  city?: string | undefined;
  address?: string | undefined;
  zip?: string | undefined;
  /** Absent: the stored billing details stay (ADR 0085). */
  billing?: BillingDetails | undefined;
}

/**
 * The sections of the personal-data report after the profile (ADR 0052), each read in batches by keyset
 * ($2 the last id of the previous batch, $3 the batch size) so no section is held whole in memory. Every
 * query carries the customer id ($1) in its WHERE (DESIGN rule 3). A new section is one entry here.
 */
export const REPORT_SECTIONS = {
  orders: `SELECT o.id, o.uid, o.title, o.status_id AS "statusId", o.site_category AS "siteCategory", o.work_type_id AS "workTypeId",
      o.pages, o.sources, o.urgency_hours AS "urgencyHours", o.deadline, o.description, o.credentials,
      round(o.final_price_cents / 100.0, 2)::float8 AS "finalPrice", o.discount_code AS "discountCode", o.created_at AS "dateCreated",
      (SELECT json_build_object('rating', r.rating_halves / 2.0, 'comment', r.comment) FROM order_reviews r
        WHERE r.order_id = o.id AND r.customer_id = $1) AS feedback
    FROM orders o WHERE o.customer_id = $1 AND o.id > $2 ORDER BY o.id LIMIT $3`,
  files: `SELECT f.id, f.order_id AS "orderId", f.revision_id AS "revisionId", f.name, f.type_name AS "typeName", f.source,
      f.size_bytes AS "sizeBytes", f.created_at AS "dateCreated"
    FROM order_files f WHERE f.customer_id = $1 AND f.id > $2 ORDER BY f.id LIMIT $3`,
  revisions: `SELECT v.id, v.order_id AS "orderId", v.status_id AS "statusId", v.level_id AS "levelId", v.category_ids AS categories,
      v.description, v.deadline, v.created_at AS "dateCreated"
    FROM revisions v WHERE v.customer_id = $1 AND v.id > $2 ORDER BY v.id LIMIT $3`,
  transactions: `SELECT t.id, t.order_id AS "orderId", t.type, t.status, t.provider, round(t.amount_cents / 100.0, 2)::float8 AS amount,
      t.currency, t.sandbox, t.created_at AS "dateCreated"
    FROM transactions t WHERE t.customer_id = $1 AND t.id > $2 ORDER BY t.id LIMIT $3`,
  consentHistory: `SELECT c.id, c.consent, c.granted, c.previous, c.created_at AS date
    FROM consent_history c WHERE c.customer_id = $1 AND c.id > $2 ORDER BY c.id LIMIT $3`,
  // Issue 24 (ADR 0085): the versions of the Terms and Privacy Policy accepted, when, from where.
  acceptances: `SELECT a.id, a.terms_version AS "termsVersion", a.privacy_version AS "privacyVersion", a.context,
      a.ip, a.user_agent AS "userAgent", a.accepted_at AS "acceptedAt"
    FROM terms_acceptances a WHERE a.customer_id = $1 AND a.id > $2 ORDER BY a.id LIMIT $3`,
  // Issue 24 (ADR 0085): the receipts and credit notes issued, with the billing details printed on them.
  receipts: `SELECT d.transaction_id AS id, d.kind, d.number, d.issued_at AS "issuedAt", d.snapshot -> 'buyer' AS buyer
    FROM transaction_documents d WHERE d.customer_id = $1 AND d.transaction_id > $2 ORDER BY d.transaction_id LIMIT $3`,
  // Both chats of every order (migration 0010), each message with its attachments' names.
  messages: `SELECT m.id, m.order_id AS "orderId", m.chat, m.direction, m.body, m.sticker, m.emoji, m.created_at AS "dateCreated",
      (SELECT COALESCE(json_agg(json_build_object('id', f.id, 'name', f.name, 'typeName', f.type_name, 'sizeBytes', f.size_bytes) ORDER BY f.id), '[]'::json)
        FROM message_files f WHERE f.message_id = m.id AND f.customer_id = $1) AS files
    FROM messages m WHERE m.customer_id = $1 AND m.id > $2 ORDER BY m.id LIMIT $3`,
  // Referrals (migration 0011): the ones this customer brought (never those marked as fraud, which are
  // support's), and the one that brought this customer (without the referrer's code: it is theirs).
  referrals: `SELECT r.id, CASE WHEN r.referrer_id = $1 THEN 'referrer' ELSE 'referred' END AS role,
      CASE WHEN r.referrer_id = $1 THEN r.discount_code END AS "discountCode", r.created_at AS "dateCreated"
    FROM referrals r WHERE ((r.referrer_id = $1 AND r.fraud IS NULL) OR r.referred_id = $1) AND r.id > $2 ORDER BY r.id LIMIT $3`,
  // The points ledger (migration 0011): every entry, the balance is their sum.
  pointsLedger: `SELECT l.id, l.kind, l.points, l.order_id AS "orderId", l.discount_code AS "discountCode", l.created_at AS "dateCreated"
    FROM loyalty_points_ledger l WHERE l.customer_id = $1 AND l.id > $2 ORDER BY l.id LIMIT $3`,
} as const;
export type ReportSection = keyof typeof REPORT_SECTIONS;

export type DeactivateResult = 'deleted' | 'not_found' | 'email_not_confirmed';

/** DESIGN rule 3: every query carries the customer id (and the customer roles) in its WHERE. */
export const createCustomersRepo = (db: Db) => ({
  findCustomer: async (customerId: number): Promise<Customer | null> => {
    const [row] = await db.query<CustomerSqlRow>(`SELECT ${CUSTOMER_COLUMNS} FROM users WHERE id = $1 AND role = ANY($2::int[])`, [
      customerId,
      CUSTOMER_ROLE_IDS,
    ]);
    return row ? toCustomer(row) : null;
  },

  updateProfile: async (customerId: number, p: ProfileUpdate, now: Date): Promise<Customer | null> => {
    const [row] = await db.query<CustomerSqlRow>(
      `UPDATE users SET first_name = $2, last_name = $3, phone = $4, enabled_newsletters = $5, enabled_night_calls = $6,
         enabled_facebook_messenger = $7, updated_at = $8, country = COALESCE($9, country), state = COALESCE($10, state),
         city = COALESCE($11, city), address = COALESCE($12, address), zip = COALESCE($13, zip),
         billing_name = COALESCE($16, billing_name), billing_company = COALESCE($17, billing_company),
         billing_tax_id = COALESCE($18, billing_tax_id), billing_address = COALESCE($19, billing_address)
       WHERE id = $1 AND role = ANY($14::int[]) AND status_id <> $15
       RETURNING ${CUSTOMER_COLUMNS}`,
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
    return row ? toCustomer(row) : null;
  },

  /** ADR 0085: the billing details alone (the checkout's section). */
  updateBilling: async (customerId: number, b: BillingDetails, now: Date): Promise<Customer | null> => {
    const [row] = await db.query<CustomerSqlRow>(
      `UPDATE users SET billing_name = $2, billing_company = $3, billing_tax_id = $4, billing_address = $5, updated_at = $6
       WHERE id = $1 AND role = ANY($7::int[]) AND status_id <> $8
       RETURNING ${CUSTOMER_COLUMNS}`,
      [customerId, b.name, b.company, b.taxId, b.address, now, CUSTOMER_ROLE_IDS, CUSTOMER_STATUS.deactivated.id],
    );
    return row ? toCustomer(row) : null;
  },

  /**
   * The six consent flags and one consent-history row per flag that changed, in one transaction. The row
   * lock orders concurrent updates, so each history row records the change from the state it replaced.
   */
  updatePrivacy: async (customerId: number, body: PrivacyBody, ip: string, now: Date): Promise<Customer | null> =>
    db.transaction(async (tx) => {
      const [before] = await tx.query<CustomerSqlRow>(
        `SELECT ${CUSTOMER_COLUMNS} FROM users WHERE id = $1 AND role = ANY($2::int[]) AND status_id <> $3 FOR UPDATE`,
        [customerId, CUSTOMER_ROLE_IDS, CUSTOMER_STATUS.deactivated.id],
      );
      if (!before) return null;
      const changes = changedConsents(privacyBodyOf(toCustomer(before)), body);
      if (changes.length === 0) return toCustomer(before);
      for (const c of changes) {
        await tx.query(
          'INSERT INTO consent_history (customer_id, consent, granted, previous, ip, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
          [customerId, c.consent, c.granted, c.previous, ip, now],
        );
      }
      const [row] = await tx.query<CustomerSqlRow>(
        `UPDATE users SET enabled_cookies_usage = $2, enabled_personal_data = $3, enabled_technical_data = $4,
           enabled_location_usage = $5, enabled_information_sharing = $6, enabled_email_subscription = $7, updated_at = $8
         WHERE id = $1 RETURNING ${CUSTOMER_COLUMNS}`,
        [
          customerId,
          body.cookies_usages,
          body.personal_data,
          body.technical_data,
          body.location_usages,
          body.information_sharing,
          body.email_subscription,
          now,
        ],
      );
      return row ? toCustomer(row) : null;
    }),

  /** One batch of a report section, oldest first, after `afterId` (the last id of the previous batch). */
  reportBatch: async (section: ReportSection, customerId: number, afterId: number, limit: number): Promise<Record<string, unknown>[]> =>
    db.query<Record<string, unknown>>(REPORT_SECTIONS[section], [customerId, afterId, limit]),

  /**
   * ADR 0052: the account deletion, in one transaction on the locked account row (of two racing
   * deletions one deletes, the other finds the account gone). Personal data is erased or anonymised in
   * place; no row is deleted that the books reference, so nothing cascades: orders keep their prices and
   * statuses, payments and transactions stay whole, and the account row stays as an anonymous holder.
   */
  deactivate: async (customerId: number, now: Date): Promise<DeactivateResult> =>
    db.transaction(async (tx) => {
      const [row] = await tx.query<{ status_id: number; confirmed: boolean; email: string }>(
        `SELECT status_id, email_confirmed_at IS NOT NULL AS confirmed, email FROM users
         WHERE id = $1 AND role = ANY($2::int[]) FOR UPDATE`,
        [customerId, CUSTOMER_ROLE_IDS],
      );
      if (!row || row.status_id === CUSTOMER_STATUS.deactivated.id) return 'not_found';
      if (!row.confirmed) return 'email_not_confirmed';
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
      // Every session and every emailed link ends: no refresh, and the access tokens fail the liveness check.
      await tx.query('DELETE FROM refresh_tokens WHERE user_id = $1', [customerId]);
      await tx.query('DELETE FROM one_time_tokens WHERE user_id = $1', [customerId]);
      await tx.query('DELETE FROM consent_history WHERE customer_id = $1', [customerId]);
      await tx.query('DELETE FROM terms_acceptances WHERE customer_id = $1', [customerId]);
      await tx.query('DELETE FROM order_idempotency_keys WHERE customer_id = $1', [customerId]);
      await tx.query('DELETE FROM mail_outbox WHERE lower(to_address) = lower($1)', [row.email]);
      // What the customer wrote is erased; the orders stay for the books (the orders module's write, ADR 0054).
      await orderWrites(tx).eraseCustomerText({ customerId, now });
      await tx.query(`UPDATE revisions SET description = '[deleted]' WHERE customer_id = $1`, [customerId]);
      await tx.query(`UPDATE order_reviews SET comment = '' WHERE customer_id = $1`, [customerId]);
      // File rows go; the hourly orphan sweep (ADR 0039) removes their stored bytes.
      await tx.query('DELETE FROM order_files WHERE customer_id = $1', [customerId]);
      await tx.query(`UPDATE payments SET hash_device = '' WHERE customer_id = $1`, [customerId]);
      // What the customer wrote in the chats is erased, and the files they attached (the orphan sweep takes
      // the bytes); the writer's and support's side stays, with the order, for the staff.
      await tx.query(`UPDATE messages SET body = '', sticker = NULL, emoji = NULL WHERE customer_id = $1 AND sender_id = $1`, [customerId]);
      await tx.query('DELETE FROM message_files WHERE customer_id = $1 AND uploaded_by = $1', [customerId]);
      // Referrals and the points ledger are books (nothing cascades: ON DELETE RESTRICT); the device hash goes.
      await tx.query(`UPDATE referrals SET hash_device = '' WHERE referred_id = $1`, [customerId]);
      // The customer's own codes (loyalty, referral) can no longer be used by anyone.
      await tx.query('UPDATE discount_codes SET active = false WHERE customer_id = $1', [customerId]);
      return 'deleted';
    }),
});
export type CustomersRepo = ReturnType<typeof createCustomersRepo>;

/**
 * ADR 0085: the buyer as a receipt prints it, read in the caller's transaction (the one that writes the
 * money): the billing details, else the profile's name and postal address; the email always.
 */
export const selectBuyerForDocument = async (q: Queryable, customerId: number): Promise<(BillingDetails & { email: string }) | null> => {
  const [r] = await q.query<CustomerSqlRow>(`SELECT ${CUSTOMER_COLUMNS} FROM users WHERE id = $1`, [customerId]);
  if (!r) return null;
  const profileName = [r.first_name, r.last_name].filter(Boolean).join(' ');
  const profileAddress = [r.address, [r.city, r.state, r.zip].filter(Boolean).join(', '), r.country].filter(Boolean).join('\n');
  return {
    name: r.billing_name || profileName,
    company: r.billing_company,
    taxId: r.billing_tax_id,
    address: r.billing_address || profileAddress,
    email: r.email,
  };
};
