/**
 * The chain layer inside the booted app: the batched reader answers a seeded wallet in ONE
 * JSON-RPC request, readiness includes the chain, and a dead or silent RPC fails fast and cleanly.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AbiCoder, Interface, keccak256 } from 'ethers';
import request from 'supertest';
import { ChainReaderService } from '../../src/chain/chain-reader.service';
import { ChainConnection } from '../../src/chain/chain-connection';
import { NetworkService } from '../../src/chain/network/network.service';
import { quoteExactInputSingle } from '../../contracts/test/uniswap-actions';
import { ApiError } from '../../src/common/errors/api-error';
import { createTestApp, TestApp } from '../helpers/app';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { closedPort } from '../helpers/ports';

const STATE_VIEW = new Interface([
  'function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
]);

describe('ChainModule (e2e)', () => {
  describe('on the devnet', () => {
    let chain: DevnetHandle;
    let t: TestApp;

    beforeAll(async () => {
      chain = await acquireDevnet();
      t = await createTestApp({ env: chain.env });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await chain?.release();
    });

    it('reads session, balances and Permit2 allowances of a seeded wallet in exactly one RPC request', async () => {
      const reader = t.app.get(ChainReaderService);
      const wallet = chain.wallets[1].address;
      await chain.resetRpcCount();
      const { state } = await reader.readWallet(wallet);
      expect(await chain.rpcStats()).toEqual({ eth_call: 1 });
      expect(state.session).toEqual({ active: false, activeUntil: null });
      expect(state.balances.WETH).toBe(100n * 10n ** 18n);
      expect(state.balances.tUSDC).toBe(1_000_000n * 10n ** 6n);
      expect(state.balances.ETH).toBeGreaterThan(9_000n * 10n ** 18n);
      // Without a token list, every token of the market: the devnet's four.
      expect(state.balances.tWBTC).toBe(100n * 10n ** 8n);
      expect(state.balances.tEURC).toBe(1_000_000n * 10n ** 6n);
      const none = { WETH: 0n, tUSDC: 0n, tWBTC: 0n, tEURC: 0n };
      expect(state.erc20ToPermit2).toEqual(none);
      expect(state.effective).toEqual({ swap: none, liquidity: none });
    });

    it('sees a session the attester opened, with the quoter and slot0 riding in the same eth_call', async () => {
      const reader = t.app.get(ChainReaderService);
      const network = t.app.get(NetworkService);
      const wallet = chain.wallets[2].address;
      await chain.activateSession(wallet, 600);
      const stateView = STATE_VIEW;
      const k = network.poolKey;
      const poolId = keccak256(
        AbiCoder.defaultAbiCoder().encode(
          ['address', 'address', 'uint24', 'int24', 'address'],
          [k.currency0, k.currency1, k.fee, k.tickSpacing, k.hooks],
        ),
      );

      await chain.resetRpcCount();
      const { state, extra } = await reader.readWallet(wallet, [
        {
          target: network.contracts.v4Quoter,
          allowFailure: true,
          callData: quoteExactInputSingle(k, true, 10n ** 17n),
        },
        {
          target: network.contracts.stateView,
          allowFailure: true,
          callData: stateView.encodeFunctionData('getSlot0', [poolId]),
        },
      ]);
      expect(await chain.rpcRequestCount()).toBe(1);
      expect(state.session.active).toBe(true);
      expect(state.session.activeUntil).toBeGreaterThan(state.blockTimestamp);
      // v4-periphery 1.0.3's V4Quoter catches its own revert: the quote returns normally.
      expect(extra.map((r) => r.ok)).toEqual([true, true]);
      if (!extra[1].ok) throw new Error('getSlot0 reverted');
      const [sqrtPriceX96] = stateView.decodeFunctionResult('getSlot0', extra[1].returnData);
      expect(sqrtPriceX96).toBe(BigInt(chain.deployment.pool.sqrtPriceX96));
    });

    it('reports the chain in /health/ready', async () => {
      const res = await request(t.server).get('/health/ready').expect(200);
      expect(res.body.info.chain).toMatchObject({
        status: 'up',
        chainId: 84532,
        network: 'devnet',
      });
    });

    it('serves the devnet addresses (WETH < tUSDC, pool key with the hook)', () => {
      const network = t.app.get(NetworkService);
      expect(network.definition.contracts).toEqual(chain.network.contracts);
      expect(network.poolKey.currency0).toBe(chain.addresses.WETH);
      expect(network.poolKey.hooks).toBe(chain.addresses.complianceHook);
      expect(network.findDeprecated(network.deprecated[0].address.toLowerCase())?.replacedBy).toBe(
        chain.addresses.tUSDC,
      );
    });
  });

  describe('embedded devnet (no CHAIN_RPC_URL)', () => {
    it('starts with the app, serves reads, and is stopped when the app shuts down', async () => {
      const started = Date.now();
      const t = await createTestApp({
        env: { CHAIN_RPC_URL: undefined, DEVNET_SHARED: 'false', DEVNET_PORT: '0' },
      });
      const bootMs = Date.now() - started;
      const devnet = t.app.get(ChainConnection).devnet!;
      expect(devnet.pid).toBeGreaterThan(0);
      expect(bootMs).toBeLessThan(15_000);
      const { state } = await t.app
        .get(ChainReaderService)
        .readWallet(devnet.deployment.accounts.funded[3]);
      expect(state.balances.WETH).toBe(100n * 10n ** 18n);
      await t.close();
      expect(() => process.kill(devnet.pid, 0)).toThrow(); // the child is gone
    }, 60_000);
  });

  describe('with an unreachable or silent RPC', () => {
    let silent: Server;
    const apps: TestApp[] = [];
    afterAll(async () => {
      for (const app of apps) await app.close();
      silent?.closeAllConnections();
      await new Promise((resolve) => silent?.close(resolve));
    });

    // The budgets sit well below what a broken path would take (CHAIN_TIMEOUT_MS' default of 3 s,
    // or a hang) and far above what a working one takes, so that a loaded machine cannot fail
    // them; a timer never fires early, so a lower bound is exact (less a few ms of clock rounding).
    async function expectFastUnavailable(t: TestApp, { atLeastMs = 0, budgetMs = 2_500 } = {}) {
      const started = Date.now();
      const error = await t.app
        .get(ChainReaderService)
        .readWallet(t.app.get(NetworkService).contracts.permit2)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('CHAIN_UNAVAILABLE');
      expect((error as ApiError).status).toBe(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(atLeastMs);
      expect(Date.now() - started).toBeLessThan(budgetMs);

      const readyStarted = Date.now();
      // Issue 34: the shared chain makes the instance degraded, not unready (200).
      const res = await request(t.server).get('/health/ready').expect(200);
      expect(Date.now() - readyStarted).toBeLessThan(2_500); // CHAIN_HEALTH_TIMEOUT_MS: 1 s
      expect(res.body.status).toBe('degraded');
      expect(res.body.details.chain).toMatchObject({ status: 'degraded' });
      expect(res.body.details.chain.message).toContain('CHAIN_UNAVAILABLE');
      expect(res.body.details.database).toMatchObject({ status: 'up' });
      expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|timeout/i);
    }

    it('a closed port fails chain reads and readiness at once, as CHAIN_UNAVAILABLE', async () => {
      const t = await createTestApp({
        env: { CHAIN_RPC_URL: `http://127.0.0.1:${await closedPort()}`, CHAIN_NETWORK: 'devnet' },
      });
      apps.push(t);
      await expectFastUnavailable(t);
    });

    it('an RPC that never answers fails within CHAIN_TIMEOUT_MS, never hangs', async () => {
      silent = createServer(() => undefined); // accepts, never responds
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const t = await createTestApp({
        env: { CHAIN_RPC_URL: url, CHAIN_NETWORK: 'devnet', CHAIN_TIMEOUT_MS: '500' },
      });
      apps.push(t);
      await expectFastUnavailable(t, { atLeastMs: 450 }); // CHAIN_TIMEOUT_MS: 500
      expect(t.app.get(ChainConnection).devnet).toBeUndefined();
    });
  });
});
