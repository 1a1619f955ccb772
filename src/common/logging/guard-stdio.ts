import type { LineWriter } from './line-writer';

const writers = new Set<WeakRef<LineWriter>>();
let guarded = false;

/**
 * process.stdout and process.stderr emit 'error' when their reader has gone (EPIPE); with no
 * listener that is an uncaught exception that ends the service. The Ready line, Nest's logger
 * before the app's is set, and anything else printing through them must not take the process
 * down: an error there is swallowed, and the log writers on that descriptor stop as well
 * (they would find out on their next write anyway).
 */
export function guardStdio(stdoutWriter?: LineWriter): void {
  if (stdoutWriter) writers.add(new WeakRef(stdoutWriter));
  if (guarded) return;
  guarded = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    for (const ref of writers) ref.deref()?.close(err.code ?? 'error');
  });
  process.stderr.on('error', () => undefined);
}
