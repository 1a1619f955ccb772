import type { ServerResponse } from 'node:http';

/**
 * Calls `done` once when the response ends: written in full ('finish'), or the connection closed
 * first ('close'; then `res.writableFinished` is false). The in-flight count, the usage meter and
 * the request log all hang off this one hook.
 */
export function whenResponseEnds(res: ServerResponse, done: () => void): void {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    done();
  };
  res.once('finish', once);
  res.once('close', once);
}
