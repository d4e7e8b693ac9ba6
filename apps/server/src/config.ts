import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { checkPassword } from '@bogwan/contracts';
import { parseLicencePublicKey } from './modules/licence/licence-key.js';

/** Durations such as `900`, `15m`, `12h`, `7d` (seconds when no unit). */
const duration = z
  .string()
  .regex(/^\d+[smhd]?$/, 'a number of seconds, or a number followed by s, m, h or d')
  .transform((v) => {
    const unit = v.at(-1) ?? '';
    const n = Number.parseInt(v, 10);
    const factor = { s: 1, m: 60, h: 3600, d: 86400 }[unit] ?? 1;
    return n * factor;
  });

const boolish = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** proxy-addr's names for address ranges, accepted in a trusted-proxy list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP address, an address/prefix (CIDR), or one of proxy-addr's range names. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies to believe about the client address. `false`: none (the socket's peer is
 * the client). `true` (or `1`): one hop, the reverse proxy in front, so the client is the
 * right-most `X-Forwarded-For` entry; a number N: N hops; or a comma-separated list of
 * proxy addresses/CIDRs. Never "trust everyone": then the client could name any address.
 * A hop count believes whoever connects, so it fits a server reachable only through its
 * proxy; the list also holds when clients can reach the server directly.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    const lower = v.toLowerCase();
    if (['false', 'no', '0', ''].includes(lower)) return false;
    if (['true', 'yes'].includes(lower)) return 1;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 32) return hops;
    } else {
      const entries = v.split(',').map((e) => e.trim());
      if (entries.every(isProxyAddress)) return entries;
    }
    ctx.addIssue({
      code: 'custom',
      message:
        'false, true (one proxy in front), a number of proxy hops from 1 to 32, or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.1,172.16.0.0/12)',
    });
    return z.NEVER;
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  BOGWAN_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:|file:)/, 'postgres://…, postgresql://…, sqlite:<file> or file:<file>')
    .optional(),
  BOGWAN_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  BOGWAN_ACCESS_TOKEN_TTL: duration.default(900),
  BOGWAN_REFRESH_TOKEN_TTL: duration.default(1_209_600),
  BOGWAN_LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  BOGWAN_LOGIN_IP_MAX_FAILURES: z.coerce.number().int().min(5).max(10_000).default(20),
  BOGWAN_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'smtp://… or smtps://…')
    .optional(),
  BOGWAN_MAIL_FROM: z.string().min(3).default('Bogwan <no-reply@localhost>'),
  BOGWAN_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'redis://… or rediss://…')
    .optional(),
  BOGWAN_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9:._-]{0,99}$/, 'up to 100 letters, digits, colons, dots, dashes or underscores (no # or glob characters)')
    .optional(),
  BOGWAN_WEB_DIR: z.string().min(1).optional(),
  BOGWAN_ACCESS_LOG_MAX_ROWS: z.coerce.number().int().min(1000).max(100_000_000).default(100_000),
  BOGWAN_ACCESS_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  BOGWAN_TRUST_PROXY: trustProxy.default(false),
  BOGWAN_LICENSE_PUBLIC_KEY: z
    .string()
    .refine((v) => {
      try {
        parseLicencePublicKey(v);
        return true;
      } catch {
        return false;
      }
    }, 'an Ed25519 public key: PEM, or base64 of its SPKI DER')
    .optional(),
  BOGWAN_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  BOGWAN_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  BOGWAN_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  BOGWAN_S3_REGION: z.string().min(1).default('us-east-1'),
  BOGWAN_S3_FORCE_PATH_STYLE: boolish.default(false),
  BOGWAN_INITIAL_PASSWORD: z
    .string()
    .refine((v) => checkPassword(v) === null, '9 to 20 characters with letters, digits and special characters')
    .default('Bogwan!2345'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BOGWAN_LOG_REQUESTS: boolish.default(false),
  BOGWAN_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  BOGWAN_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  BOGWAN_METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  BOGWAN_MAX_ACTIVE_REQUESTS: z.coerce.number().int().min(1).max(10_000).default(32),
  BOGWAN_MAX_WAITING_REQUESTS: z.coerce.number().int().min(0).max(1_000_000).default(1024),
  BOGWAN_MAX_QUEUE_WAIT_MS: z.coerce.number().int().min(1).max(600_000).default(250),
});

