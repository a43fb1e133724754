import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import type { S3StorageConfig } from './lib/s3-file-storage';
import { CANCEL_IN_PROGRESS_REFUND_PERCENT_DEFAULT, type CancelPolicy } from '@app/domain';

/**
 * The only reader of process.env (DESIGN rule 2). Every variable is listed in .env.example and docs/configuration.md.
 */
/** `1`/`true` or `0`/`false`; undefined when unset (the default may depend on NODE_ENV). */
const flag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === '1' || v === 'true'));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_ORIGIN: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  FILES_DIR: z.string().optional(),
  // ADR 0080: where uploaded files live: a folder (FILES_DIR) or an S3-compatible bucket.
  FILES_STORAGE: z.enum(['disk', 's3']).default('disk'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag,
  DATABASE_URL: z.string().optional(),
  // ADR 0058: 1 lets V8 optimise the embedded database's WebAssembly (slower start, faster heavy queries).
  EMBEDDED_DB_OPTIMIZE: flag,
  // ADR 0063: 0 sends every query unnamed (a PgBouncer before 1.21 in transaction mode cannot keep them).
  DATABASE_PREPARED_STATEMENTS: flag,
  REDIS_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Writing Service <no-reply@localhost>'),
  // ADR 0074: how often the SMTP delivery job looks for queued mail (a new mail also wakes it at once).
  MAIL_SEND_INTERVAL_SECONDS: z.coerce.number().min(0).max(3600).optional(),
  REVIEW_DAYS: z.coerce.number().int().min(1).max(30).default(3),
  AFTER_PAYMENT_JOB_INTERVAL_SECONDS: z.coerce.number().min(0).max(3600).optional(),
  // ADR 0089: the writer's share of the order's price, and how long before the customer's deadline the writer's falls.
  WRITER_FEE_PERCENT: z.coerce.number().min(0).max(100).default(40),
  WRITER_DEADLINE_LEAD_HOURS: z.coerce.number().int().min(0).max(240).default(12),
  // ADR 0088: the notifications job (mails, reminders, push); Web Push keys (else generated and kept in the database).
  NOTIFICATIONS_JOB_INTERVAL_SECONDS: z.coerce.number().min(0).max(3600).optional(),
  VAPID_PUBLIC_KEY: z.string().max(200).optional(),
  VAPID_PRIVATE_KEY: z.string().max(200).optional(),
  VAPID_SUBJECT: z.string().max(200).optional(),
  SEED_DEMO: z.string().optional(),
  CHAT_BASE_URL: z.string().optional(),
  // ADR 0048: `chat` runs only the chat module (`npm run chat`); Redis channel/key prefix; the unseen-mail job's period.
  SERVER_ROLE: z.enum(['all', 'chat']).default('all'),
  CHAT_REDIS_PREFIX: z.string().min(1).max(100).default('chat:'),
  CHAT_MAIL_INTERVAL_SECONDS: z.coerce.number().min(0).max(86_400).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.string().optional(),
  API_DOCS: flag,
  SERVER_RENDER: flag,
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(16).optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  WEB_DIST_DIR: z.string().optional(),
  // ADR 0039, 0073: per-customer storage quota (every upload path), per-account upload rate (every upload
  // path, one counter), per-customer order creation rate.
  UPLOAD_QUOTA_MB: z.coerce.number().int().min(1).default(500),
  UPLOAD_RATE_PER_HOUR: z.coerce.number().int().min(1).default(120),
  ORDER_CREATE_RATE_PER_HOUR: z.coerce.number().int().min(1).default(60),
  // ADR 0041: the texts of /terms and /privacy (Markdown or plain text); unset = the defaults in apps/server/legal.
  TERMS_FILE: z.string().optional(),
  PRIVACY_FILE: z.string().optional(),
  // ADR 0085: the versions a customer accepts; unset = a digest of the file's text (any edit asks again).
  TERMS_VERSION: z.string().trim().min(1).max(64).optional(),
  PRIVACY_VERSION: z.string().trim().min(1).max(64).optional(),
  // ADR 0085: the seller printed on receipts and credit notes (frozen into each document when issued).
  SELLER_NAME: z.string().trim().min(1).max(200).default('Writing Service'),
  SELLER_ADDRESS: z.string().max(500).default(''),
  SELLER_TAX_ID: z.string().trim().max(50).default(''),
  SELLER_EMAIL: z.string().trim().max(254).default(''),
  // ADR 0087: the cancel policy: the share (percent) of what was paid a cancel gives back once a writer works on the order.
  CANCEL_IN_PROGRESS_REFUND_PERCENT: z.coerce.number().int().min(0).max(100).default(CANCEL_IN_PROGRESS_REFUND_PERCENT_DEFAULT),
  // ADR 0085: a TrueType/OpenType font for receipts (names outside Latin-1); unset = the PDF's built-in Helvetica.
  RECEIPT_FONT_FILE: z.string().optional(),
  // ADR 0024: a provider without credentials runs in sandbox mode (CONTRACT "Payments").
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
  // ADR 0036: sandbox mode in production only when the operator says so (logged loudly at start).
  PAYMENTS_SANDBOX: flag,
  // ADR 0037: attempts left open longer than this are asked about at their provider by a background job.
  PAYMENTS_RECONCILE_AFTER_MINUTES: z.coerce.number().int().min(1).max(10_080).default(30),
  PAYMENTS_RECONCILE_INTERVAL_SECONDS: z.coerce.number().min(0).max(86_400).optional(),
  // ADR 0074: how long one call to a provider's API may take before it counts as unanswered.
  PAYMENTS_PROVIDER_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(10),
});

