/**
 * `npm run bench:trade-gas` (issue 54): the gas hook v3's per-trade authorization adds to a swap
 * over hook v2, on the embedded devnet, for one pool and for two hops, averaged over SWAPS swaps of
 * one wallet, with the first swap apart (its nonce opens a fresh bitmap word: a new storage slot).
 * Hook v3 has v2's callbacks (no afterSwap), so a v3 pool is what a v2 pool is but for the checks.
 *
 * The devnet's market is on hook v3; the bench deploys hook v2 beside it (CREATE2, v2's flags),
 * opens the same two pools on it (WETH/tUSDC 0.3 %, tUSDC/tEURC 0.01 %) at the v3 pools' prices
 * with full-range liquidity, and runs from one chain state (evm_snapshot / evm_revert), with the
 * same wallet and the same amounts (exact input, 0.001 WETH):
 *   v2               the wallet's swaps on v2's pools (session + sanctions check)
 *   v3, not flagged  the same on v3's pools: what v3 costs a wallet that needs no authorization
 *   v3, authorized   the wallet flagged (setRequired), each swap carrying its own authorization
 *                    (the service's encoders and nonces: trade-authorization.ts, NonceSource)
 * Gas is each transaction's gasUsed (calldata included: the 160 bytes of hookData count).
 */
import { Contract } from 'ethers';
import { COMPLIANCE_HOOK } from '../src/chain/abi/compliance-hook';
import { COMPLIANCE_HOOK_V3 } from '../src/chain/abi/compliance-hook-v3';
import { COMPLIANCE_REGISTRY } from '../src/chain/abi/compliance-registry';
import { POOL_MANAGER, STATE_VIEW } from '../src/chain/abi/uniswap-v4';
import { initCode, loadOwnArtifact } from '../src/chain/deployment/contract-artifacts';
import { mineSalt } from '../src/chain/deployment/create2-addresses';
import {
  CREATE2_DEPLOYER_ADDRESS,
  HOOK_FLAG_MASK,
  HOOK_FLAGS_V2,
} from '../src/chain/deployment/deployment-constants';
import { poolKeyTuple } from '../src/chain/encoding/pool-key';
import {
  domainSeparatorOf,
  encodeAuthorizationHookData,
  TRADE_KIND,
  tradeAuthorizationDigest,
  tradeAuthorizationDomain,
  ZERO_POOL_ID,
} from '../src/chain/encoding/trade-authorization';
import type { PoolKeyInfo } from '../src/chain/network/network.types';
import { encodeSwapCalldata } from '../src/defi-builder/encoding/swap-calldata';
import { NonceSource } from '../src/trading/onchain/nonce-source';
import { mintPosition } from '../contracts/test/uniswap-actions';
import { approveThroughPermit2, sendMined, withDevnetWallets } from './lib/devnet-wallets';

const SWAPS = Number(process.env.BENCH_SWAPS ?? 100);
const AMOUNT_IN = 10n ** 15n;
const FAR = 2n ** 40n;

interface Series {
  first: bigint;
  average: number;
  all: bigint[];
}

