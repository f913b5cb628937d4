// Typed configuration, read once from the environment and frozen. No other module reads process.env.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface S3Config {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export interface MediaConfig {
  /** Local-disk storage root when no bucket is configured (MEDIA_DIR, default `{dataDir}/media`). */
  dir: string;
  /** MEDIA_PUBLIC_URL: base of every media URL (a CDN); unset → the bucket's URL, or `/uploads/…` on local disk. */
  publicUrl?: string;
  /** How long an upload answer waits for image formats before answering with what is ready, ms. */
  processingWaitMs: number;
  /** Whether the gateway also processes media jobs (off when apps/worker instances do it). */
  workerInGateway: boolean;
  /** How long a worker holds a job without renewing its lock; a dead worker's job is retaken after it, ms. */
  jobLockMs: number;
  /** MEDIA_MAX_UPLOAD_BYTES: an operator cap on one file, below the plans' own limits. */
  maxUploadBytes?: number;
  /** MEDIA_STORAGE_QUOTA_BYTES: an operator cap on each project's stored files (the plan's quota applies with PLAN_LIMITS). */
  storageQuotaBytes?: number;
}

/** Billing with Stripe (on when STRIPE_SECRET_KEY is set). */
export interface StripeConfig {
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the signing secret (`whsec_…`) of the webhook endpoint `/v1/billing/webhook`. */
  webhookSecret: string;
  /** STRIPE_API_BASE (`http://127.0.0.1:12111`): another address for Stripe's API (a local fake); unset → Stripe itself. */
  api?: { protocol: 'http' | 'https'; host: string; port: number };
  /** STRIPE_PRICE_PRO, STRIPE_PRICE_ENTERPRISE: the price of each paid plan; a plan without one cannot be bought. */
  prices: { pro?: string; enterprise?: string };
  /** BILLING_GRACE_DAYS (default 7): how long a project whose payment failed keeps its paid plan, ms. */
  gracePeriodMs: number;
}

export interface RateLimitsConfig {
  /** PLAN_LIMITS: enforce each plan's requests per second and per month on project APIs (default: on when billing is configured). */
  plans: boolean;
  /** AUTH_RATE_LIMIT_MAX per AUTH_RATE_LIMIT_WINDOW_MS: auth attempts per route, client IP and identifier (brute force). */
  authAttempts: { max: number; windowMs: number };
  /** AUTH_IP_RATE_LIMIT_MAX in the same window: auth requests per client IP and project, whatever the identifier. */
  authPerIp: { max: number; windowMs: number };
  /** Failed sign-ins at `POST /v1/auth/login` (docs/sessions.md): a capped exponential lockout per account and per client IP. */
  signIn: SignInLockoutConfig;
  /**
   * STATEMENT_TIMEOUT_FREE_MS, STATEMENT_TIMEOUT_PRO_MS, STATEMENT_TIMEOUT_ENTERPRISE_MS: a plan's
   * statement timeout instead of the one in its limits (applies with `plans` on), ms.
   */
  planStatementTimeoutMs: Readonly<Partial<Record<'free' | 'pro' | 'enterprise', number>>>;
}

export interface SignInLockoutConfig {
  /** AUTH_LOCKOUT_THRESHOLD (default 5): failed sign-ins of one account before it is locked. */
  accountThreshold: number;
  /** AUTH_LOCKOUT_IP_THRESHOLD (default 50): failed sign-ins from one client IP, whatever the account, before it is locked. */
  ipThreshold: number;
  /** AUTH_LOCKOUT_BASE_MS (default 60000): the first lock; each further failure doubles it, ms. */
  baseMs: number;
  /** AUTH_LOCKOUT_MAX_MS (default 900000): no lock is longer, ms. */
  capMs: number;
  /** AUTH_LOCKOUT_WINDOW_MS (default 3600000, at least twice the cap): failures are forgotten this long after the last one, ms. */
  windowMs: number;
}

