import { z } from 'zod';

/** CONTRACT "Identity": customer status ids. */
export const CUSTOMER_STATUS = {
  active: { id: 1, name: 'Active' },
  awaitingConfirmation: { id: 3, name: 'Awaiting Confirmation' },
  deactivated: { id: 4, name: 'Deactivated' },
} as const;
export type CustomerStatusId = (typeof CUSTOMER_STATUS)[keyof typeof CUSTOMER_STATUS]['id'];
export const customerStatusName = (id: number): string =>
  Object.values(CUSTOMER_STATUS).find((s) => s.id === id)?.name ?? 'Unknown';

/** SPEC §5 "Profile: phone accepts digits only, max 21 characters". */
export const PROFILE_PHONE_MAX_LENGTH = 21;
export const isValidProfilePhone = (phone: string): boolean =>
  phone === '' || (/^\d+$/.test(phone) && phone.length <= PROFILE_PHONE_MAX_LENGTH);

export const CUSTOMER_MESSAGE = {
  profileUpdated: 'Your personal information has been successfully updated.',
  privacyFailed: 'Problem occured while setting your preferences',
  accountDeleted: 'Your account has been successfully deleted.',
  emailNotConfirmed: 'Email is not confirmed',
  confirmationSent: (email: string) => `A confirmation email has been sent to ${email}`,
  emailConfirmed: 'Your email has been confirmed.',
  emailAlreadyConfirmed: 'Your email is already confirmed.',
  confirmationResent: 'Success',
} as const;

export const facebookDataSchema = z.object({
  fbMessengerAppId: z.string().nullable(),
  fbPageId: z.string().nullable(),
  ref: z.string().nullable(),
  userRef: z.string().nullable(),
  isChecked: z.boolean(),
});

/** SPEC §3 "Customer profile". */
export const customerSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  country: z.string(),
  state: z.string(),
  city: z.string(),
  address: z.string(),
  zip: z.string(),
  ipClient: z.string(),
  status: z.object({ id: z.number().int(), name: z.string() }),
  role: z.number().int(),
  enabledNewsletters: z.boolean(),
  enabledNightCalls: z.boolean(),
  enabledFacebookMessenger: z.boolean(),
  facebookData: facebookDataSchema,
  enabledCookiesUsage: z.boolean(),
  enabledPersonalData: z.boolean(),
  enabledTechnicalData: z.boolean(),
  enabledLocationUsage: z.boolean(),
  enabledInformationSharing: z.boolean(),
  enabledEmailSubscription: z.boolean(),
  emailConfirmed: z.boolean(),
});
export type Customer = z.infer<typeof customerSchema>;

/** SPEC §7: PUT /api/en/customers/customer body. */
export const customerUpdateBodySchema = z.object({
  enabledFacebookMessenger: z.boolean(),
  enabledNewsletters: z.boolean(),
  enabledNightCalls: z.boolean(),
  firstName: z.string().trim().max(100),
  lastName: z.string().trim().max(100),
  phone: z
    .string()
    .trim()
    .refine(isValidProfilePhone, { message: 'Phone accepts digits only, max 21 characters' }),
});
export type CustomerUpdateBody = z.infer<typeof customerUpdateBodySchema>;

export const emailConfirmBodySchema = z.object({ token: z.string().min(1).max(256) });