/** A provider's credentials and endpoint; undefined credentials mean sandbox mode (ADR 0024). */
export interface PaymentsConfig {
  fondy: { merchantId: string; secretKey: string; apiUrl: string } | undefined;
  paymentwall: { projectKey: string; secretKey: string; apiUrl: string; widget: string; signVersion: 2 | 3 } | undefined;
  paypal: { clientId: string; clientSecret: string; webhookId: string; apiUrl: string } | undefined;
  paycore: { publicKey: string; secretKey: string; apiUrl: string; service: string | undefined } | undefined;
  /** PAYMENTS_SANDBOX: lets providers without credentials run in sandbox mode in production (ADR 0036). */
  sandbox: boolean;
  /** The reconciliation job (ADR 0037): attempts open longer than afterMs are asked about every intervalMs (0: off). */
  reconcile: { afterMs: number; intervalMs: number };
  /** ADR 0074: one call to a provider's API within this, or it counts as unanswered (the attempt stays open). */
  providerTimeoutMs: number;
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
  /** ADR 0080: FILES_STORAGE=s3, the bucket every file goes to (FILES_DIR is then unused); undefined: disk. */
  s3: S3StorageConfig | undefined;
  /** postgres://… to use a PostgreSQL server; undefined for embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /**
   * The embedded database's WebAssembly also through V8's optimising compiler (TurboFan), not only its
   * baseline one (Liftoff): heavy queries run faster, a start is slower (ADR 0058). Off by default.
   */
  embeddedOptimize: boolean;
  /** A PostgreSQL server's queries as named prepared statements, parsed and planned once per connection (ADR 0063). On by default. */
  preparedStatements: boolean;
  redisUrl: string | undefined;
  /** HS256 secret; when unset one is generated and kept under dataDir (embedded mode only). */
  jwtSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** ADR 0074: the SMTP delivery job's period (0: it never runs on its own; tests run it by hand). */
  mailSendIntervalMs: number;
  /**
   * ADR 0084: `reviewDays` after a delivery the order completes by itself; the job that completes it and
   * expires unanswered deadline proposals runs every `jobIntervalMs` (0: never on its own; tests run it by hand).
   */
  afterPayment: { reviewDays: number; jobIntervalMs: number };
  /** ADR 0089: the writer's pay (a share of the price, percent) and deadline (hours before the customer's). */
  writerTerms: { feePercent: number; deadlineLeadHours: number };
  /** ADR 0088: the notifications job's period (0: never on its own), and Web Push's VAPID keys when given. */
  notifications: { jobIntervalMs: number; vapid: { publicKey: string; privateKey: string } | undefined; vapidSubject: string | undefined };
  seedDemo: boolean;
  chatBaseUrl: string | undefined;
  /**
   * ADR 0048: `all` serves everything (the chat too, unless CHAT_BASE_URL points elsewhere);
   * `chat` serves only the chat module under CHAT_BASE_URL's path (`npm run chat`).
   */
  serverRole: 'all' | 'chat';
  chat: { redisPrefix: string; mailIntervalMs: number };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * Which proxies in front may say who the client is (X-Forwarded-For): false (none), a hop count (the
   * nearest n), or a list of trusted addresses and CIDR networks. Never "every hop" (ADR 0032).
   */
  trustProxy: false | number | string[];
  /** The OpenAPI document and its page at /api/docs. */
  apiDocs: boolean;
  /** Prometheus /metrics: on its own listener (port, host) and/or on the main port behind a bearer token. */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** How long a graceful shutdown waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs: number;
  webDistDir: string;
  /** ADR 0064: a visitor's /order and /login drawn by the server with the web app's own render. */
  serverRender: boolean;
  /** The text of /terms and of /privacy: Markdown or plain text files (ADR 0041). */
  termsFile: string;
  privacyFile: string;
  /** ADR 0085: the versions of the Terms and the Privacy Policy customers accept now. */
  legalVersions: { terms: string; privacy: string };
  /** ADR 0085: the seller printed on receipts and credit notes (SELLER_ADDRESS: `\n` or `|` between lines). */
  seller: { name: string; address: string; taxId: string; email: string };
  /** ADR 0087: the cancel policy (unpaid: free; paid, no writer: everything; in progress: this share; delivered: a dispute). */
  cancelPolicy: CancelPolicy;
  /** ADR 0085: the font embedded in receipts; undefined = the built-in Helvetica (Latin-1 only). */
  receiptFontFile: string | undefined;
  payments: PaymentsConfig;
  /** ADR 0039: the bytes of order files one customer may keep, and uploads and new orders an hour per customer. */
  quotas: { uploadBytes: number; uploadsPerHour: number; ordersPerHour: number };
}

