import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import {
  createServer,
  IncomingMessage,
  type Server,
  ServerResponse,
  type ServerOptions,
} from 'node:http';
import type { Socket } from 'node:net';
import { withAuthMethod } from '../auth/auth-method';
import { responseHeadersOf } from '../common/http/response-headers';
import { SerializedJson } from '../common/http/serialized-json';
import type { RequestTimeouts } from '../config/http.config';

/**
 * How often Node looks for requests past their timeouts (default 30 s): a client is cut off at
 * most this long after its timeout. The check walks only the connections in mid-request. A
 * `createServer` option only (`ExpressHttpAdapter.initHttpServer`).
 */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * Bounds how long a client may take to send a request (http.config.ts `readRequestTimeouts`).
 * Past either timeout Node answers `408` with `Connection: close` and destroys the socket; once a
 * request has arrived, answering it is not bounded. Node compares them every
 * TIMEOUT_CHECK_INTERVAL_MS. The idle time between requests on a kept-alive connection is
 * `keepAliveTimeout`, left at Node's 5 s.
 */
export function limitRequestReceipt(server: Server, timeouts: RequestTimeouts): void {
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.headersTimeout = timeouts.headersTimeoutMs;
}

/**
 * Node's server classes for an Express app whose instances are born with Express's prototypes
 * (`app.request`, `app.response`). Express 5 otherwise gives every request and response its
 * prototypes afterwards, `Object.setPrototypeOf(req, app.request)` in `app.handle`; with these the
 * call finds the prototype already in place and changes nothing.
 *
 * Why it matters (`npm run bench:http-server`, docs/architecture.md, "Why hand-written"): with the prototypes
 * changed on every request, V8 promoted about a third of what a plain Express 5 hello allocated
 * to the old generation (32-33 % at 2,000 req/s, 2-3 full collections in 6 s); with these
 * classes 0.1 % and none, and the same hello served 21.7k instead of 7.7-8.0k req/s at 45 instead
 * of 132-142 µs of CPU a request. (A plain `node:http` hello promotes nothing; one that adds only
 * the two `setPrototypeOf` calls promotes 18 %.) In the service each full collection queued the
 * requests behind it for 40-80 ms, which is what the half-load p99 measured.
 */
export function expressServerClasses(
  app: Express,
): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  // Node's own constructors called on an object made with Express's prototype: `new` on these
  // functions makes `this` from their `prototype`. (`Reflect.construct(IncomingMessage, args,
  // ExpressRequest)` gives the same objects but served 27k instead of 123k hello requests in 5 s:
  // bench/README.md.)
  const init = constructorAsFunction(IncomingMessage);
  function ExpressRequest(this: IncomingMessage, socket: Socket): void {
    init.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  const initResponse = constructorAsFunction(ServerResponse);
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: unknown): void {
    initResponse.call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return {
    IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
    ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
  };
}

/**
 * Node's `IncomingMessage` and `ServerResponse` are plain constructor functions (Node 20), so
 * they can initialise an object made elsewhere. Were one ever an ES class, calling it would throw:
 * fail at start, loudly, rather than on the first request.
 */
function constructorAsFunction(
  ctor: typeof IncomingMessage | typeof ServerResponse,
): (this: unknown, ...args: unknown[]) => void {
  if (Function.prototype.toString.call(ctor).startsWith('class'))
    throw new Error(
      `node:http ${ctor.name} is a class in this Node version: update http-adapter.ts`,
    );
  return ctor as unknown as (this: unknown, ...args: unknown[]) => void;
}

/**
 * Nest's Express adapter with the HTTP server made by `expressServerClasses`. The options this
 * service does not use (HTTPS, return503OnClosing, forceCloseConnections) keep Nest's own server.
 * Its replies below 400 carry `authMethod` on a protected endpoint's object body (auth-method.ts)
 * and the headers the body was marked with (response-headers.ts); error envelopes are written by
 * ErrorEnvelopeFilter, not here.
 */
export class ExpressHttpAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const status = statusCode ?? response.statusCode;
    const headers = status < 400 ? responseHeadersOf(body) : undefined;
    if (headers) for (const [name, value] of Object.entries(headers)) response.set(name, value);
    const answer = status < 400 ? withAuthMethod(response.req, body) : body;
    if (answer instanceof SerializedJson) {
      // What res.json does with an object, minus JSON.stringify: the same header, the same bytes.
      if (statusCode) response.status(statusCode);
      if (!response.get('Content-Type')) response.set('Content-Type', 'application/json');
      return response.send(answer.text);
    }
    return super.reply(response, answer, statusCode);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections)
      return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      { ...expressServerClasses(app), connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
      app,
    );
  }
}
