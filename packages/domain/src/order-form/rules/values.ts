// The order form's values: the rules (index.ts) and the query-string mapping (query.ts) both use them.
export type Spacing = 1 | 2;

/**
 * SPEC §3 userType: 11 a new customer (name, phone, terms), 22 an existing account (password). Here, not
 * in checkout.ts: the wizard's first step stores it, and importing checkout.ts would bring the sign-in
 * rules and messages into the first paint (ADR 0062).
 */
export const USER_TYPE = { newCustomer: 11, hasAccount: 22 } as const;
export type UserType = (typeof USER_TYPE)[keyof typeof USER_TYPE];

export interface OrderFormValues {
  workType: number;
  level: number;
  paperFormat: number;
  paperType: number;
  resumeService: number | null;
  subject: number | null;
  pages: number;
  sources: number;
  spacing: Spacing;
  title: string;
  details: string;
  credentials: string;
  /** hours */
  urgency: number;
  premiumWriter: boolean;
  preferredWriters: number[];
  anotherWriter: boolean;
  extraQualityCheck: boolean;
  originalityReport: boolean;
  onePageSummary: boolean;
  discountCode: string;
}
