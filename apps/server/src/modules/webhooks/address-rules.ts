import net from 'node:net';

/**
 * Which addresses an outgoing webhook may never reach: loopback, private, link-local,
 * cloud metadata, carrier-grade NAT, multicast, reserved and documentation ranges, in
 * IPv4 and IPv6, including IPv6 forms that carry an IPv4 address (IPv4-mapped
 * `::ffff:0:0/96`, IPv4-compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`).
 */

const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT (and some clouds' metadata)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

function v4ToNumber(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const V4_RANGES = BLOCKED_V4.map(([base, bits]) => ({ start: v4ToNumber(base), size: 2 ** (32 - bits) }));

function isBlockedV4Number(value: number): boolean {
  return V4_RANGES.some((range) => value >= range.start && value < range.start + range.size);
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted quad read). */
export function parseV6(address: string): number[] | null {
  let text = address.replace(/^\[|\]$/g, '').split('%')[0]!.toLowerCase();
  const quad = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (quad) {
    const bytes = quad.slice(1).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    text = `${text.slice(0, quad.index)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail].map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return groups.some(Number.isNaN) ? null : groups;
}

function embeddedV4(high: number, low: number): number {
  return high * 65536 + low;
}

function isBlockedV6(groups: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  // ::/96 (unspecified, loopback, IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped).
  if (firstFiveZero && (g5 === 0 || g5 === 0xffff)) return g5 === 0 && g6 === 0 && g7 <= 1 ? true : isBlockedV4Number(embeddedV4(g6, g7));
  // ::ffff:0:a.b.c.d (IPv4-translated).
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return isBlockedV4Number(embeddedV4(g6, g7));
  // NAT64: the well-known prefix carries an IPv4 address; the local-use prefix is never public.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isBlockedV4Number(embeddedV4(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true;
  // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
  if (g0 === 0x2002) return isBlockedV4Number(embeddedV4(g1, g2));
  if (g0 === 0x2001 && g1 === 0) return true; // Teredo: carries an obfuscated IPv4 address
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // documentation
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard-only
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local (incl. fd00:ec2::254 metadata)
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/** True when an IP address (v4 or v6, bracketed or not) must not be a webhook target. Unparseable is blocked. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(bare)) return isBlockedV4Number(v4ToNumber(bare));
  const groups = parseV6(bare);
  return groups === null ? true : isBlockedV6(groups);
}
