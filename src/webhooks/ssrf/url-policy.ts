import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { blockedRangeOf } from './address-classifier';

export interface UrlPolicy {
  /** Production: https only, and every resolved address must be public. */
  production: boolean;
  /** Hostnames exempt from the address rules (WEBHOOK_ALLOWED_HOSTS), lower case. */
  allowedHosts: readonly string[];
  /** A name not resolved within this long is treated as not resolving (WEBHOOK_DNS_TIMEOUT_MS). */
  dnsTimeoutMs?: number;
}

/** When no dnsTimeoutMs is given (the config's default). */
export const DEFAULT_DNS_TIMEOUT_MS = 2_000;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * One lookup in flight per name: callers asking while one is unanswered share it. dns.lookup
 * (which honours /etc/hosts, e.g. `localhost`) runs on the libuv threadpool shared with argon2, and
 * a timeout abandons the wait, not the thread: without this, a black-hole name would take one more
 * thread at every delivery attempt.
 */
export function coalescing(resolve: Resolver): Resolver {
  const inFlight = new Map<string, Promise<ResolvedAddress[]>>();
  return (hostname) => {
    let pending = inFlight.get(hostname);
    if (!pending) {
      pending = resolve(hostname).finally(() => inFlight.delete(hostname));
      inFlight.set(hostname, pending);
    }
    return pending;
  };
}

export const systemResolver: Resolver = coalescing(async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  })),
);

/** `resolve(hostname)`, or an ETIMEOUT error once `timeoutMs` have passed. */
export function resolveWithin(
  resolve: Resolver,
  hostname: string,
  timeoutMs: number,
): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`DNS lookup of ${hostname} took over ${timeoutMs} ms`), {
            code: 'ETIMEOUT',
          }),
        ),
      timeoutMs,
    );
  });
  return Promise.race([resolve(hostname), timeout]).finally(() => clearTimeout(timer));
}

/** Why a URL is refused (the API error's message), or the addresses it may be sent to. */
export type UrlVerdict = { ok: true; addresses: ResolvedAddress[] } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

/** `[::1]` -> `::1`: URL keeps the brackets of an IPv6 literal. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/**
 * The URL rules, applied at registration and again before every delivery (after DNS, so a name
 * that starts resolving to a private address is refused then): http(s) only, no credentials;
 * EVERY address the name resolves to must be public. Production also requires https. Demo mode
 * (a test network) allows http and loopback (127.0.0.0/8, ::1, `localhost`) for local testing,
 * and nothing else that is not public (private, CGNAT, link-local, metadata stay refused).
 * WEBHOOK_ALLOWED_HOSTS exempts a name from the address and https rules in both modes, except
 * the cloud metadata address, which is never reachable.
 */
export async function checkWebhookUrl(
  text: string,
  policy: UrlPolicy,
  resolve: Resolver = systemResolver,
): Promise<UrlVerdict> {
  if (text.length > MAX_URL_LENGTH)
    return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'it is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: `${url.protocol} URLs are not allowed (https only)` };
  if (url.username || url.password)
    return { ok: false, reason: 'the URL must not carry credentials (user:password@)' };
  const hostname = bareHostname(url);
  const exempt = policy.allowedHosts.includes(hostname);
  if (policy.production && url.protocol !== 'https:' && !exempt)
    return { ok: false, reason: 'production mode sends webhooks over https only' };
  let addresses: ResolvedAddress[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolveWithin(
        resolve,
        hostname,
        policy.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS,
      );
    } catch (error) {
      // A test network may register a name it cannot resolve yet; each delivery checks again.
      if (!policy.production) return { ok: true, addresses: [] };
      return {
        ok: false,
        reason: `${hostname} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})`,
      };
    }
  }
  if (addresses.length === 0)
    return policy.production
      ? { ok: false, reason: `${hostname} does not resolve` }
      : { ok: true, addresses };
  for (const { address } of addresses) {
    const range = blockedRangeOf(address);
    if (range === null) continue;
    if (exempt && range !== 'metadata') continue;
    if (!policy.production && range === 'loopback') continue;
    return {
      ok: false,
      reason: `${hostname} resolves to ${address}, a ${range} address webhooks may not reach`,
    };
  }
  return { ok: true, addresses };
}