/** How the pool is shared between projects (@cms/db's fair share). */
export interface DbShareConfig {
  /** DB_PROJECT_SHARE (default 50): the percentage of the pool one project may hold, at least one connection. */
  projectPercent: number;
  /** DB_PROJECT_QUEUE_MS: how long a statement waits for one of its project's connections before 503, ms (none after a committed write). */
  queueTimeoutMs: number;
}

/** Delivery of content answers (@cms/delivery): the shared answer cache and CDN purges. */
export interface DeliveryConfig {
  /**
   * ANSWER_CACHE_MB (default 64, 0 = off): the byte budget of this gateway's answer cache
   * (repeated content reads answered from memory, checked against the shared content version).
   */
  answerCacheBytes: number;
  /** CDN_PURGE_URL (+ CDN_PURGE_FORMAT, CDN_PURGE_TOKEN): where the surrogate keys of every change are sent; unset → none. */
  cdnPurge?: CdnPurgeConfig;
}

export interface CdnPurgeConfig {
  url: string;
  /**
   * CDN_PURGE_FORMAT: `json` (default: `POST {keys: [...]}` to the URL) or `fastly` (Fastly's
   * purge API: `POST` with the keys in a `Surrogate-Key` header and CDN_PURGE_TOKEN as `Fastly-Key`).
   */
  format: 'json' | 'fastly';
  /** CDN_PURGE_TOKEN: sent as `Authorization: Bearer …` (json) or `Fastly-Key` (fastly). */
  token?: string;
}

