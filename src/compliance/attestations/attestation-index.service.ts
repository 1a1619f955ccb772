import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AbiCoder, getAddress, keccak256, toUtf8Bytes, zeroPadValue } from 'ethers';
import { DataSource, EntityManager, In } from 'typeorm';
import { EAS } from '../../chain/abi/eas';
import { ChainRpcService, RawLog } from '../../chain/chain-rpc.service';
import { ChainResetRegistry, clearingAll } from '../../chain/instance/chain-reset.registry';
import { blockPages } from '../../chain/logs/log-pages';
import { NetworkService } from '../../chain/network/network.service';
import type { AttestationSource } from '../../chain/network/network.types';
import { placeholders } from '../../common/database/placeholders';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { ComplianceConfig } from '../../config/compliance.config';
import { AttestationIndexEntry, AttestationIndexState } from './attestation-index.entity';

const ATTESTED = EAS.getEvent('Attested')!.topicHash;
const STATE = 'eas';
/**
 * Blocks read again at each pass: a shallow reorganisation of the head cannot hide an
 * attestation (the writes are idempotent). Deeper ones are not expected on Base (one sequencer).
 */
const REREAD_BLOCKS = 12;
/**
 * An activation waits for the index to catch up when it is at most this many pages behind (on
 * Base at 10,000 blocks a page: 11 days of blocks, read one page per eth_getLogs); further behind
 * (the first read of a long history) the catch-up goes on in the background.
 */
const WAIT_PAGES = 50;

/** What the index holds for one recipient: the latest uid per accepted source (by name). */
export type IndexedUids = Map<string, string>;

/**
 * Issue 52: the service's own index of the accepted attesters' EAS attestations, keyed by
 * attester, so that nobody but the accepted attester can change what a wallet's source says:
 * the network's indexer contract keeps one pointer per (recipient, schema) that whoever may
 * write it can move (on the devnet before this issue: anyone; on Base: Coinbase's INDEXER_ROLE).
 *
 * It reads EAS's `Attested(recipient, attester, uid, schema)` events filtered on the accepted
 * attesters and schemas (three indexed topics, so the node returns only those), from the network
 * file's `compliance.eas.fromBlock`, in pages of CHAIN_LOGS_PAGE_BLOCKS (nodes cap eth_getLogs
 * ranges), and keeps the latest per (schema, attester, recipient) with the block it has read to.
 * An activation (or a dry run) brings the index to the head before it reads (`upToDate`); with
 * ATTESTATION_INDEX_INTERVAL_MS set, a pass also runs at start and on that period, so a long
 * history is read before the first activation needs it. Each page is committed with the cursor: a
 * restart resumes. The writes are idempotent (the later event wins), so replicas may scan at once
 * without a lock.
 */
