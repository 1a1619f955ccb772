/**
 * Headers an answer carries for the HTTP adapter to set as it replies (bootstrap/http-adapter.ts):
 * a build's `X-Receipt-Id`, which its EIP-5792 answer has no room for. Held under a symbol that is
 * not enumerable, so they are never serialized; set by the adapter rather than by `@Res()` in
 * each controller or by an interceptor (auth-method.ts says what an interceptor costs).
 */
const RESPONSE_HEADERS = Symbol('response headers');

type WithHeaders = { [RESPONSE_HEADERS]?: Readonly<Record<string, string>> };

/** Marks `body` to be answered with `headers` (on a success status only). */
export function withResponseHeaders<T extends object>(
  body: T,
  headers: Readonly<Record<string, string>>,
): T {
  return Object.defineProperty(body, RESPONSE_HEADERS, { value: headers, enumerable: false });
}

/** The headers `withResponseHeaders` gave `body`, if any. */
export function responseHeadersOf(body: unknown): Readonly<Record<string, string>> | undefined {
  return body !== null && typeof body === 'object'
    ? (body as WithHeaders)[RESPONSE_HEADERS]
    : undefined;
}
