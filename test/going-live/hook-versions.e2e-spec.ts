/**
 * Issue 41 item 3 (v1) and issue 54 (v2), hook versions, on a bare devnet: a network with an old
 * ComplianceHook (v1, or v2) and a position in its pool; `cli deploy` adds the current hook (v3)
 * and its pool beside it (a second run sends nothing), records v3's authorizers, and lists the old
 * hook and its pool as deprecated in the network file; the service on that file refuses to build
 * into the old pool (400 POOL_DEPRECATED naming the current pool), lists the old position as
 * deprecated, and builds its exits (collect, decrease, burn), which are signed, relayed and
 * CONFIRMED; a swap on the v3 pool goes through.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, getAddress, JsonRpcProvider, Wallet } from 'ethers';
import request from 'supertest';
import { COMPLIANCE_REGISTRY } from '../../src/chain/abi/compliance-registry';
import { poolIdOf } from '../../src/chain/encoding/pool-key';
import {
  devnetPrivateKeys,
  RunningBareDevnet,
  startBareDevnet,
} from '../../src/chain/devnet/devnet';
import type { DeprecatedEntry, NetworkFile } from '../../src/chain/network/network-definition';
import { deployCommand } from '../../src/cli/deploy-command';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { deployHookV1Network } from '../helpers/hook-v1';
import { pollUntil } from '../helpers/wait';

describe.each([1, 2] as const)(
  'Hook versions: v%i beside v3 on one network file (bare devnet)',
  (version) => {
    let devnet: RunningBareDevnet;
    let provider: JsonRpcProvider;
    let dir: string;
    let networkFile: string;
    let t: TestApp;
    let token: string;
    const keys = devnetPrivateKeys(8);
    const deployer = new Wallet(keys[5]);
    const user = new Wallet(keys[3]);
    let oldHook: string;
    let oldPoolId: string;
    let file: NetworkFile;
    /** The v1 file's `deprecated` (the list form `devnet --bare` writes). */
    let listedBefore: DeprecatedEntry[];

    const deployArgs = () => [
      '--json',
      '--rpc',
      devnet.rpcUrl,
      '--network-file',
      networkFile,
      '--deployer-key-file',
      join(dir, 'deployer.key'),
      '--seed-liquidity',
    ];
    const auth = () => ({ Authorization: `Bearer ${token}` });
    const post = (path: string, body: object) =>
      request(t.server).post(`/api/v1/defi/${path}`).set(auth()).send(body);
    const positions = () =>
      request(t.server).get(`/api/v1/defi/positions?owner=${user.address}`).set(auth()).expect(200);

    /** Signs a built transaction as the wallet would, relays it, and waits for CONFIRMED. */
    async function execute(tx: UnsignedTx, kind: string) {
      const wallet = user.connect(provider);
      const signed = await wallet.signTransaction(
        await wallet.populateTransaction({
          to: tx.to,
          data: tx.data,
          value: BigInt(tx.value),
          gasLimit: BigInt(tx.gas),
        }),
      );
      const sent = await post('transactions', { signedTransaction: signed });
      if (sent.status !== 202) throw new Error(JSON.stringify(sent.body));
      return pollUntil(
        `${kind} ${sent.body.txHash} confirmed`,
        async () =>
          (
            await request(t.server)
              .get(`/api/v1/defi/transactions/${sent.body.txHash}`)
              .set(auth())
              .expect(200)
          ).body,
        (body) => body.status !== 'PENDING',
      );
    }

    beforeAll(async () => {
      devnet = await startBareDevnet({ port: 0 });
      // No response cache: each signature reads the nonce the previous transaction moved.
      provider = new JsonRpcProvider(devnet.rpcUrl, 84532, {
        staticNetwork: true,
        batchMaxCount: 1,
        cacheTimeout: -1,
      });
      dir = mkdtempSync(join(tmpdir(), 'hook-versions-'));
      writeFileSync(join(dir, 'deployer.key'), `${deployer.privateKey}\n`, { mode: 0o600 });
      // The network as it was before v3: the old hook, its pool, and a position of `user` in it.
      const v1 = await deployHookV1Network({
        rpc: devnet.provider,
        file: devnet.networkFile,
        deployer,
        seeder: user,
        version,
      });
      oldHook = v1.hook;
      listedBefore = v1.file.deprecated as DeprecatedEntry[];
      networkFile = join(dir, 'network.json');
      writeFileSync(networkFile, `${JSON.stringify(v1.file, null, 2)}\n`);
      oldPoolId = poolIdOf({
        currency0: v1.file.tokens.WETH.address!,
        currency1: v1.file.tokens.tUSDC.address!,
        ...v1.file.pool,
        hooks: oldHook,
      });
    }, 180_000);

    afterAll(async () => {
      await t?.close();
      provider?.destroy();
      await devnet?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('cli deploy adds v3 and its pool beside the old hook, lists it as deprecated, and a second run sends nothing', async () => {
      const first = await deployCommand(deployArgs());
      expect(first.exitCode).toBe(0);
      const summary = JSON.parse(first.output) as {
        outcome: string;
        steps: Array<{ step: string }>;
      };
      expect(summary.outcome).toBe('deployed');
      const steps = summary.steps.map((s) => s.step);
      // The registry and the token of v1 are kept: only the hook, its wiring and its pool are new.
      expect(steps).toEqual(
        expect.arrayContaining(['complianceHook', 'poolInitialize', 'seedPosition']),
      );
      expect(steps).not.toContain('complianceRegistry');
      expect(steps).not.toContain('tUSDC');

      const text = readFileSync(networkFile, 'utf8');
      file = JSON.parse(text) as NetworkFile;
      const v3Hook = file.contracts.complianceHook!;
      expect(v3Hook).not.toBe(oldHook);
      const hook = new Contract(
        v3Hook,
        [
          'function VERSION() view returns (uint8)',
          'function isAuthorizer(address) view returns (bool)',
          'function isEnforcer(address) view returns (bool)',
        ],
        provider,
      );
      expect(await hook.VERSION()).toBe(3n);
      // Issue 54: the file records v3 and its authorizers (the attester by default), which the
      // hook accepts; the attester is the hook's enforcer.
      expect(file).toMatchObject({ hookVersion: 3, authorizers: [deployer.address] });
      expect(await hook.isAuthorizer(deployer.address)).toBe(true);
      expect(await hook.isEnforcer(deployer.address)).toBe(true);
      expect(steps).toEqual(
        expect.arrayContaining([`hookAuthorizer:${deployer.address}`, 'hookEnforcer']),
      );
      // The earlier list (the stablecoin and hook placeholders of spec §1) is kept, in sections.
      expect(file.deprecated).toEqual({
        tokens: listedBefore.filter((e) => e.kind === 'token').map(({ kind: _, ...e }) => e),
        hooks: [
          ...listedBefore.filter((e) => e.kind === 'hook').map(({ kind: _, ...e }) => e),
          expect.objectContaining({ address: oldHook, replacedBy: 'complianceHook' }),
        ],
        pools: [
          expect.objectContaining({
            id: oldPoolId,
            currency0: file.tokens.WETH.address,
            currency1: file.tokens.tUSDC.address,
            hooks: oldHook,
          }),
        ],
      });

      const nonce = await provider.getTransactionCount(deployer.address);
      const again = await deployCommand(deployArgs());
      expect(again.exitCode).toBe(0);
      expect(JSON.parse(again.output)).toMatchObject({
        outcome: 'nothing-to-do',
        transactionsSent: 0,
      });
      expect(await provider.getTransactionCount(deployer.address)).toBe(nonce);
      expect(readFileSync(networkFile, 'utf8')).toBe(text);
    }, 180_000);

    describe('the service on that file', () => {
      let tokenId: string;

      beforeAll(async () => {
        t = await createTestApp({
          env: { CHAIN_RPC_URL: devnet.rpcUrl, CHAIN_NETWORK_FILE: networkFile },
        });
        token = await login(t, await t.createAccount());
      }, 120_000);

      it('lists the old position, marked deprecated, with its pool; config names the deprecated pool', async () => {
        const listed = await positions();
        expect(listed.body.positions).toHaveLength(1);
        const [position] = listed.body.positions;
        expect(position).toMatchObject({
          owner: user.address,
          deprecated: true,
          poolId: oldPoolId,
          poolKey: { hooks: oldHook },
        });
        expect(BigInt(position.liquidity) > 0n).toBe(true);
        tokenId = position.tokenId;
        const one = await request(t.server).get(`/api/v1/defi/positions/${tokenId}`).set(auth());
        expect(one.status).toBe(200);
        expect(one.body).toMatchObject({ tokenId, deprecated: true, poolId: oldPoolId });

        const config = await request(t.server).get('/api/v1/defi/config').set(auth()).expect(200);
        expect(config.body.pool.key.hooks).toBe(file.contracts.complianceHook);
        expect(config.body.authorizers).toEqual([deployer.address]);
        expect(config.body.deprecatedPools).toEqual([
          {
            poolId: oldPoolId,
            key: expect.objectContaining({ hooks: oldHook }),
            reason: expect.any(String),
          },
        ]);
        expect(config.body.deprecated).toEqual(
          expect.arrayContaining([expect.objectContaining({ kind: 'hook', address: oldHook })]),
        );
      });

      it('refuses to add to the old position: 400 POOL_DEPRECATED naming the current pool', async () => {
        const res = await post('liquidity/increase', {
          tokenId,
          amount0: '1000000000000000',
          amount1: '3000000',
          userAddress: user.address,
        });
        expect(res.status).toBe(400);
        const current = await request(t.server).get('/api/v1/defi/config').set(auth()).expect(200);
        expect(res.body).toMatchObject({
          code: 'POOL_DEPRECATED',
          phase: 'validation',
          details: [
            {
              poolId: oldPoolId,
              deprecated: true,
              currentPool: {
                poolId: current.body.pool.poolId,
                hooks: file.contracts.complianceHook,
              },
            },
          ],
        });
        expect(res.body.hint).toContain(current.body.pool.poolId);
        expect(res.body.hint).toContain(file.contracts.complianceHook);
      });

      it('takes an optional poolId on a mint: the current pool builds, the old pool is POOL_DEPRECATED', async () => {
        const current = (await request(t.server).get('/api/v1/defi/config').set(auth()).expect(200))
          .body.pool.poolId as string;
        const mint = (poolId: string) =>
          post('liquidity?buildOnly=true', {
            token0: file.tokens.WETH.address,
            token1: file.tokens.tUSDC.address,
            amount0: '1000000000000000',
            amount1: '3000000',
            tickLower: -887220,
            tickUpper: 887220,
            userAddress: user.address,
            poolId,
          });
        const built = await mint(current);
        expect(built.status).toBe(200);
        expect(built.body.poolKey.hooks).toBe(file.contracts.complianceHook);
        const refused = await mint(oldPoolId);
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ code: 'POOL_DEPRECATED', phase: 'validation' });
        expect(refused.body.hint).toContain(current);
        const unknown = await mint(`0x${'12'.repeat(32)}`);
        expect(unknown.status).toBe(400);
        expect(unknown.body).toMatchObject({
          code: 'INVALID_PARAMS',
          details: [expect.objectContaining({ field: 'poolId' })],
        });
        expect(unknown.body.hint).toContain(current);
      });

      it('exits the old position: collect, decrease, then burn, each relayed and CONFIRMED', async () => {
        const collect = await post('liquidity/collect', { tokenId, userAddress: user.address });
        expect(collect.status).toBe(200);
        expect(collect.body.poolKey.hooks).toBe(oldHook);
        expect(await execute(collect.body.transaction, 'collect')).toMatchObject({
          status: 'CONFIRMED',
        });

        const half = await post('liquidity/decrease', {
          tokenId,
          liquidityBps: 5000,
          userAddress: user.address,
        });
        expect(half.status).toBe(200);
        expect(half.body).toMatchObject({ poolKey: { hooks: oldHook }, simulation: { ok: true } });
        expect(await execute(half.body.transaction, 'decrease')).toMatchObject({
          status: 'CONFIRMED',
        });
        const [remaining] = (await positions()).body.positions;
        expect(remaining.liquidity).toBe(half.body.remainingLiquidity);

        const burn = await post('liquidity/decrease', {
          tokenId,
          liquidityBps: 10000,
          burn: true,
          userAddress: user.address,
        });
        expect(burn.status).toBe(200);
        expect(await execute(burn.body.transaction, 'burn')).toMatchObject({ status: 'CONFIRMED' });
        expect((await positions()).body.positions).toEqual([]);
      }, 120_000);

      it('swaps on the v3 pool', async () => {
        // A session from the registry's attester (the deployer), as activation would open one.
        const registry = new Contract(
          file.contracts.complianceRegistry!,
          COMPLIANCE_REGISTRY.fragments,
          deployer.connect(provider),
        );
        const now = (await provider.getBlock('latest'))!.timestamp;
        await (await registry.activate(user.address, now + 3_600)).wait();
        const body = {
          tokenIn: file.tokens.WETH.address,
          tokenOut: file.tokens.tUSDC.address,
          amount: (10n ** 15n).toString(),
          userAddress: user.address,
        };
        const first = await post('swap', body).expect(200);
        for (const approval of first.body.approvals as Array<{ transaction: UnsignedTx }>)
          expect(await execute(approval.transaction, 'approval')).toMatchObject({
            status: 'CONFIRMED',
          });
        const swap = await post('swap', body).expect(200);
        expect(swap.body.poolKey.hooks).toBe(getAddress(file.contracts.complianceHook!));
        expect(swap.body.simulation).toEqual({ ok: true });
        expect(await execute(swap.body.transaction, 'swap')).toMatchObject({ status: 'CONFIRMED' });
      }, 120_000);
    });
  },
);
