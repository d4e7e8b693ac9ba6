import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CHUNK_SIZE, type IncomingWebhook, isInside, isValidFileName, splitPath } from '@bogwan/contracts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { MessageKey } from '@bogwan/contracts';
import { type AuditActor, auditContext } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { FileAccess } from '../files/ports.js';
import type { AttemptCountersRepo } from '../limits/attempt-counters.repo.js';
import { RateLimit } from '../limits/rate-limit.js';
import { chunkOf } from '../transfer/chunk-body.js';
import { chunkCountOf, type UploadService } from '../transfer/upload.service.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { IncomingWebhookRow, WebhooksRepo } from './webhooks.repo.js';

/** The path an outside system posts files to. */
export const incomingCallPath = (token: string) => `/api/webhooks/incoming/${token}`;

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const tokenRefused = () => new AppError(401, 'webhook_token_invalid');
const tooMany = () => new AppError(429, 'too_many_requests_message');

export function toIncomingWebhook(row: IncomingWebhookRow, baseUrl: string): IncomingWebhook {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    url: `${baseUrl}${incomingCallPath(row.token)}`,
    token: row.token,
    path: row.path,
    createdAt: row.created_at,
    userId: row.user_id,
    userEmail: row.user_email,
  };
}

/** Who calls: what is known before any of the body is read. */
export interface IncomingCaller {
  token: string;
  /** The bearer value the caller sent (the webhook's access token, if right). */
  accessToken: string | undefined;
  ip: string;
}

/** The file an admitted call sends. */
export interface IncomingFile {
  /** Folder to upload into: the webhook's folder or one inside it; default its folder. */
  path: string | undefined;
  fileName: string;
  file: Readable;
  /** True when the multipart reader cut the file off at the size limit. */
  truncated: () => boolean;
}

/**
 * Incoming webhooks: an outside system posts a file to the webhook's URL with its access
 * token (compared in constant time) and the file lands in the webhook's folder, uploaded
 * as the webhook's creator with the creator's permissions (`fileAccess`), through the
 * same upload path as the browser. Every call, refused or not, is in the activity log.
 * A call is admitted (`admit`) before its body is read, then its file is received.
 */
export class IncomingWebhooks {
  /** Calls per webhook token per minute (counted in the database: one count for every process). */
  readonly perToken: RateLimit;
  /** Refused calls (unknown token, wrong access token) per address per 10 minutes. */
  readonly refusalsPerIp: RateLimit;

  constructor(
    private readonly repo: WebhooksRepo,
    private readonly users: UsersRepo,
    private readonly access: () => FileAccess,
    private readonly uploads: () => UploadService,
    private readonly audit: AuditRecorder,
    private readonly spoolDir: string,
    counters: AttemptCountersRepo,
  ) {
    this.perToken = new RateLimit(counters, 'webhook-calls', 30, 60_000);
    this.refusalsPerIp = new RateLimit(counters, 'webhook-refusals', 10, 10 * 60_000);
  }

  async list(baseUrl: string): Promise<IncomingWebhook[]> {
    return (await this.repo.incoming()).map((row) => toIncomingWebhook(row, baseUrl));
  }

  /** Creates a webhook into a folder the creator may CREATE in; 409 `webhook_token_taken` when the token is in use. */
  async create(
    user: UserRow,
    body: { title: string; description: string; token: string; accessToken: string; path: string },
    baseUrl: string,
    ip: string,
  ): Promise<IncomingWebhook> {
    const folder = await this.access().require(user, body.path, 'CREATE');
    if (folder.folder !== 1) throw badRequest('invalid_path');
    const row: IncomingWebhookRow = {
      id: newId(),
      title: body.title || body.path,
      description: body.description,
      token: body.token,
      access_token_hash: sha256(body.accessToken).toString('hex'),
      path: body.path,
      user_id: user.id,
      user_email: user.email,
      created_at: new Date().toISOString(),
    };
    if (!(await this.repo.insertIncoming(row))) throw conflict('webhook_token_taken');
    await this.audit.record({
      action: 'webhook.create',
      target: { kind: 'webhook', id: row.id, path: row.path, label: row.title },
      params: { direction: 'incoming' },
      ip,
    });
    return toIncomingWebhook(row, baseUrl);
  }

  async remove(user: UserRow, id: string, ip: string): Promise<void> {
    const row = await this.repo.deleteIncoming(id);
    if (!row) throw notFound();
    await this.audit.record({
      action: 'webhook.delete',
      target: { kind: 'webhook', id: row.id, path: row.path, label: row.title },
      params: { direction: 'incoming' },
      ip,
    });
  }

  /**
   * Decides from the URL, the headers and the address alone whether a call may send its
   * file; refusals (429 for an address or a token over its limit, 401 for a wrong token)
   * come before any of the body is read. Every call, refused or not, is in the activity log.
   * Each count is one atomic statement in the database: a token's calls are counted as they
   * are admitted; an address's refusals as they happen, and an answer (401 or admission) is
   * given only while the address is under its limit, so parallel guesses learn nothing past it.
   */
  async admit(caller: IncomingCaller): Promise<IncomingWebhookRow> {
    if (await this.refusalsPerIp.blocked(caller.ip)) throw await this.addressRefused(caller.ip);
    const row = await this.authenticate(caller);
    if (await this.refusalsPerIp.blocked(caller.ip)) throw await this.addressRefused(caller.ip);
    // From here on the call acts as the webhook: its upload's records name it.
    auditContext.setActor(webhookActor(row));
    if (!(await this.perToken.hit(row.token))) {
      await this.refused(row, 'too_many_requests_message', caller.ip);
      throw tooMany();
    }
    return row;
  }

