import { setFlagsFromString } from 'node:v8';
import { requestState } from './request-state';

setFlagsFromString('--allow-natives-syntax');
// V8's own test hook: whether an object still has fast (hidden-class) properties.
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (
  o: object,
) => boolean;

/**
 * An object shaped like an Express request: made by a constructor that sets nothing itself (few
 * in-object slots), then given 30 properties by name, as Node, Express and Nest add theirs.
 */
const requestLike = new Function(`
  function Request() {}
  const req = new Request();
  ${Array.from({ length: 30 }, (_, i) => `req.n${i} = ${i};`).join(' ')}
  return req;
`) as () => Record<string, unknown>;

describe('requestState', () => {
  const state = requestState<{ limit: number }>('rateLimit');

  it('hands the guard’s value to the handler', () => {
    const req = requestLike();
    expect(state.read(req)).toBeUndefined();
    state.attach(req, { limit: 60 });
    expect(state.read(req)).toEqual({ limit: 60 });
    expect(requestState('quota').read(req)).toBeUndefined();
  });

  // The reason for the holder object (request-state.ts): a keyed store on such an object turns it
  // into a dictionary, with a new hidden class in the old generation about half the time.
  it('keeps the request in fast mode, where a keyed store of the same value would not', () => {
    expect(hasFastProperties(requestLike())).toBe(true);
    const kept = requestLike();
    state.attach(kept, { limit: 60 });
    requestState('quota').attach(kept, { used: 1 });
    requestState('other').attach(kept, {});
    expect(hasFastProperties(kept)).toBe(true);

    // V8 normalizes on the keyed store that finds the property array full (it grows by three).
    const keyed = requestLike();
    for (const property of ['rateLimit', 'quota', 'other']) keyed[property] = {};
    expect(hasFastProperties(keyed)).toBe(false);
  });
});
