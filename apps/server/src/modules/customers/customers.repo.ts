import {
  CUSTOMER_ROLE_IDS,
  CUSTOMER_STATUS,
  customerStatusName,
  type BillingDetails,
  type changedConsents,
  type ConsentHistory,
  type Customer,
} from '@app/domain';
import type { Db, Queryable } from '../../db/client';

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

/**
 * The customer's account as this module reads it, and its consent history. The account row belongs to the
 * auth module (ADR 0077): its writes go through `accountWrites(tx)` of auth's index.ts, and the service
 * opens the transactions. DESIGN rule 3: every query carries the customer id (and the customer roles) in
 * its WHERE.
 */
export const createCustomersRepo = (db: Db) => ({
  /** The customer's profile; in `q`, a transaction's view of it (after its own writes). */
  findCustomer: async (customerId: number, q: Queryable = db): Promise<Customer | null> => {
    const [row] = await q.query<CustomerSqlRow>(`SELECT ${CUSTOMER_COLUMNS} FROM users WHERE id = $1 AND role = ANY($2::int[])`, [
      customerId,
      CUSTOMER_ROLE_IDS,
    ]);
    return row ? toCustomer(row) : null;
  },

  /**
   * A live (not deleted) customer's profile, its row locked until the transaction ends: concurrent consent
   * changes are then ordered, so each history row records the change from the state it replaced.
   */
  lockLiveCustomer: async (tx: Queryable, customerId: number): Promise<Customer | null> => {
    const [row] = await tx.query<CustomerSqlRow>(
      `SELECT ${CUSTOMER_COLUMNS} FROM users WHERE id = $1 AND role = ANY($2::int[]) AND status_id <> $3 FOR UPDATE`,
      [customerId, CUSTOMER_ROLE_IDS, CUSTOMER_STATUS.deactivated.id],
    );
    return row ? toCustomer(row) : null;
  },

  /** ADR 0052: the account row locked for its deletion (of two racing deletions one deletes, the other finds it gone). */
  lockForDeletion: async (
    tx: Queryable,
    customerId: number,
  ): Promise<{ statusId: number; emailConfirmed: boolean; email: string } | null> => {
    const [row] = await tx.query<{ status_id: number; confirmed: boolean; email: string }>(
      `SELECT status_id, email_confirmed_at IS NOT NULL AS confirmed, email FROM users
       WHERE id = $1 AND role = ANY($2::int[]) FOR UPDATE`,
      [customerId, CUSTOMER_ROLE_IDS],
    );
    return row ? { statusId: row.status_id, emailConfirmed: row.confirmed, email: row.email } : null;
  },

  /** One consent-history row per flag that changed, in the caller's transaction. */
  recordConsentChanges: async (
    tx: Queryable,
    { customerId, changes, ip, now }: { customerId: number; changes: ReturnType<typeof changedConsents>; ip: string; now: Date },
  ): Promise<void> => {
    for (const c of changes) {
      await tx.query(
        'INSERT INTO consent_history (customer_id, consent, granted, previous, ip, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [customerId, c.consent, c.granted, c.previous, ip, now],
      );
    }
  },

  /** ADR 0097: the newest consent changes of the customer, newest first, and their count. */
  listConsentHistory: async (customerId: number, limit: number): Promise<ConsentHistory> => {
    const rows = await db.query<{ consent: string; granted: boolean; previous: boolean; created_at: Date; total: string }>(
      `SELECT consent, granted, previous, created_at, count(*) OVER () AS total
       FROM consent_history WHERE customer_id = $1 ORDER BY id DESC LIMIT $2`,
      [customerId, limit],
    );
    const total = rows[0] ? Number(rows[0].total) : 0;
    return {
      entries: rows.map((r) => ({
        consent: r.consent,
        granted: r.granted,
        previous: r.previous,
        date: new Date(r.created_at).toISOString(),
      })),
      total,
    };
  },
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
