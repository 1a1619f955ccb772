import { Injectable } from '@nestjs/common';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Clears one feature's rows about the old chain; returns how many it cleared. */
export type ChainResetHandler = (manager: EntityManager) => Promise<number>;

/**
 * The features that keep rows about the chain's state (relayed transactions, watched sessions,
 * stored answers) register here what a new chain instance clears, so the chain layer needs no
 * knowledge of them (imports point down).
 */
@Injectable()
export class ChainResetRegistry {
  private readonly handlers = new Map<string, ChainResetHandler>();

  register(name: string, handler: ChainResetHandler): void {
    this.handlers.set(name, handler);
  }

  entries(): Array<[string, ChainResetHandler]> {
    return [...this.handlers];
  }
}

/** A handler that deletes every row of one table (all of it describes the old chain). */
export function clearingAll(entity: EntityTarget<ObjectLiteral>): ChainResetHandler {
  return async (manager) => {
    const count = await manager.count(entity);
    if (count > 0) await manager.createQueryBuilder().delete().from(entity).execute();
    return count;
  };
}