  /** Stores the file of an admitted call; answers where it went. */
  async receive(row: IncomingWebhookRow, upload: IncomingFile, ip: string): Promise<{ path: string; size: number }> {
    try {
      const creator = row.user_id ? await this.users.findById(row.user_id) : undefined;
      if (!creator || creator.status !== 'ACTIVE') throw forbidden();
      const folderPath = upload.path ?? row.path;
      if (splitPath(folderPath) === null || !isValidFileName(upload.fileName)) throw badRequest('invalid_path');
      // The webhook writes into its folder and below, never beside it.
      if (!isInside(folderPath, row.path)) throw forbidden();
      const stored = await this.store(creator, folderPath, upload, ip);
      await this.audit.record({
        action: 'webhook.call',
        actor: webhookActor(row),
        target: { kind: 'node', path: stored.path },
        params: { webhookId: row.id, size: stored.size },
        ip,
      });
      // The upload path it went through tells outgoing webhooks (once); telling them here too sent every such file twice.
      return stored;
    } catch (error) {
      upload.file.resume();
      await this.refused(row, refusalKey(error), ip);
      throw error;
    }
  }

  /** Logs an admitted call whose body could not be read as one file. */
  async refuseBody(row: IncomingWebhookRow, error: unknown, ip: string): Promise<void> {
    await this.refused(row, refusalKey(error), ip);
  }

  /** The webhook the token names, when the access token matches; the same refusal for an unknown token. */
  private async authenticate(call: IncomingCaller): Promise<IncomingWebhookRow> {
    const row = await this.repo.incomingByToken(call.token);
    const given = sha256(call.accessToken ?? '');
    // Compared even for an unknown token, so the time taken says nothing about which tokens exist.
    const expected = row ? Buffer.from(row.access_token_hash, 'hex') : sha256(`unknown:${call.token}`);
    const matches = timingSafeEqual(given, expected) && row !== undefined && call.accessToken !== undefined;
    if (!matches) {
      if (!(await this.refusalsPerIp.hit(call.ip))) throw await this.addressRefused(call.ip);
      await this.refused(row, 'webhook_token_invalid', call.ip, row ? 'wrong_access_token' : 'unknown_token');
      throw tokenRefused();
    }
    return row;
  }

  /**
   * Writes the file to a spool file first (its size must be known), then sends it through
   * the upload service chunk by chunk, so permission, volume, de-duplication and the
   * crash-safe write are the browser upload's own.
   */
  private async store(creator: UserRow, folderPath: string, upload: IncomingFile, ip: string): Promise<{ path: string; size: number }> {
    fs.mkdirSync(this.spoolDir, { recursive: true });
    const spool = path.join(this.spoolDir, newId());
    try {
      await this.access().require(creator, folderPath, 'CREATE');
      await pipeline(upload.file, fs.createWriteStream(spool));
      if (upload.truncated()) throw new AppError(413, 'payload_too_large_message');
      const size = fs.statSync(spool).size;
      if (size === 0) throw badRequest('multipart_file_empty');
      const totalChunks = chunkCountOf(size);
      const uploads = this.uploads();
      let answer;
      for (let chunkIndex = 0; chunkIndex < totalChunks; chunkIndex++) {
        // A file of that name already there gets the new content; the old one is kept as a version.
        const fields = {
          fileName: upload.fileName,
          path: folderPath,
          chunkIndex,
          totalChunks,
          isLastChunk: chunkIndex === totalChunks - 1,
          fileSize: size,
          onConflict: 'replace' as const,
        };
        const prepared = await uploads.prepare(creator, fields);
        const start = chunkIndex * CHUNK_SIZE;
        const end = Math.min(size, start + CHUNK_SIZE) - 1;
        const body = size === 0 ? Readable.from([]) : fs.createReadStream(spool, { start, end });
        answer = await uploads.receive(prepared, chunkOf(body), ip);
      }
      if (!answer?.file) throw new AppError(500, 'request_error_message');
      return { path: answer.file.path, size };
    } finally {
      fs.rmSync(spool, { force: true });
    }
  }

  /** Logs a call refused because its address had too many refused calls; answers the 429 to throw. */
  private async addressRefused(ip: string): Promise<AppError> {
    await this.refused(undefined, 'too_many_requests_message', ip);
    return tooMany();
  }

  /** Records a refused call: the webhook as its actor (an unknown token: no actor but the address), the reason key. */
  private refused(row: IncomingWebhookRow | undefined, reason: MessageKey, ip: string, detail?: string): Promise<void> {
    const actor: AuditActor = row ? webhookActor(row) : { kind: 'webhook', id: null, accountId: null, label: null };
    const target = row ? { kind: 'webhook' as const, id: row.id, path: row.path, label: row.title } : null;
    return this.audit.record({ action: 'webhook.refused', outcome: 'refused', reason, actor, target, params: detail ? { refusal: detail } : {}, ip });
  }
}

/** The audit actor of an incoming webhook's call: the webhook, on behalf of its creator. */
function webhookActor(row: IncomingWebhookRow): AuditActor {
  return { kind: 'webhook', id: row.id, accountId: row.user_id, label: row.title };
}

function refusalKey(error: unknown): MessageKey {
  return error instanceof AppError ? error.messageKey : 'request_error_message';
}

/** The access token of a call: `Authorization: Bearer <token>` or `X-Webhook-Token`. */
export function accessTokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7).trim();
  const header = headers['x-webhook-token'];
  return typeof header === 'string' ? header : undefined;
}
