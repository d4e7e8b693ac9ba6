import net from 'node:net';

/**
 * Which addresses an outgoing webhook may never reach: loopback, private, link-local,
 * cloud metadata, carrier-grade NAT, multicast, reserved and documentation ranges, in
 * IPv4 and IPv6, including IPv6 forms that carry an IPv4 address (IPv4-mapped
 * `::ffff:0:0/96`, IPv4-compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`).
 * Range membership is Node's `net.BlockList`; only the carried IPv4 address is read here.
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

const BLOCKED_V6: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // NAT64 local use: never public
  ['2001::', 32], // Teredo: carries an obfuscated IPv4 address
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard-only
  ['fc00::', 7], // unique local (incl. fd00:ec2::254 metadata)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
];

const blocked = new net.BlockList();
for (const [base, bits] of BLOCKED_V4) blocked.addSubnet(base, bits, 'ipv4');
for (const [base, bits] of BLOCKED_V6) blocked.addSubnet(base, bits, 'ipv6');

/** IPv6 prefixes whose addresses carry an IPv4 address, and which 16-bit group it starts at. */
const CARRIERS: { prefix: net.BlockList; group: number }[] = [
  { prefix: subnet('::', 96), group: 6 }, // IPv4-compatible
  { prefix: subnet('::ffff:0:0', 96), group: 6 }, // IPv4-mapped
  { prefix: subnet('::ffff:0:0:0', 96), group: 6 }, // IPv4-translated
  { prefix: subnet('64:ff9b::', 96), group: 6 }, // NAT64 well-known prefix
  { prefix: subnet('2002::', 16), group: 1 }, // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD
];

function subnet(base: string, bits: number): net.BlockList {
  const list = new net.BlockList();
  list.addSubnet(base, bits, 'ipv6');
  return list;
}

/**
 * The eight 16-bit groups of an IPv6 address, or null when it is not one. The WHATWG URL
 * parser validates it and writes it canonically (hex groups only, one `::`), which is then
 * only a matter of filling the `::` back in.
 */
function groupsOf(address: string): number[] | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', tail] = canonical.split('::');
  const known = [head, tail ?? ''].map((part) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []));
  return [...known[0]!, ...Array<number>(8 - known[0]!.length - known[1]!.length).fill(0), ...known[1]!];
}

/** True when an IP address (v4 or v6, bracketed or not, with or without a zone id) must not be a webhook target. Unparseable is blocked. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (net.isIPv4(bare)) return blocked.check(bare, 'ipv4');
  const groups = net.isIPv6(bare) ? groupsOf(bare) : null;
  if (groups === null) return true;
  if (blocked.check(bare, 'ipv6')) return true;
  const carrier = CARRIERS.find(({ prefix }) => prefix.check(bare, 'ipv6'));
  if (!carrier) return false;
  const high = groups[carrier.group]!;
  const low = groups[carrier.group + 1]!;
  return blocked.check([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'), 'ipv4');
}
