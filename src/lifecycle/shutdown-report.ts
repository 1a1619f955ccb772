import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';

/**
 * The shutdown's one summary line (`service.stopped`): what each part drained on the way out
 * (in-flight requests, webhook deliveries, usage rows, the revocations still owed), noted by the
 * parts themselves while they drain, logged once the last hook has run. A drain that cut work off
 * says so here, not only in its own line.
 */
@Injectable()
export class ShutdownReport implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private readonly facts: Record<string, unknown> = {};
  private readonly phrases: string[] = [];
  private startedAt?: number;

  /** The shutdown started (readiness turned 503). */
  begin(): void {
    this.startedAt ??= Date.now();
  }

  /** What one part drained: a fact for the JSON line, and the words for its message. */
  note(key: string, value: unknown, phrase: string): void {
    this.facts[key] = value;
    this.phrases.push(phrase);
  }

  onApplicationShutdown(signal?: string): void {
    const ms = this.startedAt === undefined ? undefined : Date.now() - this.startedAt;
    this.logger.log(
      { event: 'service.stopped', signal: signal ?? null, shutdownMs: ms, ...this.facts },
      `shut down${signal ? ` after ${signal}` : ''}${ms === undefined ? '' : ` in ${ms} ms`}: ${this.phrases.join('; ') || 'nothing was in flight'}`,
    );
  }
}
