import type { ServerResponse } from 'node:http';

const HOOKS = Symbol('responseEndHooks');

type Hooked = ServerResponse & { [HOOKS]?: Array<() => void> };

/**
 * Calls `done` once when the response ends: written in full ('finish'), or the connection closed
 * first ('close'; then `res.writableFinished` is false). The in-flight count, the usage meter and
 * the request log all hang off this one hook: the first caller adds one 'finish' and one 'close'
 * listener, later callers join its list, and the list runs in the order the callers came, once.
 * (One listener pair per response instead of one per caller; docs/architecture.md, "Why hand-written".)
 */
export function whenResponseEnds(res: ServerResponse, done: () => void): void {
  const hooked = res as Hooked;
  const waiting = hooked[HOOKS];
  if (waiting) {
    waiting.push(done);
    return;
  }
  const hooks = [done];
  hooked[HOOKS] = hooks;
  const end = () => {
    if (hooked[HOOKS] !== hooks) return;
    hooked[HOOKS] = undefined;
    for (const hook of hooks) hook();
  };
  res.on('finish', end);
  res.on('close', end);
}
