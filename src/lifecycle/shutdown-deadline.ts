import { noticeOnStderr } from '../common/logging/line-writer';

/**
 * What the shutdown hooks after the drain may take (closing the database pool, Redis, the devnet
 * child, the last usage rows) before the process is ended regardless.
 */
export const SHUTDOWN_DEADLINE_MARGIN_MS = 5_000;

const SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** The longest a signalled shutdown may last: readiness delay, then drain, then the margin. */
export function shutdownDeadlineMs(config: {
  shutdownReadinessDelayMs: number;
  shutdownGraceMs: number;
}): number {
  return config.shutdownReadinessDelayMs + config.shutdownGraceMs + SHUTDOWN_DEADLINE_MARGIN_MS;
}

/**
 * SIGTERM (or SIGINT) always ends the process: Nest's shutdown hooks run as usual, and if they are
 * still waiting on something (a hung client, a database that stopped answering) when the deadline
 * passes, the process exits with code 1 and says so on stderr. The timer is unref'd: a shutdown
 * that finishes in time exits as before (Nest re-raises the signal). The listener removes itself
 * on the first signal so that re-raised signal keeps its default action (termination).
 */
export function armShutdownDeadline(config: {
  shutdownReadinessDelayMs: number;
  shutdownGraceMs: number;
}): void {
  const deadlineMs = shutdownDeadlineMs(config);
  const arm = (signal: NodeJS.Signals): void => {
    for (const s of SIGNALS) process.removeListener(s, arm);
    setTimeout(() => {
      noticeOnStderr(
        `Shutdown after ${signal} did not finish within ${deadlineMs} ms (SHUTDOWN_READINESS_DELAY_MS + SHUTDOWN_GRACE_MS + ${SHUTDOWN_DEADLINE_MARGIN_MS} ms): exiting now\n`,
      );
      process.exit(1);
    }, deadlineMs).unref();
  };
  for (const s of SIGNALS) process.on(s, arm);
}
