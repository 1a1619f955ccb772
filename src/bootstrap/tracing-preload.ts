import { tracingRequested } from './tracing-switch';

/**
 * Imported first by main.ts: when tracing is requested (tracing-switch.ts) the SDK starts here,
 * before Express, pg, ioredis and undici are loaded, so that its instrumentations can patch them.
 * When it is not, this file loads nothing else.
 */
let shutdown: () => Promise<void> = () => Promise.resolve();

if (tracingRequested(process.env)) {
  /* eslint-disable-next-line @typescript-eslint/no-require-imports */
  const { startTracing } = require('./tracing') as typeof import('./tracing');
  shutdown = startTracing();
}

/** Sends the spans still buffered (called once the app has closed). */
export function flushTraces(): Promise<void> {
  return shutdown();
}
