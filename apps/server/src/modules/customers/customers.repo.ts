import { CUSTOMER_ROLE_IDS, customerStatusName, type Customer } from '@app/domain';
import type { Db } from '../../db/client';

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
}

// Never password_hash: the profile leaves the server as is (CONTRACT "Identity").
const CUSTOMER_COLUMNS = `id, role, email, first_name, last_name, phone, country, state, city, address, zip, ip_client,
  status_id, enabled_newsletters, enabled_night_calls, enabled_facebook_messenger, enabled_cookies_usage,
  enabled_personal_data, enabled_technical_data, enabled_location_usage, enabled_information_sharing,
  enabled_email_subscription, email_confirmed_at IS NOT NULL AS email_confirmed`;

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
  // Messenger integration is not configured yet: the fields exist so the client's shape holds.
  facebookData: { fbMessengerAppId: null, fbPageId: null, ref: null, userRef: null, isChecked: false },
  enabledCookiesUsage: r.enabled_cookies_usage,
  enabledPersonalData: r.enabled_personal_data,
  enabledTechnicalData: r.enabled_technical_data,
  enabledLocationUsage: r.enabled_location_usage,
  enabledInformationSharing: r.enabled_information_sharing,
  enabledEmailSubscription: r.enabled_email_subscription,
  emailConfirmed: r.email_confirmed,
});

export interface ProfileUpdate {
  firstName: string;
  lastName: string;
  phone: string;
  enabledNewsletters: boolean;
  enabledNightCalls: boolean;
  enabledFacebookMessenger: boolean;
}

/** DESIGN rule 3: every query carries the customer id (and the customer roles) in its WHERE. */
export const createCustomersRepo = (db: Db) => ({
  findCustomer: async (customerId: number): Promise<Customer | null> => {
    const [row] = await db.query<CustomerSqlRow>(`SELECT ${CUSTOMER_COLUMNS} FROM users WHERE id = $1 AND role = ANY($2::int[])`, [customerId, CUSTOMER_ROLE_IDS]);
    return row ? toCustomer(row) : null;
  },

  updateProfile: async (customerId: number, p: ProfileUpdate, now: Date): Promise<Customer | null> => {
    const [row] = await db.query<CustomerSqlRow>(
      `UPDATE users SET first_name = $2, last_name = $3, phone = $4, enabled_newsletters = $5, enabled_night_calls = $6,
         enabled_facebook_messenger = $7, updated_at = $8
       WHERE id = $1 AND role = ANY($9::int[])
       RETURNING ${CUSTOMER_COLUMNS}`,
      [customerId, p.firstName, p.lastName, p.phone, p.enabledNewsletters, p.enabledNightCalls, p.enabledFacebookMessenger, now, CUSTOMER_ROLE_IDS],
    );
    return row ? toCustomer(row) : null;
  },
});
export type CustomersRepo = ReturnType<typeof createCustomersRepo>;
