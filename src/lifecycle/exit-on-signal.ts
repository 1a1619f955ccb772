import type { INestApplication } from '@nestjs/common';
import { noticeOnStderr } from '../common/logging/line-writer';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * SIGTERM or SIGINT closes the app (readiness 503, drain, shutdown hooks) and then exits 0: a
 * drain is the orchestrator's normal stop, and ending by the re-raised signal (Nest's
 * enableShutdownHooks) gave exit code 143, which supervisors and CI count as a failure. A close
 * that throws exits 1 and says why; one that hangs is ended by armShutdownDeadline. `afterClose`
 * runs last (the spans still buffered are sent).
 */
export function exitCleanlyOnSignals(
  app: INestApplication,
  afterClose: () => Promise<void> = () => Promise.resolve(),
): void {
  const stop = (signal: NodeJS.Signals): void => {
    for (const s of SIGNALS) process.removeListener(s, stop);
    app
      .close()
      .then(() => afterClose().catch(() => undefined))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          noticeOnStderr(`Shutdown after ${signal} failed: ${(error as Error).message}\n`);
          process.exit(1);
        },
      );
  };
  for (const s of SIGNALS) process.on(s, stop);
}
