import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from '../ssrf/url-policy';

export interface SendRequest {
  url: string;
  /** The addresses the URL policy checked: the socket connects to these and nothing else. */
  addresses: ResolvedAddress[];
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export interface SendOutcome {
  /** null when no response arrived (connection error, timeout). */
  statusCode: number | null;
  durationMs: number;
  /** Why it is not a success, short and free of response bodies; null on 2xx. */
  error: string | null;
}

const USER_AGENT = 'compliance-defi-builder-webhooks/1';

/**
 * One POST. The connection goes to the pre-checked addresses (a `lookup` that answers them), so a
 * name re-resolving to a private address between the check and the connect (DNS rebinding) cannot
 * redirect it; TLS still verifies the certificate for the URL's hostname. Redirects are never
 * followed (3xx is a failure); the response body is read and discarded, at most 64 KiB.
 */
export function sendWebhook(request: SendRequest): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(request.url);
  if (request.addresses.length === 0)
    return Promise.resolve({
      statusCode: null,
      durationMs: 0,
      error: 'the hostname does not resolve',
    });
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const candidates = request.addresses.filter((a) => !wanted || a.family === wanted);
    const list = candidates.length > 0 ? candidates : request.addresses;
    if (options.all) (callback as (e: null, all: ResolvedAddress[]) => void)(null, list);
    else callback(null, list[0].address, list[0].family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const req = transport.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(request.body)),
          'user-agent': USER_AGENT,
        },
        signal: AbortSignal.timeout(request.timeoutMs),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > 65_536) res.destroy();
        });
        const done = () =>
          finish({
            statusCode: status,
            error:
              status >= 200 && status < 300
                ? null
                : status >= 300 && status < 400
                  ? `redirect ${status} not followed`
                  : `HTTP ${status}`,
          });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        statusCode: null,
        error:
          error.name === 'AbortError' || error.name === 'TimeoutError'
            ? `no response within ${request.timeoutMs} ms`
            : (error.code ?? error.message).slice(0, 200),
      }),
    );
    req.end(request.body);
  });
}
