// SSRF guard for webhook targets. A URL is refused when its host resolves to a private,
// loopback, link-local or otherwise non-public address, unless configuration allows private
// targets (webhooks.allowPrivateTargets; on by default only in development and test). The check
// looks at the resolved addresses, never the name alone, and runs twice: at registration (a clear
// 422) and at every delivery, inside the socket's own DNS lookup, so the address that is checked
// is the address that is connected to (a name re-pointed at 127.0.0.1 later is still refused).
import dns from 'node:dns';
import net from 'node:net';

export class BlockedTargetError extends Error {
  override name = 'BlockedTargetError';
}

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/** The IPv4 address embedded in an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const high = parseInt(sixToFour[1]!, 16);
    const low = parseInt(sixToFour[2]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

/** True for addresses a webhook must not reach without allowPrivateTargets. */
export function isNonPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return blocked.check(inner, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true; // not an address at all
}

/** The URL's host as an address or a name ([::1] → ::1). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Parses and checks the scheme; the message is for a 422. */
export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedTargetError('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedTargetError('must be an http or https URL');
  if (!url.hostname) throw new BlockedTargetError('must name a host');
  return url;
}

function refuse(host: string, address: string): never {
  throw new BlockedTargetError(
    host === address
      ? `${address} is a private, loopback or link-local address; webhooks may not target it (webhooks.allowPrivateTargets)`
      : `${host} resolves to ${address}, a private, loopback or link-local address; webhooks may not target it (webhooks.allowPrivateTargets)`,
  );
}

/** Registration-time check: every address the host resolves to must be public. */
export async function assertPublicTarget(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = hostOf(url);
  if (net.isIP(host)) {
    if (isNonPublicAddress(host)) refuse(host, host);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new BlockedTargetError(`${host} does not resolve`);
  }
  if (addresses.length === 0) throw new BlockedTargetError(`${host} does not resolve`);
  const bad = addresses.find((a) => isNonPublicAddress(a.address));
  if (bad) refuse(host, bad.address);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves like dns.lookup and fails when any resolved address
 * is non-public: the connection can only go to an address that passed the check.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const bad = addresses.find((a) => isNonPublicAddress(a.address));
    if (bad) {
      const blockedError = new BlockedTargetError(
        `${hostname} resolves to ${bad.address}, a private, loopback or link-local address; webhooks may not target it (webhooks.allowPrivateTargets)`,
      ) as NodeJS.ErrnoException;
      blockedError.code = 'EBLOCKEDTARGET';
      return callback(blockedError, '');
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '');
    return callback(null, first.address, first.family);
  });
}
