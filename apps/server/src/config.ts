import path from 'node:path';
import { z } from 'zod';

/**
 * The only reader of process.env (DESIGN rule 2). Every variable is listed in .env.example and the README.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === '1' || v === 'true'));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_ORIGIN: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  FILES_DIR: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Writing Service <no-reply@localhost>'),
  SEED_DEMO: z.string().optional(),
  CHAT_BASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool(false),
  WEB_DIST_DIR: z.string().optional(),
  // Issue 13: the texts of /terms and /privacy (Markdown or plain text); unset = the defaults in apps/server/legal.
  TERMS_FILE: z.string().optional(),
  PRIVACY_FILE: z.string().optional(),
  // Issue 4: a provider without credentials runs in sandbox mode (CONTRACT "Payments").
  FONDY_MERCHANT_ID: z.string().optional(),
  FONDY_SECRET_KEY: z.string().optional(),
  FONDY_API_URL: z.string().url().default('https://pay.fondy.eu/api'),
  PAYMENTWALL_PROJECT_KEY: z.string().optional(),
  PAYMENTWALL_SECRET_KEY: z.string().optional(),
  PAYMENTWALL_API_URL: z.string().url().default('https://api.paymentwall.com/api'),
  PAYMENTWALL_WIDGET: z.string().default('p1_1'),
  PAYMENTWALL_SIGN_VERSION: z.enum(['2', '3']).default('3'),
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_WEBHOOK_ID: z.string().optional(),
  PAYPAL_API_URL: z.string().url().default('https://api-m.paypal.com'),
  PAYCORE_PUBLIC_KEY: z.string().optional(),
  PAYCORE_SECRET_KEY: z.string().optional(),
  PAYCORE_API_URL: z.string().url().default('https://com.paycore.io'),
  PAYCORE_SERVICE: z.string().optional(),
});

/** A provider's credentials and endpoint; undefined credentials mean sandbox mode (issue 4). */
export interface PaymentsConfig {
  fondy: { merchantId: string; secretKey: string; apiUrl: string } | undefined;
  paymentwall: { projectKey: string; secretKey: string; apiUrl: string; widget: string; signVersion: 2 | 3 } | undefined;
  paypal: { clientId: string; clientSecret: string; webhookId: string; apiUrl: string } | undefined;
  paycore: { publicKey: string; secretKey: string; apiUrl: string; service: string | undefined } | undefined;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The public origin links in mail point to; defaults to http://localhost:{port}. */
  publicOrigin: string | undefined;
  dataDir: string;
  /** Uploaded order files (disk FileStorage); defaults to DATA_DIR/files. */
  filesDir: string;
  /** postgres://… to use a PostgreSQL server; undefined for embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** HS256 secret; when unset one is generated and kept under dataDir (embedded mode only). */
  jwtSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  seedDemo: boolean;
  chatBaseUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trustProxy: boolean;
  webDistDir: string;
  /** The text of /terms and of /privacy: Markdown or plain text files (issue 13). */
  termsFile: string;
  privacyFile: string;
  payments: PaymentsConfig;
}

const trimUrl = (url: string): string => url.replace(/\/$/, '');
/** Every named value set and non-empty, or undefined (a half-configured provider is an error). */
const allOrNone = <T extends Record<string, string | undefined>>(provider: string, values: T): { [K in keyof T]: string } | undefined => {
  const set = Object.entries(values).filter(([, v]) => v !== undefined && v !== '');
  if (set.length === 0) return undefined;
  if (set.length < Object.keys(values).length) {
    const missing = Object.entries(values).filter(([, v]) => v === undefined || v === '').map(([k]) => k);
    throw new Error(`Invalid configuration: ${provider} needs ${missing.join(', ')} as well`);
  }
  return values as { [K in keyof T]: string };
};

const paymentsConfig = (e: z.infer<typeof envSchema>): PaymentsConfig => {
  const fondy = allOrNone('Fondy', { FONDY_MERCHANT_ID: e.FONDY_MERCHANT_ID, FONDY_SECRET_KEY: e.FONDY_SECRET_KEY });
  const paymentwall = allOrNone('Paymentwall', { PAYMENTWALL_PROJECT_KEY: e.PAYMENTWALL_PROJECT_KEY, PAYMENTWALL_SECRET_KEY: e.PAYMENTWALL_SECRET_KEY });
  const paypal = allOrNone('PayPal', {
    PAYPAL_CLIENT_ID: e.PAYPAL_CLIENT_ID,
    PAYPAL_CLIENT_SECRET: e.PAYPAL_CLIENT_SECRET,
    PAYPAL_WEBHOOK_ID: e.PAYPAL_WEBHOOK_ID,
  });
  const paycore = allOrNone('paycore.io', { PAYCORE_PUBLIC_KEY: e.PAYCORE_PUBLIC_KEY, PAYCORE_SECRET_KEY: e.PAYCORE_SECRET_KEY });
  return {
    fondy: fondy && { merchantId: fondy.FONDY_MERCHANT_ID, secretKey: fondy.FONDY_SECRET_KEY, apiUrl: trimUrl(e.FONDY_API_URL) },
    paymentwall: paymentwall && {
      projectKey: paymentwall.PAYMENTWALL_PROJECT_KEY,
      secretKey: paymentwall.PAYMENTWALL_SECRET_KEY,
      apiUrl: trimUrl(e.PAYMENTWALL_API_URL),
      widget: e.PAYMENTWALL_WIDGET,
      signVersion: e.PAYMENTWALL_SIGN_VERSION === '2' ? 2 : 3,
    },
    paypal: paypal && {
      clientId: paypal.PAYPAL_CLIENT_ID,
      clientSecret: paypal.PAYPAL_CLIENT_SECRET,
      webhookId: paypal.PAYPAL_WEBHOOK_ID,
      apiUrl: trimUrl(e.PAYPAL_API_URL),
    },
    paycore: paycore && {
      publicKey: paycore.PAYCORE_PUBLIC_KEY,
      secretKey: paycore.PAYCORE_SECRET_KEY,
      apiUrl: trimUrl(e.PAYCORE_API_URL),
      service: e.PAYCORE_SERVICE || undefined,
    },
  };
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && e.DATABASE_URL && !e.JWT_SECRET) {
    throw new Error('Invalid configuration: JWT_SECRET is required in production with DATABASE_URL');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicOrigin: e.PUBLIC_ORIGIN?.replace(/\/$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    filesDir: path.resolve(e.FILES_DIR || path.join(e.DATA_DIR, 'files')),
    databaseUrl: e.DATABASE_URL || undefined,
    redisUrl: e.REDIS_URL || undefined,
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    seedDemo: !production && e.SEED_DEMO !== '0',
    chatBaseUrl: e.CHAT_BASE_URL?.replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    termsFile: path.resolve(e.TERMS_FILE || path.join(import.meta.dirname, '../legal/terms.md')),
    privacyFile: path.resolve(e.PRIVACY_FILE || path.join(import.meta.dirname, '../legal/privacy.md')),
    payments: paymentsConfig(e),
  };
};