async function main(): Promise<void> {
  await withDevnetWallets(2, async ({ net, provider, wallets: [owner, trader] }) => {
    const send = sendMined;
    const { WETH, tUSDC, tEURC } = net.tokens;
    const v3Single = net.pool;
    const v3Second = net.pools.find(
      (p) => p.fee === 100 && [p.currency0, p.currency1].includes(tEURC.address),
    )!;

    // Hook v2 beside v3, wired like a deployment, with the same two pools.
    const v2Code = initCode(loadOwnArtifact('ComplianceHook'), [
      net.contracts.poolManager,
      net.contracts.complianceRegistry,
      owner.address,
      net.compliance.sanctionsOracle,
      true,
    ]);
    const v2 = mineSalt(
      CREATE2_DEPLOYER_ADDRESS,
      v2Code,
      (a) => (BigInt(a) & HOOK_FLAG_MASK) === HOOK_FLAGS_V2,
    );
    await send(owner, CREATE2_DEPLOYER_ADDRESS, v2.salt + v2Code.slice(2));
    const v2Hook = new Contract(v2.address, COMPLIANCE_HOOK, owner);
    await (await v2Hook.setRouter(net.contracts.universalRouter, true)).wait();
    await (await v2Hook.setRouter(net.contracts.positionManager, true)).wait();
    await (await v2Hook.setQuoter(net.contracts.v4Quoter, true)).wait();
    const stateView = new Contract(net.contracts.stateView, STATE_VIEW, provider);
    const registry = new Contract(net.contracts.complianceRegistry, COMPLIANCE_REGISTRY, owner);
    const now = (await provider.getBlock('latest'))!.timestamp;
    await (await registry.activate(owner.address, now + 86_400)).wait();
    await (await registry.activate(trader.address, now + 86_400)).wait();
    for (const w of [owner, trader])
      await approveThroughPermit2(
        w,
        net,
        [WETH.address, tUSDC.address, tEURC.address],
        [net.contracts.universalRouter, net.contracts.positionManager],
      );
    const v2Pools: PoolKeyInfo[] = [];
    for (const pool of [v3Single, v3Second]) {
      const key: PoolKeyInfo = { ...pool, hooks: v2.address };
      const [sqrtPriceX96] = await stateView.getSlot0(pool.id);
      await send(
        owner,
        net.contracts.poolManager,
        POOL_MANAGER.encodeFunctionData('initialize', [poolKeyTuple(key), sqrtPriceX96]),
      );
      const liquidity = ((await stateView.getLiquidity(pool.id)) as bigint) / 20n;
      const tick = Math.floor(887272 / pool.tickSpacing) * pool.tickSpacing;
      await send(
        owner,
        net.contracts.positionManager,
        mintPosition(key, -tick, tick, liquidity, owner.address, 10n ** 30n, 10n ** 30n),
      );
      v2Pools.push(key);
    }

    const hookV3 = new Contract(net.contracts.complianceHook, COMPLIANCE_HOOK_V3, owner);
    const domainSeparator = domainSeparatorOf(
      tradeAuthorizationDomain(net.chainId, net.contracts.complianceHook),
    );
    const nonces = new NonceSource();
    const authorize = async (poolId: string, nextPoolId: string, nextAmountMax = 0n) => {
      const m = {
        trader: trader.address,
        poolId,
        kind: TRADE_KIND.swap,
        zeroForOne: true,
        amount: -AMOUNT_IN,
        nonce: nonces.next(trader.address),
        deadline: BigInt((await provider.getBlock('latest'))!.timestamp + 600),
        nextPoolId,
        nextAmountMax,
      };
      return encodeAuthorizationHookData(
        m,
        owner.signingKey.sign(tradeAuthorizationDigest(domainSeparator, m)).serialized,
      );
    };
    const single = (key: PoolKeyInfo, hookData?: string) =>
      encodeSwapCalldata({
        poolKey: key,
        zeroForOne: true,
        amountIn: AMOUNT_IN,
        amountOutMinimum: 0n,
        deadline: FAR,
        ...(hookData && { hookData: [hookData] }),
      });
    const twoHop = (pools: PoolKeyInfo[], hookData?: string) =>
      encodeSwapCalldata({
        path: { currencyIn: WETH.address, currencyOut: tEURC.address, pools },
        amountIn: AMOUNT_IN,
        amountOutMinimum: 0n,
        deadline: FAR,
        ...(hookData && { hookData: [hookData, '0x'] }),
      });

    const series = async (
      setup: () => Promise<unknown>,
      calldata: () => Promise<string>,
    ): Promise<Series> => {
      const snapshot = (await provider.send('evm_snapshot', [])) as string;
      await setup();
      const all: bigint[] = [];
      for (let i = 0; i < SWAPS; i++)
        all.push((await send(trader, net.contracts.universalRouter, await calldata())).gasUsed);
      await provider.send('evm_revert', [snapshot]);
      const sum = all.reduce((a, b) => a + b, 0n);
      return { first: all[0], average: Number(sum) / all.length, all };
    };
    const none = async () => undefined;
    const flag = async () => (await hookV3.setRequired([trader.address], true)).wait();
    const v3Id = v3Single.id;
    const v3Next = v3Second.id;
    const results = {
      single: {
        v2: await series(none, async () => single(v2Pools[0])),
        v3: await series(none, async () => single(v3Single)),
        authorized: await series(flag, async () =>
          single(v3Single, await authorize(v3Id, ZERO_POOL_ID)),
        ),
      },
      twoHop: {
        v2: await series(none, async () => twoHop(v2Pools)),
        v3: await series(none, async () => twoHop([v3Single, v3Second])),
        authorized: await series(flag, async () =>
          // The intermediate tUSDC cap: far above what 0.001 WETH buys (the bench measures gas).
          twoHop([v3Single, v3Second], await authorize(v3Id, v3Next, 10n ** 12n)),
        ),
      },
    };
    const fmt = (n: number | bigint) => Math.round(Number(n)).toLocaleString('en-US');
    console.log(`${SWAPS} swaps of one wallet, ${AMOUNT_IN} wei WETH each, exact input`);
    console.log(
      '| route | v2 avg | v3 not flagged avg (over v2) | v3 authorized avg (over v2) | first swap: v2, authorized (over v2) |',
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, r] of Object.entries(results)) {
      const over = (s: Series) => s.average - r.v2.average;
      console.log(
        `| ${name === 'single' ? 'one pool' : 'two hops'} | ${fmt(r.v2.average)} | ${fmt(r.v3.average)} (+${fmt(over(r.v3))}) | ${fmt(r.authorized.average)} (+${fmt(over(r.authorized))}) | ${fmt(r.v2.first)}, ${fmt(r.authorized.first)} (+${fmt(r.authorized.first - r.v2.first)}) |`,
      );
    }
    const worst = Math.max(
      results.single.authorized.average - results.single.v2.average,
      results.twoHop.authorized.average - results.twoHop.v2.average,
    );
    console.log(
      `goal: at most 15,000 gas per swap over v2 on average: ${fmt(worst)} (${worst <= 15_000 ? 'met' : 'NOT met'})`,
    );
    if (process.env.BENCH_JSON)
      console.log(JSON.stringify(results, (_, v) => (typeof v === 'bigint' ? Number(v) : v)));
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