const trimUrl = (url: string): string => url.replace(/\/$/, '');
/** Every named value set and non-empty, or undefined (a half-configured provider is an error). */
const allOrNone = <T extends Record<string, string | undefined>>(provider: string, values: T): { [K in keyof T]: string } | undefined => {
  const set = Object.entries(values).filter(([, v]) => v !== undefined && v !== '');
  if (set.length === 0) return undefined;
  if (set.length < Object.keys(values).length) {
    const missing = Object.entries(values)
      .filter(([, v]) => v === undefined || v === '')
      .map(([k]) => k);
    throw new Error(`Invalid configuration: ${provider} needs ${missing.join(', ')} as well`);
  }
  return values as { [K in keyof T]: string };
};

const paymentsConfig = (e: z.infer<typeof envSchema>): PaymentsConfig => {
  const fondy = allOrNone('Fondy', { FONDY_MERCHANT_ID: e.FONDY_MERCHANT_ID, FONDY_SECRET_KEY: e.FONDY_SECRET_KEY });
  const paymentwall = allOrNone('Paymentwall', {
    PAYMENTWALL_PROJECT_KEY: e.PAYMENTWALL_PROJECT_KEY,
    PAYMENTWALL_SECRET_KEY: e.PAYMENTWALL_SECRET_KEY,
  });
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
    sandbox: e.PAYMENTS_SANDBOX ?? false,
    providerTimeoutMs: Math.round(e.PAYMENTS_PROVIDER_TIMEOUT_SECONDS * 1000),
    reconcile: {
      afterMs: e.PAYMENTS_RECONCILE_AFTER_MINUTES * 60_000,
      // Off in tests unless a test asks for it: they drive the job by hand with a fake clock.
      intervalMs: Math.round((e.PAYMENTS_RECONCILE_INTERVAL_SECONDS ?? (e.NODE_ENV === 'test' ? 0 : 60)) * 1000),
    },
  };
};

/** An address or a CIDR network (`10.0.0.0/8`, `fd00::/8`). */
const isAddressOrNetwork = (entry: string): boolean => {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset, `0` or `false` trusts no proxy; a number trusts that many hops nearest the server;
 * otherwise a comma list of addresses, CIDR networks or proxy-addr's names (loopback, linklocal,
 * uniquelocal). `true` ("trust every hop") is refused: it lets a client pick its own address (ADR 0032).
 */
export const parseTrustProxy = (value: string | undefined): false | number | string[] => {
  const v = (value ?? '').trim();
  if (v === '' || v === '0' || v.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (v.toLowerCase() === 'true') {
    throw new Error(
      'Invalid configuration: TRUST_PROXY=true would trust every hop, so a client could choose its own address; give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.0/8)',
    );
  }
  const entries = v
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrNetwork(entry) && !PROXY_NAMES.has(entry));
  if (bad.length > 0) {
    throw new Error(
      `Invalid configuration: TRUST_PROXY must be a hop count or a comma list of addresses or CIDR networks, not ${bad.join(', ')}`,
    );
  }
  return entries;
};

/**
 * Reads `.env` (the format of .env.example) into `env` when the file exists. A variable that is already
 * set, even to an empty string, keeps its value: the shell and the process manager win over the file.
 * Returns the names taken from the file (none when there is no file).
 */
export const loadEnvFile = (file: string = path.resolve('.env'), env: NodeJS.ProcessEnv = process.env): string[] => {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
  const taken: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(content))) {
    if (env[name] !== undefined || value === undefined) continue;
    env[name] = value;
    taken.push(name);
  }
  return taken;
};

/**
 * ADR 0085: the version of a legal text when the operator names none: a digest of its text, so any edit
 * of the file (read at start) asks customers again. A missing file (the page shows its fallback) is `none`.
 */
const textVersion = (file: string): string => {
  try {
    return `sha256:${createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex').slice(0, 12)}`;
  } catch {
    return 'none';
  }
};

