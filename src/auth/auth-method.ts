import { StreamableFile } from '@nestjs/common';
import { SerializedJson } from '../common/http/serialized-json';
import { principalOf } from './principal';

/**
 * A successful object body of a protected endpoint, with `authMethod` (api_key | jwt) first
 * (spec §5.6); anything else as it is: no caller (public routes), arrays, buffers, files.
 *
 * Applied by the HTTP adapter as it replies (bootstrap/http-adapter.ts), not by a global Nest
 * interceptor: any interceptor makes Nest run the route through an RxJS pipeline with two
 * AsyncResources and a client-disconnect watch, which cost 19 % of a defi config request's CPU and
 * 13 % of a swap build's (docs/architecture.md, "Why hand-written").
 */
export function withAuthMethod(req: unknown, body: unknown): unknown {
  const principal = principalOf(req);
  if (principal && body instanceof SerializedJson)
    return body.withFirstField('authMethod', principal.method);
  if (
    !principal ||
    body === null ||
    typeof body !== 'object' ||
    Array.isArray(body) ||
    Buffer.isBuffer(body) ||
    body instanceof StreamableFile ||
    (body as { [BARE_BODY]?: true })[BARE_BODY]
  )
    return body;
  return { authMethod: principal.method, ...body };
}

const BARE_BODY = Symbol('bare body');

/**
 * Marks a body to be sent exactly as it is, without `authMethod`: an object defined by another
 * standard that its consumers validate strictly (EIP-5792 wallet_sendCalls parameters). The mark
 * is a symbol, so it is not serialized.
 */
export function bareBody<T extends object>(body: T): T {
  return Object.defineProperty(body, BARE_BODY, { value: true, enumerable: false });
}