export type DatabaseConfig = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  /** Secret for signing access tokens; when absent one is generated in the data directory. */
  secret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Minutes an account stays restricted after five failed sign-ins in a row. */
  loginLockMinutes: number;
  /** Failed sign-ins one address may make per 15 minutes before it is refused. */
  loginIpMaxFailures: number;
  /** SMTP server for mail; without it mail goes to `<data dir>/outbox`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The address users open (fixes the WebAuthn origin); else taken from each request. */
  publicUrl: string | undefined;
  /** Built web app to serve; undefined means the default location beside the server build. */
  webDir: string | undefined;
  accessLogMaxRows: number;
  /** Access-log entries older than this many days are deleted (hourly housekeeping). */
  accessLogRetentionDays: number;
  /** Redis for fanning realtime events out across server processes. */
  redisUrl: string | undefined;
  /** Prefix of this installation's Redis channels; undefined means one derived from the installation id. */
  redisPrefix: string | undefined;
  /** Fastify's `trustProxy`: false, a number of proxy hops, or the proxies' addresses/CIDRs. */
  trustProxy: false | number | string[];
  /** Vendor public key (PEM or base64 SPKI) that licence keys must verify with; undefined means the built-in one. */
  licensePublicKey: string | undefined;
  /** The S3-compatible endpoint of the cloud backend; the bucket itself is the setting `cloud.bucket`. */
  s3: {
    endpoint: string | undefined;
    region: string;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    forcePathStyle: boolean;
  };
  /** Password of accounts created without one; they must change it at first sign-in. */
  initialPassword: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Also write one JSON line per answered request to the process log (the access_log table keeps them anyway). */
  logRequests: boolean;
  /** Prometheus metrics: off unless a port (own listener) and/or a token (bearer on the main port) is set. */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** Admission control: API/WebDAV requests running at once, waiting for a turn, and how long a turn is waited for before 503 (http/admission.ts). */
  admission: { active: number; waiting: number; maxWaitMs: number };
}

export class ConfigError extends Error {}

/** Reads and validates the environment once; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.BOGWAN_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: databaseConfig(e.DATABASE_URL, dataDir),
    secret: e.BOGWAN_SECRET,
    accessTokenTtlSeconds: e.BOGWAN_ACCESS_TOKEN_TTL,
    refreshTokenTtlSeconds: e.BOGWAN_REFRESH_TOKEN_TTL,
    loginLockMinutes: e.BOGWAN_LOGIN_LOCK_MINUTES,
    loginIpMaxFailures: e.BOGWAN_LOGIN_IP_MAX_FAILURES,
    smtpUrl: e.BOGWAN_SMTP_URL,
    mailFrom: e.BOGWAN_MAIL_FROM,
    publicUrl: e.BOGWAN_PUBLIC_URL?.replace(/\/+$/, ''),
    webDir: e.BOGWAN_WEB_DIR ? path.resolve(e.BOGWAN_WEB_DIR) : undefined,
    accessLogMaxRows: e.BOGWAN_ACCESS_LOG_MAX_ROWS,
    accessLogRetentionDays: e.BOGWAN_ACCESS_LOG_RETENTION_DAYS,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.BOGWAN_REDIS_PREFIX,
    trustProxy: e.BOGWAN_TRUST_PROXY,
    licensePublicKey: e.BOGWAN_LICENSE_PUBLIC_KEY,
    initialPassword: e.BOGWAN_INITIAL_PASSWORD,
    s3: {
      endpoint: e.BOGWAN_S3_ENDPOINT,
      region: e.BOGWAN_S3_REGION,
      accessKeyId: e.BOGWAN_S3_ACCESS_KEY_ID,
      secretAccessKey: e.BOGWAN_S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.BOGWAN_S3_FORCE_PATH_STYLE,
    },
    logLevel: e.LOG_LEVEL,
    logRequests: e.BOGWAN_LOG_REQUESTS,
    metrics: { port: e.BOGWAN_METRICS_PORT, host: e.BOGWAN_METRICS_HOST, token: e.BOGWAN_METRICS_TOKEN },
    admission: { active: e.BOGWAN_MAX_ACTIVE_REQUESTS, waiting: e.BOGWAN_MAX_WAITING_REQUESTS, maxWaitMs: e.BOGWAN_MAX_QUEUE_WAIT_MS },
  };
}

function databaseConfig(url: string | undefined, dataDir: string): DatabaseConfig {
  if (!url) return { dialect: 'sqlite', file: path.join(dataDir, 'bogwan.sqlite') };
  if (url.startsWith('postgres')) return { dialect: 'postgres', url };
  const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
  return { dialect: 'sqlite', file: path.resolve(file) };
}