/** Outgoing webhooks (@cms/webhooks). */
export interface WebhooksConfig {
  /** WEBHOOKS_ALLOW_PRIVATE: deliver to loopback/private/link-local addresses too (off: refused, SSRF). */
  allowPrivate: boolean;
  /** WEBHOOKS_WORKER (default true): this process relays the outbox and delivers. */
  worker: boolean;
  /** WEBHOOKS_TIMEOUT_MS: one attempt's time limit (connect to end of response), ms. */
  timeoutMs: number;
  /** WEBHOOKS_MAX_ATTEMPTS: attempts of one delivery before it is dead. */
  maxAttempts: number;
  /** WEBHOOKS_BACKOFF_MS: the first retry's delay; each next one doubles, ms. */
  backoffMs: number;
  /** WEBHOOKS_RETRY_WINDOW_MS: the last attempt is this long after the first (0: plain doubling), ms. */
  retryWindowMs: number;
  /** WEBHOOKS_CONCURRENCY: attempts in flight per process; WEBHOOKS_PROJECT_CONCURRENCY: of them, per project. */
  concurrency: number;
  projectConcurrency: number;
  /** WEBHOOKS_RELAY_INTERVAL_MS: how often the outbox is read besides its notifications, ms. */
  relayIntervalMs: number;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  /** WORKER_HEALTH_PORT: the worker's `/healthz` and `/readyz` (on HOST); 0 picks a free port. */
  readonly workerHealthPort: number;
  /** Unset → embedded PGlite under `dataDir/pg`. */
  readonly databaseUrl?: string;
  /**
   * DATABASE_URLS: further Postgres clusters that hold projects, by name (`name=url,name=url`).
   * DATABASE_URL's cluster is always `main` (the control plane, and a project cluster too).
   */
  readonly databaseClusters: Readonly<Record<string, string>>;
  /** Unset → in-process bus and local caches. */
  readonly redisUrl?: string;
  /** Prefix of every Redis key and channel (lets deployments and test runs share one Redis). */
  readonly redisPrefix: string;
  readonly baseDomain: string;
  readonly dataDir: string;
  readonly appSecret: string;
  readonly s3?: S3Config;
  readonly media: MediaConfig;
  /** Outgoing e-mail (end users' password resets and confirmations); unset → written to the log. */
  readonly email: { smtpUrl?: string; from: string };
  /** Unset → billing is off: its routes answer 501 and every project keeps the plan it has. */
  readonly stripe?: StripeConfig;
  readonly limits: RateLimitsConfig;
  readonly webhooks: WebhooksConfig;
  /**
   * Single sign-on with OpenID Connect (docs/single-sign-on.md). SSO_RECHECK_SECONDS (default 300):
   * how long the provider's last confirmation of an SSO session holds before the session's next
   * use refreshes at the provider. SSO_ALLOW_PRIVATE (default false): allow `http:` issuers and
   * providers on loopback or private addresses (development and tests; otherwise refused, SSRF).
   * SSO_DNS_SERVERS (comma list of `address[:port]`; default: the system's): where domain proofs
   * (TXT records) are read.
   */
  readonly sso: { recheckSeconds: number; allowPrivate: boolean; dnsServers: readonly string[] };
  /**
   * MAINTENANCE (default on): this process takes part in the maintenance rounds (purging deleted
   * projects, expiring and starting backups), every MAINTENANCE_INTERVAL_MS (default 60 s).
   */
  readonly maintenance: { enabled: boolean; intervalMs: number };
  /**
   * SCHEDULER (default on): this process runs scheduled releases and scheduled actions when due
   * (the `schedules` queue's worker with Redis, timers without) and sweeps the due index every
   * SCHEDULER_SWEEP_MS (default 2000), which finds what a lost wake-up missed (Redis flushed, a
   * process killed). Off, the process still enqueues the wake-ups of the schedules it writes.
   */
  readonly scheduler: { enabled: boolean; sweepMs: number };
  /**
   * CONTENT_HISTORY (default on): every content write records its versions (management API
   * § Content history). Off only to measure its cost (`make bench`) or in an emergency.
   */
  readonly contentHistory: boolean;
  readonly delivery: DeliveryConfig;
  /** DASHBOARD_ORIGINS: origins (besides the gateway's own) whose pages may call the management API. */
  readonly dashboardOrigins: readonly string[];
  /** DASHBOARD_DIR: the built dashboard served at `/` (default: the repository's apps/dashboard/dist). */
  readonly dashboardDir: string;
  /** TRUST_PROXY: whose X-Forwarded-For to believe for the client IP (true, a hop count, or addresses/CIDRs). */
  readonly trustProxy: boolean | number | string[];
  /** OTEL_EXPORTER_OTLP_ENDPOINT: export traces and metrics over OTLP (the SDK reads the other OTEL_* variables itself). */
  readonly otelEndpoint?: string;
  /** OTEL_EXPORTER_OTLP_METRICS_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL: which OTLP metric exporter to build (default http/protobuf). */
  readonly otelProtocol?: string;
  /** METRICS_TOKEN: serve Prometheus text at GET /metrics to `Authorization: Bearer <token>` (unset → 404). */
  readonly metricsToken?: string;
  readonly logLevel: string;
  readonly production: boolean;
  /** Max JSON body size in bytes (Strapi: 1 MB). */
  readonly bodyLimit: number;
  /**
   * The rest of a body still arriving when its request is refused (over a size limit, or before it
   * was read) is read and discarded, so that the client, still sending, reads the answer instead
   * of a reset connection: at most BODY_DRAIN_LIMIT bytes (default 64 MB) in BODY_DRAIN_TIMEOUT_MS
   * (default 30 s), after which the connection is closed.
   */
  readonly bodyDrain: { readonly bytes: number; readonly timeoutMs: number };
  /** Statement timeout of every statement outside a plan's (control plane, jobs; all when plan limits are off), ms. */
  readonly statementTimeoutMs: number;
  readonly dbPoolSize: number;
  /**
   * DB_CONNECTION_MAX_AGE_MS (default 30 min): a pooled connection is closed at its first release
   * past this age (up to 10% earlier), and the pool opens a new one: a Postgres backend keeps the
   * catalog entries of every project schema it has read, ms.
   */
  readonly dbConnectionMaxAgeMs: number;
  /**
   * DB_CONNECTION_MAX_USES (default 50,000): … or once it has run this many statements. High, so
   * that a new connection's cost (connecting, reading the catalog entries and preparing the
   * statements again) is spread thin; on a quiet connection the age bounds it first.
   */
  readonly dbConnectionMaxUses: number;
  /**
   * DB_PREPARED_PER_CONNECTION (default 250): named prepared statements each pooled connection
   * keeps (least recently used out). Each project's statements have their own texts; with project
   * affinity a connection serves a share of the projects, so this bounds how many of them read
   * without being parsed and planned again, against Postgres memory per backend.
   */
  readonly dbPreparedPerConnection: number;
  /**
   * DB_PARALLEL_WORKERS_PER_QUERY (default 0): Postgres's `max_parallel_workers_per_gather` on every
   * pooled connection. Parallel workers let one statement use several cores, so one project's
   * scan could take the CPU its share of the pool was meant to leave to the others.
   */
  readonly dbParallelWorkersPerQuery: number;
  readonly dbShare: DbShareConfig;
  /** How many compiled project runtimes one instance keeps. */
  readonly runtimeCacheSize: number;
  /** Memory bound (MB, estimated) of the compiled project runtimes, with the count above. */
  readonly runtimeCacheMb: number;
  /** How many compiled reads (query shapes and exact repeats, all projects together) one instance keeps. */
  readonly readCacheSize: number;
  /** How many project GraphQL servers (schema + mercurius) one instance keeps. */
  readonly graphqlCacheSize: number;
  /**
   * SPARE_SCHEMAS: empty project schemas each cluster keeps ready, so creating a project does not
   * build one (default 10 on Postgres; 0, off, on the embedded PGlite, whose one connection
   * would queue requests behind the builds).
   */
  readonly spareSchemas: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function int(env: Env, key: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${key} must be an integer between ${min} and ${max}, got "${raw}"`);
  return n;
}

function str(env: Env, key: string): string | undefined {
  const v = env[key];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = str(env, key)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false, got "${raw}"`);
}

