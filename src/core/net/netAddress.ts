/**
 * Which network addresses a page may make the extension fetch from. A URL in a reply or an article is written by
 * the service (or by whatever it quotes), so fetching it must never reach the user's own machine or network:
 * loopback, private, link-local, unspecified, multicast and reserved ranges are refused. IPv4 is also recognised
 * inside IPv6 (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96` and 6to4 `2002::/16`),
 * since each of those ends up at the embedded IPv4 address.
 */

/** IPv4 ranges that are not the public internet, as [first octets, prefix length]. */
const IPV4_FORBIDDEN: readonly [number[], number][] = [
  [[0], 8], // "this" network; 0.0.0.0 reaches the local machine
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT (shared address space)
  [[127], 8], // loopback
  [[169, 254], 16], // link-local (cloud metadata services live here)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[224], 4], // multicast
  [[240], 4], // reserved, and the broadcast address
];

/** IPv6 ranges that are not the public internet, as [first bytes, prefix length]. */
const IPV6_FORBIDDEN: readonly [number[], number][] = [
  [[0xfc], 7], // unique local (private)
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local (deprecated, still private)
  [[0xff], 8], // multicast
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64], // discard-only
  [[0x20, 0x01, 0x00, 0x00], 32], // Teredo: the IPv4 inside is obfuscated, and may be any
  [[0x00, 0x64, 0xff, 0x9b], 32], // NAT64 beyond the well-known /96 (64:ff9b:1::/48 is for local use)
];

/** Whether `bytes` start with the `prefix` bits of `net`. */
function inRange(bytes: number[], net: number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[byte] & mask) !== ((net[byte] ?? 0) & mask)) {
      return false;
    }
  }
  return true;
}

/** The four bytes of a dotted IPv4 address, or undefined when it is not one. */
export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) {
    return undefined;
  }
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

/** The sixteen bytes of an IPv6 address (a zone `%eth0` and brackets allowed), or undefined. */
export function parseIpv6(text: string): number[] | undefined {
  let rest = text.replace(/^\[|\]$/g, '');
  const zone = rest.indexOf('%');
  rest = zone === -1 ? rest : rest.slice(0, zone);
  let tail: number[] = [];
  const lastColon = rest.lastIndexOf(':');
  if (lastColon >= 0 && rest.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(rest.slice(lastColon + 1));
    if (!v4) {
      return undefined;
    }
    tail = v4;
    rest = `${rest.slice(0, lastColon + 1)}0:0`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) {
    return undefined;
  }
  const groups = (part: string) => (part ? part.split(':') : []);
  const head = groups(halves[0]);
  const back = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - back.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) {
    return undefined;
  }
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...back];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) {
    return undefined;
  }
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
  if (tail.length) {
    bytes.splice(12, 4, ...tail);
  }
  return bytes;
}

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(bytes: number[]): number[] | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return bytes.slice(12); // ::ffff:a.b.c.d
  }
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) {
    return bytes.slice(12); // ::ffff:0:a.b.c.d (IPv4-translated, SIIT)
  }
  if (zeros(0, 12) && !zeros(12, 15)) {
    return bytes.slice(12); // ::a.b.c.d (deprecated "compatible" form); :: and ::1 are handled apart
  }
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) {
    return bytes.slice(12); // 64:ff9b::a.b.c.d (NAT64)
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    return bytes.slice(2, 6); // 2002:aabb:ccdd::/48 (6to4)
  }
  return undefined;
}

function ipv4Forbidden(bytes: number[]): boolean {
  return IPV4_FORBIDDEN.some(([net, prefix]) => inRange(bytes, net, prefix));
}

/**
 * Whether an IP address (IPv4 or IPv6 text, as DNS or a URL gives it) is one a fetch on the page's behalf must
 * not reach: loopback, private, link-local and the other non-public ranges. Text that is not an address counts
 * as forbidden, so a parsing gap can only refuse, never allow.
 */
export function isForbiddenAddress(address: string): boolean {
  const v4 = parseIpv4(address);
  if (v4) {
    return ipv4Forbidden(v4);
  }
  const v6 = parseIpv6(address);
  if (!v6) {
    return true;
  }
  if (v6.slice(0, 15).every((b) => b === 0) && v6[15] <= 1) {
    return true; // :: (unspecified) and ::1 (loopback)
  }
  const inner = embeddedIpv4(v6);
  if (inner) {
    return ipv4Forbidden(inner);
  }
  return IPV6_FORBIDDEN.some(([net, prefix]) => inRange(v6, net, prefix));
}

/** The host of a URL as an IP address text (brackets removed), or undefined when it is a name. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return parseIpv4(host) || parseIpv6(host) ? host : undefined;
}
