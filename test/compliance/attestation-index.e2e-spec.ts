/**
 * Issue 52: the service's own index of the accepted attesters' attestations (AttestationIndex).
 * It reads EAS Attested events in pages no larger than CHAIN_LOGS_PAGE_BLOCKS (a node caps an
 * eth_getLogs range), commits a cursor with each page and resumes from it after a restart, reads
 * only the blocks after the cursor once caught up, and starts over when the sources change.
 */
import { Wallet } from 'ethers';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ChainRpcService, LogFilter } from '../../src/chain/chain-rpc.service';
import { issueTestAttestation, testAttesterKey } from '../../src/chain/devnet/test-attester';
import { devnetNetworkFile } from '../../src/chain/network/network-definition';
import {
  AttestationIndexEntry,
  AttestationIndexState,
} from '../../src/compliance/attestations/attestation-index.entity';
import { AttestationIndex } from '../../src/compliance/attestations/attestation-index.service';
import { createTestApp, TestApp } from '../helpers/app';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';

const PAGE = 7;

describe(AttestationIndex.name, () => {
  let chain: ComplianceDevnet;
  let dir: string;
  const apps: TestApp[] = [];
  const dbs: TestDatabase[] = [];

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    dir = mkdtempSync(join(tmpdir(), 'cgk-attestation-index-'));
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const db of dbs) await db.drop();
    await chain?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A database the apps of one test share (a restart keeps it). */
  const database = async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    return db;
  };
  const boot = async (db: TestDatabase, env: Record<string, string | undefined> = {}) => {
    const app = await createTestApp({
      db,
      env: {
        ...chain.env,
        CHAIN_LOGS_PAGE_BLOCKS: String(PAGE),
        ATTESTATION_INDEX_INTERVAL_MS: '0',
        SCREENING_INTERVAL_MS: '0',
        ...env,
      },
    });
    apps.push(app);
    return app;
  };
  /** The eth_getLogs ranges a pass asks for (a spy: the calls go to the devnet). */
  const rangesOf = async (app: TestApp) => {
    const spy = jest.spyOn(app.app.get(ChainRpcService), 'getLogs');
    try {
      const indexed = await app.app.get(AttestationIndex).runOnce();
      return {
        indexed,
        ranges: spy.mock.calls.map(([f]: [LogFilter]) => [f.fromBlock, f.toBlock] as const),
      };
    } finally {
      spy.mockRestore();
    }
  };
  const stateOf = (app: TestApp) =>
    app.app.get(DataSource).getRepository(AttestationIndexState).findOneByOrFail({ name: 'eas' });
  const attest = (wallet: string) =>
    issueTestAttestation(
      new Wallet(testAttesterKey(), chain.provider),
      chain.deployment.compliance,
      { kind: 'account', wallet },
    );

  it('reads the whole history in pages of CHAIN_LOGS_PAGE_BLOCKS, then only what follows its cursor, and resumes after a restart', async () => {
    const wallet = Wallet.createRandom().address;
    const uid = await attest(wallet);
    const db = await database();
    const first = await boot(db);
    const head = await chain.provider.getBlockNumber();
    const { indexed, ranges } = await rangesOf(first);
    expect(indexed).toBeGreaterThanOrEqual(1);
    // Consecutive pages from block 0 to the head, none longer than a page.
    expect(ranges[0][0]).toBe(0);
    expect(ranges.at(-1)![1]).toBeGreaterThanOrEqual(head);
    for (const [i, [from, to]] of ranges.entries()) {
      expect(to - from + 1).toBeLessThanOrEqual(PAGE);
      if (i > 0) expect(from).toBe(ranges[i - 1][1] + 1);
    }
    const cursor = (await stateOf(first)).nextBlock;
    expect(cursor).toBe(ranges.at(-1)![1] + 1);
    const index = first.app.get(AttestationIndex);
    const sources = chain.deployment.compliance.attestationSources;
    expect(await index.latestFor(wallet, sources)).toEqual(new Map([['verified-account', uid]]));

    // Caught up: a pass reads the last few blocks again (a shallow reorg), not the history.
    const again = await rangesOf(first);
    expect(again.ranges.length).toBeLessThanOrEqual(3);
    expect(again.ranges[0][0]).toBeGreaterThanOrEqual(cursor - 12);

    // A later attestation is found by the next pass; a restarted app resumes from the cursor.
    const later = Wallet.createRandom().address;
    const laterUid = await attest(later);
    await first.close();
    const second = await boot(db);
    const resumed = await rangesOf(second);
    expect(resumed.ranges[0][0]).toBeGreaterThanOrEqual(cursor - 12);
    expect(await second.app.get(AttestationIndex).latestFor(later, sources)).toEqual(
      new Map([['verified-account', laterUid]]),
    );
    expect(await second.app.get(AttestationIndex).latestFor(wallet, sources)).toEqual(
      new Map([['verified-account', uid]]),
    );
  });

  it('starts over when the sources change (another first block here), and reads nothing before it', async () => {
    const db = await database();
    const first = await boot(db);
    await first.app.get(AttestationIndex).runOnce();
    const rows = first.app.get(DataSource).getRepository(AttestationIndexEntry);
    expect(await rows.count()).toBeGreaterThan(0);
    await first.close();

    // A block after every attestation made so far.
    const head = (await chain.provider.getBlockNumber()) + 1;
    const file = devnetNetworkFile(chain.deployment);
    file.compliance = {
      ...file.compliance,
      eas: { ...file.compliance!.eas!, fromBlock: head },
    };
    const path = join(dir, 'from-head.json');
    writeFileSync(path, JSON.stringify(file));
    const moved = await boot(db, { CHAIN_NETWORK: undefined, CHAIN_NETWORK_FILE: path });
    const { ranges } = await rangesOf(moved);
    expect(ranges.length === 0 || ranges[0][0] === head).toBe(true);
    expect(await moved.app.get(DataSource).getRepository(AttestationIndexEntry).count()).toBe(0);
    expect((await stateOf(moved)).nextBlock).toBeGreaterThanOrEqual(head);
    // Its attestations from now on are indexed.
    const wallet = Wallet.createRandom().address;
    const uid = await attest(wallet);
    await moved.app.get(AttestationIndex).runOnce();
    expect(
      await moved.app
        .get(AttestationIndex)
        .latestFor(wallet, chain.deployment.compliance.attestationSources),
    ).toEqual(new Map([['verified-account', uid]]));
  });
});