@Injectable()
export class AttestationIndex extends PeriodicScan<number> {
  private readonly timed: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: ChainRpcService,
    private readonly network: NetworkService,
    config: ComplianceConfig,
    resets: ChainResetRegistry,
  ) {
    super(config.attestationIndexIntervalMs);
    this.timed = config.attestationIndexIntervalMs > 0;
    resets.register('indexed attestations', async (manager) => {
      const rows = await clearingAll(AttestationIndexEntry)(manager);
      await clearingAll(AttestationIndexState)(manager);
      return rows;
    });
  }

  private get sources(): AttestationSource[] {
    return this.network.definition.compliance.attestationSources;
  }

  /**
   * Brings the index to the chain's head before a decision that depends on it (an activation, a
   * dry run): awaited when it is at most WAIT_PAGES pages behind (usually one eth_getLogs), else
   * started in the background while the caller reads what is indexed so far.
   */
  async upToDate(): Promise<void> {
    if (this.sources.length === 0) return;
    const [head, state] = await Promise.all([this.rpc.blockNumber(), this.state()]);
    const behind = head + 1 - (state?.nextBlock ?? this.fromBlock);
    const page = this.network.definition.positionLogs.pageBlocks;
    if (behind <= WAIT_PAGES * page) {
      await this.runOnce();
      return;
    }
    void this.runOnce();
  }

  /** With a period set, the first pass starts with the service (a long history, in the background). */
  override onApplicationBootstrap(): void {
    super.onApplicationBootstrap();
    if (this.sources.length > 0 && this.timed) void this.runOnce();
  }

  /** The latest indexed uid of each of `sources` for `recipient`: one SELECT. */
  async latestFor(recipient: string, sources: readonly AttestationSource[]): Promise<IndexedUids> {
    const found: IndexedUids = new Map();
    if (sources.length === 0) return found;
    const rows = await this.dataSource.getRepository(AttestationIndexEntry).findBy({
      recipient: getAddress(recipient),
      schemaUid: In([...new Set(sources.map((s) => s.schema.toLowerCase()))]),
    });
    for (const source of sources) {
      const row = rows.find(
        (r) =>
          r.schemaUid === source.schema.toLowerCase() && r.attester === getAddress(source.attester),
      );
      if (row) found.set(source.name, row.uid);
    }
    return found;
  }

  /** One pass: every page from the cursor to the head; resolves to the events indexed. */
  protected async scan(): Promise<number> {
    const eas = this.network.definition.compliance.eas;
    if (this.sources.length === 0 || !eas) return 0;
    let state = await this.state();
    const fingerprint = this.fingerprint();
    const head = await this.rpc.blockNumber();
    // Another configuration, or a chain that is now shorter than what was read: start over.
    if (!state || state.fingerprint !== fingerprint || state.nextBlock > head + REREAD_BLOCKS + 1)
      state = await this.restart(fingerprint);
    const from = Math.max(this.fromBlock, state.nextBlock - REREAD_BLOCKS);
    let indexed = 0;
    for (const page of blockPages(from, head, this.network.definition.positionLogs.pageBlocks)) {
      const logs = await this.rpc.getLogs({
        address: eas.eas,
        topics: [ATTESTED, null, this.attesterTopics(), this.schemaTopics()],
        ...page,
      });
      indexed += await this.record(logs, page.toBlock + 1);
    }
    return indexed;
  }

  private get fromBlock(): number {
    return this.network.definition.compliance.eas?.fromBlock ?? 0;
  }

  private state(): Promise<AttestationIndexState | null> {
    return this.dataSource.getRepository(AttestationIndexState).findOneBy({ name: STATE });
  }

  private async restart(fingerprint: string): Promise<AttestationIndexState> {
    const state = { name: STATE, fingerprint, nextBlock: this.fromBlock };
    await this.dataSource.transaction(async (manager) => {
      await clearingAll(AttestationIndexEntry)(manager);
      await manager.getRepository(AttestationIndexState).save(state);
    });
    this.logger.log(
      { fromBlock: this.fromBlock, sources: this.sources.map((s) => s.name) },
      'Attestation index (re)started',
    );
    return state;
  }

  /** The page's events of accepted (attester, schema) pairs, the latest per key, and the cursor. */
  private async record(logs: readonly RawLog[], nextBlock: number): Promise<number> {
    const accepted = new Set(this.sources.map((s) => pairKey(s.attester, s.schema)));
    const latest = new Map<string, AttestationIndexEntry>();
    for (const log of logs) {
      const entry = entryOf(log);
      if (!accepted.has(pairKey(entry.attester, entry.schemaUid))) continue;
      const key = `${pairKey(entry.attester, entry.schemaUid)}:${entry.recipient}`;
      const known = latest.get(key);
      if (!known || later(entry, known)) latest.set(key, entry);
    }
    await this.dataSource.transaction(async (manager) => {
      for (const entry of latest.values()) await upsertLater(manager, entry);
      await manager
        .createQueryBuilder()
        .update(AttestationIndexState)
        .set({ nextBlock })
        .where('name = :name AND next_block < :nextBlock', { name: STATE, nextBlock })
        .execute();
    });
    return latest.size;
  }

  private fingerprint(): string {
    const eas = this.network.definition.compliance.eas;
    const pairs = this.sources.map((s) => pairKey(s.attester, s.schema)).sort();
    return keccak256(toUtf8Bytes(JSON.stringify([eas?.eas.toLowerCase(), this.fromBlock, pairs])));
  }

  private attesterTopics(): string[] {
    return [...new Set(this.sources.map((s) => zeroPadValue(s.attester.toLowerCase(), 32)))];
  }

  private schemaTopics(): string[] {
    return [...new Set(this.sources.map((s) => s.schema.toLowerCase()))];
  }
}

const coder = AbiCoder.defaultAbiCoder();

function pairKey(attester: string, schema: string): string {
  return `${attester.toLowerCase()}:${schema.toLowerCase()}`;
}

function topicAddress(topic: string): string {
  return getAddress(`0x${topic.slice(26)}`);
}

function entryOf(log: RawLog): AttestationIndexEntry {
  return {
    recipient: topicAddress(log.topics[1]),
    attester: topicAddress(log.topics[2]),
    schemaUid: log.topics[3].toLowerCase(),
    uid: (coder.decode(['bytes32'], log.data)[0] as string).toLowerCase(),
    blockNumber: Number(log.blockNumber),
    logIndex: Number(log.logIndex),
  };
}

function later(a: AttestationIndexEntry, b: AttestationIndexEntry): boolean {
  return (
    a.blockNumber > b.blockNumber || (a.blockNumber === b.blockNumber && a.logIndex > b.logIndex)
  );
}

/** Inserts the entry, or replaces the stored one when this event is the later one. */
async function upsertLater(manager: EntityManager, e: AttestationIndexEntry): Promise<void> {
  const mark = placeholders(manager);
  const p: unknown[] = [];
  const values = [e.schemaUid, e.attester, e.recipient, e.uid, e.blockNumber, e.logIndex]
    .map((v) => mark(p, v))
    .join(', ');
  await manager.query(
    `INSERT INTO attestation_index (schema_uid, attester, recipient, uid, block_number, log_index)
     VALUES (${values})
     ON CONFLICT (schema_uid, attester, recipient) DO UPDATE SET
       uid = excluded.uid, block_number = excluded.block_number, log_index = excluded.log_index
     WHERE attestation_index.block_number < excluded.block_number
        OR (attestation_index.block_number = excluded.block_number
            AND attestation_index.log_index < excluded.log_index)`,
    p,
  );
}
