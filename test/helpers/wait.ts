export interface PollOptions {
  /** Give up after this long (default 5 s). */
  timeoutMs?: number;
  /** Pause between probes (default 20 ms). */
  intervalMs?: number;
}

/**
 * Probes until `done(value)` holds and returns that value; past the timeout it throws, naming
 * `what` and the last value seen. For state with no event to wait on (a row written in the
 * background, a reconnecting client): never a fixed sleep.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 5_000, intervalMs = 20 }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() >= deadline)
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}; last: ${String(value)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
