import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How far V8 lets the old generation grow past what is live before its next full collection.
 * Left to itself V8 picks a factor of up to 4x, and before the first full collection its limit is
 * far above anything this service holds: under load, requests that outlive two scavenges are
 * promoted, and the heap grew from ~70 MB live to 450-500 MB of RSS before a compaction
 * (docs/architecture.md, "Why hand-written"). `percent` fixes the factor at 1 + percent/100; 0 keeps V8's own.
 * Called before the application is built.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * One full collection once the service is up: start-up garbage goes, and the old generation's
 * next limit is computed from what is live (times the growing factor above) instead of V8's
 * initial limit. A few tens of ms, once, before the first request.
 */
export function settleHeap(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
