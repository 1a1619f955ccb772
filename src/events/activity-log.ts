import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { ActivityEvent, RecordedActivity } from './activity-event';

/** A consumer of recorded activity that writes inside the caller's transaction. */
export interface ActivitySink {
  readonly name: string;
  write(event: RecordedActivity, manager: EntityManager): Promise<void>;
}

/**
 * The one place call sites record what happened. Sinks (the audit trail, the webhook outbox)
 * register themselves at start; each writes with the EntityManager it is given, so an event
 * passed the transaction of the change that caused it commits or rolls back with that change.
 */
@Injectable()
export class ActivityLog {
  private readonly sinks: ActivitySink[] = [];

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  addSink(sink: ActivitySink): void {
    if (!this.sinks.some((existing) => existing.name === sink.name)) this.sinks.push(sink);
  }

  /**
   * Records `event` with every sink: within `manager`'s transaction when one is given, otherwise
   * in a transaction of its own (all sinks or none).
   */
  async record(event: ActivityEvent, manager?: EntityManager): Promise<RecordedActivity> {
    const recorded: RecordedActivity = { ...event, id: randomUUID(), at: new Date() };
    if (this.sinks.length === 0) return recorded;
    if (manager) {
      await this.writeAll(recorded, manager);
    } else {
      await this.dataSource.transaction((tx) => this.writeAll(recorded, tx));
    }
    return recorded;
  }

  private async writeAll(event: RecordedActivity, manager: EntityManager): Promise<void> {
    for (const sink of this.sinks) await sink.write(event, manager);
  }
}
