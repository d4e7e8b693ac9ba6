import { z } from 'zod';
import { POLICY_LEVELS } from '../enums.js';

/**
 * Why a process is not ready, where it knows: `server_path_not_shared` — its server
 * storage directory is not the one the installation's other processes use.
 */
export const HEALTH_REASONS = ['server_path_not_shared'] as const;
export type HealthReason = (typeof HEALTH_REASONS)[number];
export const healthResponseSchema = z.object({ status: z.enum(['ok', 'unavailable']), reason: z.enum(HEALTH_REASONS).optional() });

/** One route's policy, as `GET /api/policy` lists it and the server enforces it. */
export const policySchema = z.object({
  category: z.string(),
  name: z.string(),
  description: z.string(),
  method: z.string(),
  uri: z.string(),
  level: z.union(POLICY_LEVELS.map((l) => z.literal(l)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>]),
});
export type Policy = z.infer<typeof policySchema>;
export const policyListSchema = z.array(policySchema);

/** `GET /api/system`: the machine the server runs on. */
export const systemInfoSchema = z.object({
  hostname: z.string(),
  platform: z.string(),
  arch: z.string(),
  release: z.string(),
  /** Seconds since the machine started. */
  uptime: z.number(),
  /** Seconds since the server process started. */
  processUptime: z.number(),
  memory: z.object({ total: z.number(), free: z.number() }),
  cpu: z.object({ model: z.string(), speed: z.number(), cores: z.number().int() }),
  loadAverage: z.array(z.number()),
  nodeVersion: z.string(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;

/** One address of a network interface, as the operating system reports it. */
export const networkAddressSchema = z.object({
  address: z.string(),
  netmask: z.string(),
  family: z.string(),
  mac: z.string(),
  internal: z.boolean(),
  cidr: z.string().nullable(),
  scopeid: z.number().int().optional(),
});
/** `GET /api/system/network`: every interface with its addresses. */
export const networkInterfaceSchema = z.object({ name: z.string(), addresses: z.array(networkAddressSchema) });
export const networkListSchema = z.array(networkInterfaceSchema);
export type NetworkInterface = z.infer<typeof networkInterfaceSchema>;

/** HTTP methods the access log filter offers. */
export const ACCESS_LOG_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** Rows one page of the system log may ask for. */
export const ACCESS_LOG_PAGE_MAX = 100;
/** Rows one CSV export holds at most (the newest that match). */
export const ACCESS_LOG_EXPORT_MAX = 100_000;
/** The spec's name of the exported file. */
export const ACCESS_LOG_EXPORT_FILE = 'system_log_data.csv';

const isoInstant = z.iso.datetime({ offset: true });

/** Filters of the system log; every one optional, all of them applied together. */
export const accessLogFilterSchema = z.object({
  /** Address starting with this text. */
  ip: z.string().trim().max(64).optional(),
  method: z.enum(ACCESS_LOG_METHODS).optional(),
  /** Request URL containing this text (case-insensitive). */
  url: z.string().trim().max(512).optional(),
  /** An exact status (404) or a class (4xx). */
  status: z
    .string()
    .trim()
    .regex(/^[1-5](\d\d|xx)$/i)
    .optional(),
  /** Entries at or after this instant. */
  from: isoInstant.optional(),
  /** Entries before this instant. */
  to: isoInstant.optional(),
});
export type AccessLogFilter = z.infer<typeof accessLogFilterSchema>;

/** `GET /api/system/log?skip&limit&…filters`. */
export const accessLogQuerySchema = accessLogFilterSchema.extend({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(ACCESS_LOG_PAGE_MAX).default(15),
});
export type AccessLogQuery = z.input<typeof accessLogQuerySchema>;

/** One answered request. */
export const accessLogEntrySchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  ip: z.string(),
  method: z.string(),
  url: z.string(),
  status: z.number().int(),
  /** Milliseconds. */
  responseTime: z.number(),
  contentLength: z.number().nullable(),
  userAgent: z.string(),
  userId: z.string().nullable(),
});
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;
export const accessLogPageSchema = z.object({ items: z.array(accessLogEntrySchema), total: z.number().int() });
export type AccessLogPage = z.infer<typeof accessLogPageSchema>;