/** In embedded mode the secret is generated once and kept under the data dir; otherwise it is required. */
function resolveAppSecret(env: Env, dataDir: string, embedded: boolean): string {
  const given = str(env, 'APP_SECRET');
  if (given) {
    if (given.length < 16) throw new ConfigError('APP_SECRET must be at least 16 characters');
    return given;
  }
  if (!embedded) throw new ConfigError('APP_SECRET is required when DATABASE_URL is set');
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Whether `text` is a serialized web origin (`https://app.example.com`, `http://localhost:3000`):
 * http(s), a host, an optional port, nothing else. What a browser sends in `Origin`.
 */
export function isWebOrigin(text: string): boolean {
  if (text.length > 300) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
}

function originsOf(env: Env, key: string): string[] {
  const origins = (str(env, key) ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  const bad = origins.filter((o) => !isWebOrigin(o));
  if (bad.length > 0) throw new ConfigError(`${key}: not origins (scheme://host[:port]): ${bad.join(', ')}`);
  return origins;
}

/** The plans' statement timeouts set in the environment (the others keep their plan's). */
function planStatementTimeoutsOf(env: Env): RateLimitsConfig['planStatementTimeoutMs'] {
  const out: Partial<Record<'free' | 'pro' | 'enterprise', number>> = {};
  for (const plan of ['free', 'pro', 'enterprise'] as const) {
    const key = `STATEMENT_TIMEOUT_${plan.toUpperCase()}_MS`;
    if (str(env, key) !== undefined) out[plan] = int(env, key, 0, 100, 3_600_000);
  }
  return Object.freeze(out);
}

/** STRIPE_API_BASE as the `stripe` library's host/port/protocol options. */
function cdnPurgeOf(env: Env): CdnPurgeConfig | undefined {
  const url = str(env, 'CDN_PURGE_URL');
  if (!url) return undefined;
  if (!/^https?:\/\//.test(url)) throw new ConfigError(`CDN_PURGE_URL must be an http(s) URL, got "${url}"`);
  const format = str(env, 'CDN_PURGE_FORMAT') ?? 'json';
  if (format !== 'json' && format !== 'fastly') throw new ConfigError(`CDN_PURGE_FORMAT must be json or fastly, got "${format}"`);
  const token = str(env, 'CDN_PURGE_TOKEN');
  return { url, format, ...(token ? { token } : {}) };
}

function stripeApiOf(env: Env): StripeConfig['api'] {
  const raw = str(env, 'STRIPE_API_BASE');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`STRIPE_API_BASE is not a URL: "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.username) {
    throw new ConfigError(`STRIPE_API_BASE must be scheme://host[:port] (http or https), got "${raw}"`);
  }
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80 };
}

function stripeOf(env: Env): StripeConfig | undefined {
  const secretKey = str(env, 'STRIPE_SECRET_KEY');
  if (secretKey === undefined) return undefined;
  // Without the webhook secret no payment would ever change a plan: refuse to start half-configured.
  const webhookSecret = str(env, 'STRIPE_WEBHOOK_SECRET');
  if (webhookSecret === undefined) throw new ConfigError('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
  const prices = { pro: str(env, 'STRIPE_PRICE_PRO'), enterprise: str(env, 'STRIPE_PRICE_ENTERPRISE') };
  // A subscription's plan is the plan whose price it carries: one price cannot name two plans.
  if (prices.pro !== undefined && prices.pro === prices.enterprise) throw new ConfigError('STRIPE_PRICE_PRO and STRIPE_PRICE_ENTERPRISE must differ');
  return {
    secretKey,
    webhookSecret,
    api: stripeApiOf(env),
    prices,
    gracePeriodMs: int(env, 'BILLING_GRACE_DAYS', 7, 0, 365) * 24 * 60 * 60 * 1000,
  };
}

/** The cluster DATABASE_URL names: the control plane's. */
export const CONTROL_CLUSTER = 'main';
const CLUSTER_NAME = /^[a-z][a-z0-9_-]{0,30}$/;

/** DATABASE_URLS: `name=postgres://…` pairs separated by commas (names: `^[a-z][a-z0-9_-]{0,30}$`, not `main`). */
function databaseClustersOf(env: Env, databaseUrl: string | undefined): Record<string, string> {
  const raw = str(env, 'DATABASE_URLS');
  if (raw === undefined) return {};
  if (!databaseUrl) throw new ConfigError('DATABASE_URLS needs DATABASE_URL (the control plane\'s cluster)');
  const clusters: Record<string, string> = {};
  for (const pair of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = pair.indexOf('=');
    const name = eq > 0 ? pair.slice(0, eq).trim() : '';
    const url = eq > 0 ? pair.slice(eq + 1).trim() : '';
    if (!CLUSTER_NAME.test(name) || name === CONTROL_CLUSTER) throw new ConfigError(`DATABASE_URLS: "${name}" is not a cluster name (^[a-z][a-z0-9_-]{0,30}$, not "${CONTROL_CLUSTER}")`);
    if (!/^postgres(ql)?:\/\//.test(url)) throw new ConfigError(`DATABASE_URLS: the URL of cluster "${name}" must start with postgres://`);
    if (clusters[name] !== undefined) throw new ConfigError(`DATABASE_URLS: cluster "${name}" is given twice`);
    clusters[name] = url;
  }
  return clusters;
}

function trustProxyOf(env: Env): boolean | number | string[] {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (['true', 'false'].includes(raw.toLowerCase())) return bool(env, 'TRUST_PROXY', false);
  return raw.split(',').map((a) => a.trim()).filter(Boolean);
}

function signInLockoutOf(env: Env): SignInLockoutConfig {
  const capMs = int(env, 'AUTH_LOCKOUT_MAX_MS', 15 * 60_000, 1000, 86_400_000);
  return {
    accountThreshold: int(env, 'AUTH_LOCKOUT_THRESHOLD', 5, 1, 1000),
    ipThreshold: int(env, 'AUTH_LOCKOUT_IP_THRESHOLD', 50, 1, 100_000),
    baseMs: Math.min(capMs, int(env, 'AUTH_LOCKOUT_BASE_MS', 60_000, 1000, 86_400_000)),
    capMs,
    // Remembered for twice the longest lock at least, so a lock ends before its failures are forgotten.
    windowMs: Math.max(2 * capMs, int(env, 'AUTH_LOCKOUT_WINDOW_MS', 3_600_000, 1000, 7 * 86_400_000)),
  };
}

/** The worker's health port (WORKER_HEALTH_PORT, default 8081); read alone by the image's HEALTHCHECK. */
export function workerHealthPortOf(env: Env = process.env): number {
  return int(env, 'WORKER_HEALTH_PORT', 8081, 0, 65535);
}

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = str(env, 'DATABASE_URL');
  const dataDir = resolve(str(env, 'DATA_DIR') ?? '.data');
  const bucket = str(env, 'S3_BUCKET');
  const stripe = stripeOf(env);
  const baseDomain = (str(env, 'BASE_DOMAIN') ?? 'localhost').toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(baseDomain)) throw new ConfigError(`BASE_DOMAIN is not a host name: "${baseDomain}"`);
  // Both auth limits count over the same window.
  const authWindowMs = int(env, 'AUTH_RATE_LIMIT_WINDOW_MS', 60_000, 1000);
  const config: Config = {
    port: int(env, 'PORT', 1337, 0, 65535),
    host: str(env, 'HOST') ?? '127.0.0.1',
    workerHealthPort: workerHealthPortOf(env),
    databaseUrl,
    databaseClusters: databaseClustersOf(env, databaseUrl),
    redisUrl: str(env, 'REDIS_URL'),
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'cms:',
    baseDomain,
    dataDir,
    appSecret: resolveAppSecret(env, dataDir, !databaseUrl),
    s3: bucket
      ? {
          bucket,
          endpoint: str(env, 'S3_ENDPOINT'),
          region: str(env, 'S3_REGION') ?? 'us-east-1',
          accessKeyId: str(env, 'S3_ACCESS_KEY_ID'),
          secretAccessKey: str(env, 'S3_SECRET_ACCESS_KEY'),
        }
      : undefined,
    media: {
      dir: resolve(str(env, 'MEDIA_DIR') ?? join(dataDir, 'media')),
      publicUrl: str(env, 'MEDIA_PUBLIC_URL'),
      processingWaitMs: int(env, 'MEDIA_PROCESSING_WAIT_MS', 10_000, 0, 600_000),
      workerInGateway: bool(env, 'MEDIA_WORKER', true),
      jobLockMs: int(env, 'MEDIA_JOB_LOCK_MS', 30_000, 500, 3_600_000),
      maxUploadBytes: str(env, 'MEDIA_MAX_UPLOAD_BYTES') ? int(env, 'MEDIA_MAX_UPLOAD_BYTES', 0, 1) : undefined,
      storageQuotaBytes: str(env, 'MEDIA_STORAGE_QUOTA_BYTES') ? int(env, 'MEDIA_STORAGE_QUOTA_BYTES', 0, 0) : undefined,
    },
    email: { smtpUrl: str(env, 'SMTP_URL'), from: str(env, 'EMAIL_FROM') ?? 'no-reply@localhost' },
    stripe,
    limits: {
      plans: bool(env, 'PLAN_LIMITS', stripe !== undefined),
      authAttempts: { max: int(env, 'AUTH_RATE_LIMIT_MAX', 10, 1), windowMs: authWindowMs },
      authPerIp: { max: int(env, 'AUTH_IP_RATE_LIMIT_MAX', 300, 1), windowMs: authWindowMs },
      signIn: signInLockoutOf(env),
      planStatementTimeoutMs: planStatementTimeoutsOf(env),
    },
    webhooks: {
      allowPrivate: bool(env, 'WEBHOOKS_ALLOW_PRIVATE', false),
      worker: bool(env, 'WEBHOOKS_WORKER', true),
      timeoutMs: int(env, 'WEBHOOKS_TIMEOUT_MS', 10_000, 100, 120_000),
      maxAttempts: int(env, 'WEBHOOKS_MAX_ATTEMPTS', 12, 1, 50),
      backoffMs: int(env, 'WEBHOOKS_BACKOFF_MS', 60_000, 1, 86_400_000),
      retryWindowMs: int(env, 'WEBHOOKS_RETRY_WINDOW_MS', 86_400_000, 0, 7 * 86_400_000),
      concurrency: int(env, 'WEBHOOKS_CONCURRENCY', 16, 1, 1000),
      projectConcurrency: int(env, 'WEBHOOKS_PROJECT_CONCURRENCY', 4, 1, 1000),
      relayIntervalMs: int(env, 'WEBHOOKS_RELAY_INTERVAL_MS', 1000, 50, 600_000),
    },
    sso: {
      recheckSeconds: int(env, 'SSO_RECHECK_SECONDS', 300, 1, 86_400),
      allowPrivate: bool(env, 'SSO_ALLOW_PRIVATE', false),
      dnsServers: Object.freeze((str(env, 'SSO_DNS_SERVERS') ?? '').split(',').map((a) => a.trim()).filter(Boolean)),
    },
    maintenance: { enabled: bool(env, 'MAINTENANCE', true), intervalMs: int(env, 'MAINTENANCE_INTERVAL_MS', 60_000, 100, 86_400_000) },
    contentHistory: bool(env, 'CONTENT_HISTORY', true),
    delivery: {
      answerCacheBytes: int(env, 'ANSWER_CACHE_MB', 64, 0, 1_000_000) * 1024 * 1024,
      cdnPurge: cdnPurgeOf(env),
    },
    scheduler: { enabled: bool(env, 'SCHEDULER', true), sweepMs: int(env, 'SCHEDULER_SWEEP_MS', 2000, 100, 60_000) },
    dashboardOrigins: Object.freeze(originsOf(env, 'DASHBOARD_ORIGINS')),
    dashboardDir: resolve(str(env, 'DASHBOARD_DIR') ?? fileURLToPath(new URL('../../../apps/dashboard/dist', import.meta.url))),
    trustProxy: trustProxyOf(env),
    otelEndpoint: str(env, 'OTEL_EXPORTER_OTLP_ENDPOINT'),
    otelProtocol: str(env, 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL') ?? str(env, 'OTEL_EXPORTER_OTLP_PROTOCOL'),
    metricsToken: str(env, 'METRICS_TOKEN'),
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    production: env.NODE_ENV === 'production',
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024),
    bodyDrain: {
      bytes: int(env, 'BODY_DRAIN_LIMIT', 64 * 1024 * 1024, 0),
      timeoutMs: int(env, 'BODY_DRAIN_TIMEOUT_MS', 30_000, 100, 600_000),
    },
    statementTimeoutMs: int(env, 'STATEMENT_TIMEOUT_MS', 10_000, 100),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 20, 1, 1000),
    dbConnectionMaxAgeMs: int(env, 'DB_CONNECTION_MAX_AGE_MS', 30 * 60_000, 1000, 7 * 86_400_000),
    dbConnectionMaxUses: int(env, 'DB_CONNECTION_MAX_USES', 50_000, 1, 100_000_000),
    dbPreparedPerConnection: int(env, 'DB_PREPARED_PER_CONNECTION', 250, 0, 100_000),
    dbParallelWorkersPerQuery: int(env, 'DB_PARALLEL_WORKERS_PER_QUERY', 0, 0, 64),
    dbShare: {
      projectPercent: int(env, 'DB_PROJECT_SHARE', 50, 1, 100),
      queueTimeoutMs: int(env, 'DB_PROJECT_QUEUE_MS', 10_000, 10, 600_000),
    },
    runtimeCacheSize: int(env, 'RUNTIME_CACHE_SIZE', 20_000, 1),
    runtimeCacheMb: int(env, 'RUNTIME_CACHE_MB', 128, 1),
    readCacheSize: int(env, 'READ_CACHE_SIZE', 20_000, 1),
    graphqlCacheSize: int(env, 'GRAPHQL_CACHE_SIZE', 100, 1),
    spareSchemas: int(env, 'SPARE_SCHEMAS', str(env, 'DATABASE_URL') ? 10 : 0, 0, 1000),
  };
  return Object.freeze(config);
}
export { mediaOrigin } from './media-origin.ts';