const s3Config = (e: z.infer<typeof envSchema>): S3StorageConfig | undefined => {
  if (e.FILES_STORAGE !== 's3') return undefined;
  if (!e.S3_BUCKET)
    throw new Error('Invalid configuration: FILES_STORAGE=s3 needs S3_BUCKET (and S3_ENDPOINT for a store other than AWS S3)');
  const keys = allOrNone('FILES_STORAGE=s3', { S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY });
  return {
    endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
    region: e.S3_REGION,
    bucket: e.S3_BUCKET,
    credentials: keys && { accessKeyId: keys.S3_ACCESS_KEY_ID, secretAccessKey: keys.S3_SECRET_ACCESS_KEY },
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
  };
};

/** The environment of a tool the server runs (pg_dump, pg_restore; ADR 0082): this process's, plus `extra`. */
export const childProcessEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, ...extra });

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && !e.PUBLIC_ORIGIN) {
    throw new Error(
      'Invalid configuration: PUBLIC_ORIGIN is required in production (the https:// address customers open; mailed links point there)',
    );
  }
  if (e.SERVER_ROLE === 'chat' && !e.DATABASE_URL) {
    throw new Error(
      'Invalid configuration: SERVER_ROLE=chat (npm run chat) needs DATABASE_URL: the chat process and the main one share one PostgreSQL server',
    );
  }
  if (e.CHAT_BASE_URL && !/^https?:\/\/[^/]+/.test(e.CHAT_BASE_URL)) {
    throw new Error('Invalid configuration: CHAT_BASE_URL must be an http(s) address such as https://chat.example.com/chat');
  }
  const termsFile = path.resolve(e.TERMS_FILE || path.join(import.meta.dirname, '../legal/terms.md'));
  const privacyFile = path.resolve(e.PRIVACY_FILE || path.join(import.meta.dirname, '../legal/privacy.md'));
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
    s3: s3Config(e),
    databaseUrl: e.DATABASE_URL || undefined,
    embeddedOptimize: e.EMBEDDED_DB_OPTIMIZE ?? false,
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS ?? true,
    redisUrl: e.REDIS_URL || undefined,
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    // Off in tests unless a test asks for it.
    mailSendIntervalMs: Math.round((e.MAIL_SEND_INTERVAL_SECONDS ?? (e.NODE_ENV === 'test' ? 0 : 10)) * 1000),
    afterPayment: {
      reviewDays: e.REVIEW_DAYS,
      // Off in tests unless a test asks for it.
      jobIntervalMs: Math.round((e.AFTER_PAYMENT_JOB_INTERVAL_SECONDS ?? (e.NODE_ENV === 'test' ? 0 : 60)) * 1000),
    },
    writerTerms: { feePercent: e.WRITER_FEE_PERCENT, deadlineLeadHours: e.WRITER_DEADLINE_LEAD_HOURS },
    notifications: {
      jobIntervalMs: Math.round((e.NOTIFICATIONS_JOB_INTERVAL_SECONDS ?? (e.NODE_ENV === 'test' ? 0 : 30)) * 1000),
      vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : undefined,
      vapidSubject: e.VAPID_SUBJECT,
    },
    seedDemo: !production && e.SEED_DEMO !== '0',
    chatBaseUrl: e.CHAT_BASE_URL?.replace(/\/$/, ''),
    serverRole: e.SERVER_ROLE,
    chat: {
      redisPrefix: e.CHAT_REDIS_PREFIX,
      // Off in tests unless a test asks for it: they run the job by hand with a test clock.
      mailIntervalMs: Math.round((e.CHAT_MAIL_INTERVAL_SECONDS ?? (e.NODE_ENV === 'test' ? 0 : 30)) * 1000),
    },
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    apiDocs: e.API_DOCS ?? !production,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    serverRender: e.SERVER_RENDER ?? true,
    termsFile,
    privacyFile,
    legalVersions: { terms: e.TERMS_VERSION ?? textVersion(termsFile), privacy: e.PRIVACY_VERSION ?? textVersion(privacyFile) },
    seller: {
      name: e.SELLER_NAME,
      address: e.SELLER_ADDRESS.replace(/\\n|\|/g, '\n')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join('\n'),
      taxId: e.SELLER_TAX_ID,
      email: e.SELLER_EMAIL,
    },
    cancelPolicy: { inProgressRefundPercent: e.CANCEL_IN_PROGRESS_REFUND_PERCENT },
    receiptFontFile: e.RECEIPT_FONT_FILE ? path.resolve(e.RECEIPT_FONT_FILE) : undefined,
    payments: paymentsConfig(e),
    quotas: {
      uploadBytes: e.UPLOAD_QUOTA_MB * 1024 * 1024,
      uploadsPerHour: e.UPLOAD_RATE_PER_HOUR,
      ordersPerHour: e.ORDER_CREATE_RATE_PER_HOUR,
    },
  };
};
