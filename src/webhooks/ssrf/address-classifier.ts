import { isIP } from 'node:net';

/** Why an address may not receive webhooks in production; null when it is a public address. */
export type BlockedRange =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'metadata'
  | 'multicast'
  | 'reserved'
  | 'unique-local'
  | 'not-an-ip';

type V4Rule = [network: number, prefix: number, range: BlockedRange];

/** IANA special-purpose IPv4 ranges a webhook must not reach (RFC 6890 and friends). */
const V4_RULES: V4Rule[] = [
  [v4('169.254.169.254'), 32, 'metadata'], // cloud metadata (before link-local: more precise)
  [v4('0.0.0.0'), 8, 'unspecified'], // "this network"
  [v4('10.0.0.0'), 8, 'private'], // RFC 1918
  [v4('100.64.0.0'), 10, 'cgnat'], // RFC 6598 shared address space
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'], // RFC 1918
  [v4('192.0.0.0'), 24, 'reserved'], // IETF protocol assignments
  [v4('192.0.2.0'), 24, 'reserved'], // TEST-NET-1
  [v4('192.88.99.0'), 24, 'reserved'], // 6to4 relay anycast
  [v4('192.168.0.0'), 16, 'private'], // RFC 1918
  [v4('198.18.0.0'), 15, 'reserved'], // benchmarking
  [v4('198.51.100.0'), 24, 'reserved'], // TEST-NET-2
  [v4('203.0.113.0'), 24, 'reserved'], // TEST-NET-3
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'], // includes 255.255.255.255
];

function v4(text: string): number {
  return text.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

function classifyV4(address: string): BlockedRange | null {
  const value = v4(address);
  for (const [network, prefix, range] of V4_RULES) {
    const size = 2 ** (32 - prefix);
    if (value >= network && value < network + size) return range;
  }
  return null;
}

/** The 8 groups of an IPv6 address (with an embedded dotted IPv4 tail converted). */
function v6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const value = v4(tail[1]);
    text =
      text.slice(0, -tail[1].length) +
      `${Math.floor(value / 65536).toString(16)}:${(value % 65536).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const left = parse(head);
  const right = parse(rest);
  if (rest === undefined) return left.length === 8 ? left : undefined;
  const missing = 8 - left.length - right.length;
  if (missing < 0) return undefined;
  return [...left, ...new Array<number>(missing).fill(0), ...right];
}

function classifyV6(address: string): BlockedRange | null {
  const g = v6Groups(address);
  if (!g || g.some((group) => Number.isNaN(group))) return 'not-an-ip';
  const embeddedV4 = `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  const zeroUpTo = (n: number) => g.slice(0, n).every((group) => group === 0);
  if (zeroUpTo(8)) return 'unspecified'; // ::
  if (zeroUpTo(7) && g[7] === 1) return 'loopback'; // ::1
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judged as the IPv4 address.
  if (zeroUpTo(5) && g[5] === 0xffff) return classifyV4(embeddedV4);
  if (zeroUpTo(6)) return classifyV4(embeddedV4);
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return classifyV4(embeddedV4);
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // fec0::/10, deprecated site-local
  if ((g[0] & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (g[0] === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return 'reserved'; // discard-only
  // 6to4 (2002::/16) embeds an IPv4 address in groups 1-2.
  if (g[0] === 0x2002) return classifyV4(`${g[1] >> 8}.${g[1] & 255}.${g[2] >> 8}.${g[2] & 255}`);
  if (g[0] === 0x2001 && g[1] === 0) return 'reserved'; // Teredo
  return null;
}

/**
 * Classifies an IP address literal: null for a public unicast address, otherwise the reason a
 * webhook must not be sent there (loopback, RFC 1918, CGNAT, link-local, cloud metadata, IPv6
 * ULA/link-local, and IPv4-mapped/NAT64/6to4 forms of those).
 */
export function blockedRangeOf(address: string): BlockedRange | null {
  const family = isIP(address);
  if (family === 4) return classifyV4(address);
  if (family === 6) return classifyV6(address);
  return 'not-an-ip';
}
