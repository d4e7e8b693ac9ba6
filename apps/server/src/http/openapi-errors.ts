import { MESSAGE_KEYS, type MessageKey } from '@bogwan/contracts';
import type { RoutePolicy } from './policy.js';

const KNOWN_KEYS = new Set<string>(MESSAGE_KEYS);

/** The refusals an operation can answer: status → the message keys of its `{statusCode, message}` body. */
export type ErrorKeys = Map<number, Set<MessageKey>>;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Writes to files and folders, which a WebDAV lock, a taken name or a full volume can refuse: the file category and these. */
const FILE_WRITE_CATEGORIES = new Set(['file']);
const FILE_WRITE_OPERATIONS = new Set(['trash_restore']);

function add(keys: ErrorKeys, status: number, key: MessageKey): void {
  let set = keys.get(status);
  if (!set) keys.set(status, (set = new Set()));
  set.add(key);
}

/**
 * The generic refusals of a route, read from its policy kind and its method: what the error
 * handler, the authorization hook and the licence gate answer before the handler runs, and
 * what the shared services answer for every write of their kind.
 */
export function genericErrorKeys(policy: RoutePolicy, method: string, hasInput: boolean): ErrorKeys {
  const keys: ErrorKeys = new Map();
  if (hasInput) add(keys, 400, 'invalid_request_message');
  add(keys, 404, 'not_found_message');
  add(keys, 429, 'too_many_requests_message');
  if (!policy.licenceExempt) add(keys, 403, 'license_required');
  const signedIn = policy.level > 0 || policy.authentication !== undefined;
  if (signedIn) {
    add(keys, 401, 'unauthorized_message');
    add(keys, 403, 'no_access_warning');
    if (!policy.licenceExempt && !policy.beforePasswordChange) add(keys, 403, 'password_change_required');
  }
  if (WRITE_METHODS.has(method)) {
    add(keys, 413, 'payload_too_large_message');
    if (FILE_WRITE_CATEGORIES.has(policy.category) || FILE_WRITE_OPERATIONS.has(policy.name)) {
      add(keys, 409, 'file_exists_warning');
      add(keys, 423, 'file_locked_warning');
      add(keys, 413, 'volume_exceeded_warning');
    }
  }
  return keys;
}

interface ZodLike {
  _zod?: { def?: Record<string, unknown> };
}

/** The message key a zod `error` option names, if it is one of ours (zod keeps it as a function). */
function keyOfErrorOption(error: unknown): MessageKey | undefined {
  if (typeof error === 'string') return KNOWN_KEYS.has(error) ? (error as MessageKey) : undefined;
  if (typeof error !== 'function') return undefined;
  try {
    const answer: unknown = (error as (issue: unknown) => unknown)({
      code: 'custom',
      input: undefined,
      path: [],
    });
    const text = typeof answer === 'string' ? answer : (answer as { message?: unknown } | undefined)?.message;
    return typeof text === 'string' && KNOWN_KEYS.has(text) ? (text as MessageKey) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The validation message keys a request schema declares (`z.string({ error: 'rules_folder' })`
 * and the checks' `{ error }` options): the 400 keys a route answers besides the generic one.
 */
export function declaredValidationKeys(schema: unknown, found = new Set<MessageKey>(), seen = new Set<unknown>()): Set<MessageKey> {
  const def = (schema as ZodLike | undefined)?._zod?.def;
  if (!def || seen.has(schema)) return found;
  seen.add(schema);
  const own = keyOfErrorOption(def.error);
  if (own) found.add(own);
  for (const check of (def.checks as ZodLike[] | undefined) ?? []) {
    const key = keyOfErrorOption(check._zod?.def?.error);
    if (key) found.add(key);
  }
  const children: unknown[] = [def.innerType, def.element, def.in, def.out, def.left, def.right, def.valueType, def.keyType, def.catchall];
  if (typeof def.getter === 'function') children.push((def.getter as () => unknown)());
  if (def.shape && typeof def.shape === 'object') children.push(...Object.values(def.shape as Record<string, unknown>));
  if (Array.isArray(def.options)) children.push(...(def.options as unknown[]));
  if (Array.isArray(def.items)) children.push(...(def.items as unknown[]));
  for (const child of children) if (child) declaredValidationKeys(child, found, seen);
  return found;
}

/** The OpenAPI responses of an operation's refusals, one per status, each listing its message keys. */
export function errorResponses(keys: ErrorKeys): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of [...keys.keys()].sort((a, b) => a - b)) {
    const messages = [...keys.get(status)!].sort();
    responses[String(status)] = {
      description: `Refused; the message is one of: ${messages.join(', ')}`,
      allOf: [
        { $ref: '#/components/schemas/ErrorBody' },
        { type: 'object', properties: { statusCode: { type: 'integer', enum: [status] }, message: { type: 'string', enum: messages } } },
      ],
    };
  }
  return responses;
}

/** The one error body of the API, a component every refusal refers to. */
export const ERROR_BODY_SCHEMA = {
  type: 'object' as const,
  description: 'Every refusal: the HTTP status again and a message key the client translates (never raw text)',
  required: ['statusCode', 'message'],
  properties: {
    statusCode: { type: 'integer' as const, minimum: 400, maximum: 599 },
    message: { type: 'string' as const, enum: [...MESSAGE_KEYS] },
  },
};
