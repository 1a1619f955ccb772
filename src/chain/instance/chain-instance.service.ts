import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChainConnection } from '../chain-connection';
import { ChainInstance } from './chain-instance.entity';
import { ChainResetRegistry } from './chain-reset.registry';

/** How long boot waits for the genesis block before it goes on without the check. */
const GENESIS_TIMEOUT_MS = 5_000;

export interface ChainInstanceStatus {
  /** The genesis block hash of the chain served now; null when it could not be read at boot. */
  genesisHash: string | null;
  /** When this service first saw it. */
  since: string | null;
  /** `new`: another chain than the one the database knew (its chain-bound rows were cleared). */
  state: 'first' | 'same' | 'new' | 'unknown';
  previousGenesisHash: string | null;
  /** Rows of the previous instance cleared at this start, per kind. */
  cleared: Record<string, number>;
}

/**
 * Issue 47: the embedded chain and the database agree. At boot the genesis hash of the chain is
 * compared with the one the database last saw. A different one is a new chain (the embedded
 * devnet after a restart, a reset local node): what the database says about the old one (relayed
 * transactions, watched compliance sessions, stored answers that name its transactions) is
 * cleared in one transaction with the new instance's record, so nothing served afterwards claims
 * what the chain no longer has. Wallets, accounts, keys and webhooks are not chain state: kept.
 */
@Injectable()
export class ChainInstanceService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChainInstanceService.name);
  private current: ChainInstanceStatus = {
    genesisHash: null,
    since: null,
    state: 'unknown',
    previousGenesisHash: null,
    cleared: {},
  };

  constructor(
    private readonly connection: ChainConnection,
    private readonly resets: ChainResetRegistry,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  get status(): ChainInstanceStatus {
    return this.current;
  }

  async onApplicationBootstrap(): Promise<void> {
    const genesisHash = await this.genesisHash();
    if (genesisHash === undefined) {
      this.logger.warn('Genesis block unreadable at start: chain instance not checked');
      return;
    }
    const chainId = this.connection.network.chainId;
    try {
      this.current = await this.reconcile(chainId, genesisHash);
    } catch (error) {
      // Replicas starting together: another one recorded this instance first (its insert won the
      // primary key); read again, and it is the same instance.
      this.logger.debug(`Chain instance recorded by another process: ${String(error)}`);
      this.current = await this.reconcile(chainId, genesisHash);
    }
    if (this.current.state === 'new') {
      const cleared = Object.entries(this.current.cleared)
        .map(([kind, count]) => `${count} ${kind}`)
        .join(', ');
      this.logger.warn(
        `A new chain instance (genesis ${genesisHash}, was ${this.current.previousGenesisHash}): cleared what the database said about the old one (${cleared}); wallets, accounts, keys and webhooks kept`,
      );
    }
  }

  private async reconcile(chainId: number, genesisHash: string): Promise<ChainInstanceStatus> {
    return this.dataSource.transaction(async (manager) => {
      const rows = manager.getRepository(ChainInstance);
      const known = await rows.findOneBy({ chainId });
      if (known?.genesisHash === genesisHash) return statusOf(known, 'same', {});
      const cleared: Record<string, number> = {};
      if (known)
        for (const [kind, clear] of this.resets.entries()) cleared[kind] = await clear(manager);
      const instance = rows.create({
        chainId,
        genesisHash,
        since: new Date(),
        previousGenesisHash: known?.genesisHash ?? null,
      });
      await rows.save(instance);
      return statusOf(instance, known ? 'new' : 'first', cleared);
    });
  }

  private async genesisHash(): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const block = (await Promise.race([
        this.connection.provider.send('eth_getBlockByNumber', ['0x0', false]),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), GENESIS_TIMEOUT_MS);
        }),
      ])) as { hash?: string } | null;
      return typeof block?.hash === 'string' ? block.hash : undefined;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

function statusOf(
  instance: ChainInstance,
  state: ChainInstanceStatus['state'],
  cleared: Record<string, number>,
): ChainInstanceStatus {
  return {
    genesisHash: instance.genesisHash,
    since: new Date(instance.since).toISOString(),
    state,
    previousGenesisHash: instance.previousGenesisHash,
    cleared,
  };
}
