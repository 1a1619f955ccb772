import { write, writeSync } from 'node:fs';

export interface LineWriterOptions {
  /** Bytes (roughly: UTF-16 code units) gathered before a write. */
  minLength: number;
  /** Buffered lines are written at least this often. */
  flushIntervalMs: number;
  /** Past this many buffered characters (a reader that does not keep up), new lines are dropped. */
  maxBuffered: number;
  /** Where to say, once, that the stream broke (never throws). */
  notice: (text: string) => void;
  /** The stream's name in that notice. */
  name: string;
}

/** How long a synchronous flush may wait on a full pipe (EAGAIN) before it drops the rest. */
const SYNC_EAGAIN_BUDGET_MS = 500;
const SYNC_EAGAIN_PAUSE_MS = 10;

/**
 * Lines to a file descriptor through a buffer, written asynchronously when `minLength` is reached
 * and at least every `flushIntervalMs`. Written for a stdout whose reader may go away (a log
 * collector restarting, `| head`): the first write error other than EAGAIN (EPIPE, EBADF...)
 * closes the writer for good: what is buffered is dropped and counted, later lines are counted
 * and not written, and the notice says so once. Nothing here ever blocks on, retries or throws for
 * a broken stream. pino's own destination (sonic-boom) retries a failed synchronous flush every
 * 100 ms forever on EPIPE, which froze the event loop: boot, /health/live and SIGTERM with it.
 */
export class LineWriter {
  private pending: string[] = [];
  private pendingLength = 0;
  private writing = false;
  private timer?: NodeJS.Timeout;
  private closedBy?: string;
  private dropped = 0;

  constructor(
    private readonly fd: number,
    private readonly options: LineWriterOptions,
  ) {}

  /** Lines lost to a broken stream or a reader that did not keep up. */
  get droppedLines(): number {
    return this.dropped;
  }

  /** The error code that closed the stream, if it broke. */
  get closedReason(): string | undefined {
    return this.closedBy;
  }

  write(line: string): void {
    if (this.closedBy !== undefined || this.pendingLength >= this.options.maxBuffered) {
      this.dropped += 1;
      return;
    }
    this.pending.push(line);
    this.pendingLength += line.length;
    if (this.pendingLength >= this.options.minLength) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.options.flushIntervalMs).unref();
  }

  /** Starts an asynchronous write of what is buffered (one write at a time). */
  flush(): void {
    this.clearTimer();
    if (this.writing || this.pending.length === 0 || this.closedBy !== undefined) return;
    const lines = this.take();
    this.writing = true;
    this.writeAsync(Buffer.from(lines.join(''), 'utf8'), lines.length);
  }

  /**
   * Writes what is buffered now. Waits at most SYNC_EAGAIN_BUDGET_MS on a full pipe, then drops
   * the rest; an in-flight asynchronous write is left to finish on its own.
   */
  flushSync(): void {
    this.clearTimer();
    if (this.pending.length === 0 || this.closedBy !== undefined) return;
    const lines = this.take();
    let data = Buffer.from(lines.join(''), 'utf8');
    const deadline = Date.now() + SYNC_EAGAIN_BUDGET_MS;
    while (data.length > 0) {
      try {
        data = data.subarray(writeSync(this.fd, data));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'error';
        if (code === 'EAGAIN' && Date.now() < deadline) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SYNC_EAGAIN_PAUSE_MS);
          continue;
        }
        // Whole lines are not tracked inside a partial write: the unwritten batch counts as lost.
        this.dropped += lines.length;
        if (code !== 'EAGAIN') this.close(code);
        return;
      }
    }
  }

  private writeAsync(data: Buffer, lineCount: number): void {
    write(this.fd, data, 0, data.length, null, (err, written) => {
      if (err) {
        const code = err.code ?? 'error';
        if (code === 'EAGAIN') {
          // A full pipe: try again after the flush interval, never in a tight loop.
          setTimeout(() => this.writeAsync(data, lineCount), this.options.flushIntervalMs).unref();
          return;
        }
        this.writing = false;
        this.dropped += lineCount;
        this.close(code);
        return;
      }
      if (written < data.length) {
        this.writeAsync(data.subarray(written), lineCount);
        return;
      }
      this.writing = false;
      if (this.pendingLength >= this.options.minLength) this.flush();
      else if (this.pending.length > 0)
        this.timer ??= setTimeout(() => this.flush(), this.options.flushIntervalMs).unref();
    });
  }

  /** Stops writing for good after an error; safe to call more than once. */
  close(code: string): void {
    if (this.closedBy !== undefined) return;
    this.closedBy = code;
    this.dropped += this.pending.length;
    this.take();
    this.clearTimer();
    this.options.notice(
      `${this.options.name} failed (${code}): logging to it stopped, ${this.dropped} buffered line(s) dropped; later lines are dropped too\n`,
    );
  }

  private take(): string[] {
    const lines = this.pending;
    this.pending = [];
    this.pendingLength = 0;
    return lines;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Writes to stderr if it is still open; a closed stderr is silently ignored. */
export function noticeOnStderr(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    // Nobody left to tell.
  }
}
