import dns from 'node:dns/promises';
import net from 'node:net';
import { isBlockedAddress } from './address-rules.js';

/** A webhook target that resolves (or points) to an address outgoing webhooks must not reach. */
export class TargetRefusedError extends Error {
  constructor(readonly target: string) {
    super(`target refused: ${target}`);
    this.name = 'TargetRefusedError';
  }
}

/** A checked target: the address to connect to, pinned, so a second DNS answer cannot differ. */
export interface PinnedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves a webhook URL and checks every address it resolves to. A host name an
 * administrator allowed (exactly as `URL.hostname` spells it) skips the address check;
 * an IP address never does, even if listed; anything else resolving to a blocked address
 * is refused. Only http and https.
 */
export async function checkTarget(raw: string | URL, allowedHosts: ReadonlySet<string>, resolve: Resolver = systemResolver): Promise<PinnedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefusedError(String(raw));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetRefusedError(url.href);
  if (url.username || url.password) throw new TargetRefusedError(url.href);
  const hostname = url.hostname.toLowerCase();
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = net.isIP(bare);
  // Only names are allowed past the address check; an address is always checked.
  const allowed = literal === 0 && allowedHosts.has(hostname);
  let addresses: { address: string; family: number }[];
  if (literal) {
    addresses = [{ address: bare, family: literal }];
  } else {
    try {
      addresses = await resolve(bare);
    } catch {
      throw new TargetRefusedError(url.href);
    }
  }
  if (addresses.length === 0) throw new TargetRefusedError(url.href);
  if (!allowed && addresses.some((a) => isBlockedAddress(a.address))) throw new TargetRefusedError(url.href);
  // IPv4 first when there is one: a dual-stack name then reaches the listener most services have.
  const first = addresses.find((a) => a.family === 4) ?? addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
