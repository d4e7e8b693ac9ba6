import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_HEADERS } from '@bogwan/contracts';
import { checkTarget, type PinnedTarget, type Resolver } from './target-guard.js';

/** Longest silence on the socket. */
const TIMEOUT_MS = 10_000;
/**
 * Longest attempt, all hops and the answer included. Well inside the delivery lease, so
 * a slow target (one that trickles its answer) cannot keep an attempt alive until the
 * lease ends and another sender claims the same delivery.
 */
export const ATTEMPT_DEADLINE_MS = 15_000;
const MAX_REDIRECTS = 3;
/** Response bytes read (and dropped) at most; the status is what counts. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** `t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<body>">`, the signature header's value. */
export function signatureOf(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export interface Delivery {
  id: string;
  /** The event's id: the same on every attempt and for every webhook the event goes to. */
  eventId: string;
  event: string;
  url: string;
  secret: string;
  body: string;
}

export interface SendOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/**
 * Sends one signed delivery. Every hop is checked (the first URL and each redirect) and
 * the connection goes to the address that was checked: the lookup is pinned, so a DNS
 * answer that changes between check and connect cannot lead elsewhere. Redirects are
 * followed (at most 3) only to targets that pass the same check. An attempt that runs
 * past `deadlineMs` is aborted (its request destroyed) and counts as failed.
 */
export async function sendDelivery(
  delivery: Delivery,
  allowedHosts: ReadonlySet<string>,
  resolve?: Resolver,
  deadlineMs = ATTEMPT_DEADLINE_MS,
): Promise<SendOutcome> {
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<SendOutcome>((settle) => {
    timer = setTimeout(() => {
      deadline.abort();
      settle({ ok: false, status: null, error: 'timed out' });
    }, deadlineMs);
  });
  try {
    return await Promise.race([attempt(delivery, allowedHosts, resolve, deadline.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function attempt(delivery: Delivery, allowedHosts: ReadonlySet<string>, resolve: Resolver | undefined, signal: AbortSignal): Promise<SendOutcome> {
  let target: PinnedTarget;
  try {
    target = await checkTarget(delivery.url, allowedHosts, resolve);
  } catch {
    return { ok: false, status: null, error: 'target refused' };
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let answer: { status: number; location: string | undefined };
    try {
      answer = await post(target, delivery, signal);
    } catch (error) {
      return { ok: false, status: null, error: error instanceof Error ? error.message.slice(0, 300) : 'request failed' };
    }
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      try {
        target = await checkTarget(new URL(answer.location, target.url), allowedHosts, resolve);
      } catch {
        return { ok: false, status: answer.status, error: 'redirect target refused' };
      }
      continue;
    }
    const ok = answer.status >= 200 && answer.status < 300;
    return { ok, status: answer.status, error: ok ? null : `answered ${answer.status}` };
  }
  return { ok: false, status: null, error: 'too many redirects' };
}

function post(target: PinnedTarget, delivery: Delivery, signal: AbortSignal): Promise<{ status: number; location: string | undefined }> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const signature = signatureOf(delivery.secret, delivery.body, Math.floor(Date.now() / 1000));
  const client = target.url.protocol === 'https:' ? https : http;
  const bareHost = target.url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const request = client.request(
      target.url,
      {
        method: 'POST',
        // An IP literal is connected to as it is; a name goes through the pinned lookup.
        ...(bareHost === target.address ? {} : { lookup }),
        timeout: TIMEOUT_MS,
        signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(delivery.body),
          'user-agent': 'Bogwan-Webhook/1',
          [WEBHOOK_HEADERS.signature]: signature,
          [WEBHOOK_HEADERS.event]: delivery.event,
          [WEBHOOK_HEADERS.delivery]: delivery.id,
          [WEBHOOK_HEADERS.idempotencyKey]: delivery.eventId,
        },
      },
      (response) => {
        let seen = 0;
        response.on('data', (piece: Buffer) => {
          seen += piece.length;
          if (seen > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('close', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }));
        response.on('error', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(delivery.body);
  });
}
