import fc from 'fast-check';
import { AbiCoder, Transaction, Wallet, ZeroAddress } from 'ethers';
import { POSITION_MANAGER, UNIVERSAL_ROUTER, V4_ACTION_PLAN } from '../../src/chain/abi/uniswap-v4';
import { encodeSwapCalldata } from '../../src/defi-builder/encoding/swap-calldata';
import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { ERROR_CATALOGUE, isErrorCode } from '../../src/common/errors/error-catalogue';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';

const RUNS = Number(process.env.RELAY_FUZZ_RUNS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/**
 * Fuzzing the relay (issue 31): random byte strings and mutated signed transactions. None may
 * get a 500 or a 202, and nothing may reach the chain: no eth_sendRawTransaction, no new block,
 * no nonce used. A mutation always changes the bytes, so the signature no longer recovers the
 * funded signer: whatever decodes has a stranger (unfunded) as sender or fails a check before.
 * A second fuzz signs with the FUNDED key (its next nonce, so every check up to the allow-list
 * and the simulation is passed): random UniversalRouter commands and inputs, random v4 action
 * plans to the PositionManager, built swaps with a command slipped in, an allow-revert flag or
 * a foreign value, and built swaps with random gas limits (the wallet has no session: a
 * builder-shaped swap must be refused by the simulation). Only 4xx, never a send.
 */
describe('Fuzzing the relay', () => {
  let chain: DevnetHandle;
  let t: TestApp;
  let accessToken: string;
  let signer: Wallet;
  const valid: string[] = [];

  beforeAll(async () => {
    chain = await acquireDevnet();
    t = await createTestApp({ env: chain.env });
    const account = await t.createAccount({ plan: 'enterprise' });
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 1_000_000);
    accessToken = await login(t, account);
    signer = chain.wallets[3];
    const { permit2, universalRouter, positionManager, complianceRegistry } = chain.addresses;
    const word = (hex: string) => hex.slice(2).toLowerCase().padStart(64, '0');
    const calls: Array<{ to: string; data: string; value?: bigint; type?: number }> = [
      { to: chain.addresses.WETH, data: `0x095ea7b3${word(permit2)}${'f'.repeat(64)}` },
      { to: chain.addresses.tUSDC, data: `0x095ea7b3${word(permit2)}${'0'.repeat(63)}1`, type: 0 },
      {
        to: permit2,
        data: `0x87517c45${word(chain.addresses.WETH)}${word(universalRouter)}${'f'.repeat(64)}${'0'.repeat(56)}ffffffff`,
      },
      { to: universalRouter, data: `0x3593564c${'00'.repeat(96)}`, value: 10n ** 15n },
      { to: positionManager, data: `0xdd46508f${'00'.repeat(64)}`, type: 1 },
      { to: complianceRegistry, data: '0x12345678' },
    ];
    for (const [i, call] of calls.entries()) {
      const populated = await signer.populateTransaction({
        // Nonce 0 for half: a mutated copy's stranger sender passes the nonce check and reaches
        // the later phases (balance, simulation).
        ...(i % 2 === 0 && { nonce: 0 }),
        to: call.to,
        data: call.data,
        value: call.value ?? 0n,
        gasLimit: 300_000n,
        type: call.type ?? 2,
      });
      valid.push(await signer.signTransaction(populated));
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.release();
  });

  it(`answers ${2 * RUNS} random byte strings and mutated signed transactions with envelopes, sending nothing`, async () => {
    const nonceBefore = await signer.getNonce('pending');
    const blockBefore = await chain.provider.getBlockNumber();
    await chain.resetRpcCount();
    const seen = new Map<string, number>();

    const randomBytes = fc.oneof(
      fc.uint8Array({ maxLength: 600 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
      // Typed-envelope prefixes (EIP-2718) followed by noise, and RLP-list-looking noise.
      fc
        .tuple(
          fc.constantFrom('01', '02', '03', '04', 'f8', 'f9', 'c0', ''),
          fc.uint8Array({ maxLength: 300 }),
        )
        .map(([prefix, b]) => `0x${prefix}${Buffer.from(b).toString('hex')}`),
      fc.string({ maxLength: 80 }),
    );
    const mutated = fc
      .record({
        base: fc.constantFrom(...valid),
        at: fc.nat(),
        xor: fc.integer({ min: 1, max: 255 }),
        kind: fc.constantFrom('flip', 'insert', 'delete', 'truncate', 'append', 'chain'),
        extra: fc.uint8Array({ minLength: 1, maxLength: 8 }),
      })
      .map(({ base, at, xor, kind, extra }) => mutate(base, at, xor, kind, extra))
      .filter((raw) => !valid.includes(raw));

    const check = async (signedTransaction: string) => {
      const res = await request(t.server)
        .post('/api/v1/defi/transactions')
        .set('Authorization', `Bearer ${accessToken}`)
        .send({ signedTransaction });
      const code = String(res.body?.code);
      seen.set(`${res.status} ${code}`, (seen.get(`${res.status} ${code}`) ?? 0) + 1);
      if (res.status >= 500 || res.status < 400 || !isErrorCode(code))
        throw new Error(`${res.status} ${JSON.stringify(res.body)} for ${signedTransaction}`);
      expect(ERROR_CATALOGUE[code].status).toBe(res.status);
    };
    await fc.assert(fc.asyncProperty(randomBytes, check), { numRuns: RUNS, seed: SEED });
    await fc.assert(fc.asyncProperty(mutated, check), { numRuns: RUNS, seed: SEED });

    console.info(`relay fuzz (seed ${SEED}): ${JSON.stringify(Object.fromEntries(seen))}`);
    expect(await chain.rpcRequestCount('eth_sendRawTransaction')).toBe(0);
    expect(await chain.provider.getBlockNumber()).toBe(blockBefore);
    expect(await signer.getNonce('pending')).toBe(nonceBefore);
  }, 600_000);

  it(`answers ${RUNS} transactions of every shape signed by a funded key with 4xx, sending nothing`, async () => {
    const nonce = await signer.getNonce('pending');
    const blockBefore = await chain.provider.getBlockNumber();
    await chain.resetRpcCount();
    const seen = new Map<string, number>();
    const abi = AbiCoder.defaultAbiCoder();
    const { universalRouter, positionManager } = chain.addresses;
    const pool = chain.network.pool;
    const other = chain.wallets[7].address;
    const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
    const address = fc.constantFrom(
      ZeroAddress,
      other,
      signer.address,
      universalRouter,
      positionManager,
      '0x0000000000000000000000000000000000000001',
      '0x0000000000000000000000000000000000000002',
      pool.currency0,
      pool.currency1,
    );
    const amount = fc.constantFrom(0n, 1n, 10n ** 15n, 2n ** 128n - 1n);
    // A command's or action's input: noise, or three plausible words (token, recipient, amount).
    const input = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map(hex),
      fc
        .tuple(address, address, amount)
        .map((words) => abi.encode(['address', 'address', 'uint256'], words)),
    );
    const code = fc.oneof(
      // TRANSFER, SWEEP, PAY_PORTION, PERMIT2_TRANSFER_FROM, WRAP/UNWRAP, V4_SWAP, initialize, sub-plan
      fc.constantFrom(0x04, 0x05, 0x06, 0x02, 0x0a, 0x0b, 0x0c, 0x10, 0x13, 0x21, 0x90, 0x85),
      fc.integer({ min: 0, max: 255 }),
    );
    const byte = (n: number) => n.toString(16).padStart(2, '0');
    const commands = (codes: number[]) => `0x${codes.map(byte).join('')}`;
    const deadline = 2n ** 40n;
    const swapVariant = fc
      .record({
        exactOut: fc.boolean(),
        zeroForOne: fc.boolean(),
        eth: fc.constantFrom('none', 'in', 'out'),
        amount: fc.bigInt({ min: 1n, max: 10n ** 20n }),
      })
      .map(({ exactOut, zeroForOne, eth, amount: a }) => {
        const wethIs0 = pool.currency0.toLowerCase() === chain.addresses.WETH.toLowerCase();
        const z = eth === 'in' ? wethIs0 : eth === 'out' ? !wethIs0 : zeroForOne;
        const data = encodeSwapCalldata({
          ...(exactOut
            ? { tradeType: 'EXACT_OUTPUT' as const, amountOut: a, amountInMaximum: a * 2n }
            : { tradeType: 'EXACT_INPUT' as const, amountIn: a, amountOutMinimum: 0n }),
          poolKey: pool,
          zeroForOne: z,
          deadline,
          ethIn: eth === 'in',
          ethOut: eth === 'out',
        });
        return { data, value: eth === 'in' ? (exactOut ? a * 2n : a) : 0n };
      });
    // Two-hop swaps as the builder writes them (issue 42): over the market's listed pools.
    const byToken = (a: string, b: string) =>
      chain.network.pools.find(
        (p) => [p.currency0, p.currency1].includes(a) && [p.currency0, p.currency1].includes(b),
      )!;
    const { tWBTC, tUSDC, WETH } = chain.network.tokens;
    const hopPools = [byToken(tWBTC.address, WETH.address), byToken(WETH.address, tUSDC.address)];
    const twoHopVariant = fc
      .record({
        exactOut: fc.boolean(),
        reverse: fc.boolean(),
        amount: fc.bigInt({ min: 1n, max: 10n ** 20n }),
      })
      .map(({ exactOut, reverse, amount: a }) => ({
        data: encodeSwapCalldata({
          ...(exactOut
            ? { tradeType: 'EXACT_OUTPUT' as const, amountOut: a, amountInMaximum: a * 2n }
            : { tradeType: 'EXACT_INPUT' as const, amountIn: a, amountOutMinimum: 0n }),
          path: reverse
            ? {
                currencyIn: tUSDC.address,
                currencyOut: tWBTC.address,
                pools: [...hopPools].reverse(),
              }
            : { currencyIn: tWBTC.address, currencyOut: tUSDC.address, pools: hopPools },
          deadline,
        }),
        value: 0n,
      }));
    const anySwap = fc.oneof(swapVariant, twoHopVariant);
    const value = fc.constantFrom(0n, 1n, 10n ** 15n);
    const gasLimit = fc.constantFrom(21_000n, 23_000n, 60_000n, 300_000n, 1_000_000n, 2n ** 40n);

    const shapes = fc.oneof(
      // Random router plans.
      fc
        .record({
          codes: fc.array(code, { maxLength: 5 }),
          inputs: fc.array(input, { maxLength: 5 }),
          value,
          gasLimit,
        })
        .map(({ codes, inputs, value: v, gasLimit: g }) => ({
          to: universalRouter,
          data: UNIVERSAL_ROUTER.encodeFunctionData('execute', [commands(codes), inputs, deadline]),
          value: v,
          gasLimit: g,
        })),
      // Random PositionManager action plans.
      fc
        .record({
          actions: fc.array(fc.integer({ min: 0, max: 0x20 }), { maxLength: 4 }),
          params: fc.array(input, { maxLength: 4 }),
          value,
          gasLimit,
        })
        .map(({ actions, params, value: v, gasLimit: g }) => ({
          to: positionManager,
          data: POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
            abi.encode(V4_ACTION_PLAN, [commands(actions), params]),
            deadline,
          ]),
          value: v,
          gasLimit: g,
        })),
      // A built swap with a command slipped in, or its V4_SWAP flagged allow-revert.
      fc
        .record({
          swap: anySwap,
          extra: code,
          extraInput: input,
          at: fc.nat(),
          flag: fc.boolean(),
        })
        .map(({ swap, extra, extraInput, at, flag }) => {
          const [cmds, inputs] = UNIVERSAL_ROUTER.decodeFunctionData('execute', swap.data);
          const codes = ((cmds as string).slice(2).match(/../g) ?? []).map((b) => parseInt(b, 16));
          const list = [...(inputs as string[])];
          if (flag) codes[codes.indexOf(0x10)] |= 0x80;
          else {
            codes.splice(at % (codes.length + 1), 0, extra);
            list.splice(at % (list.length + 1), 0, extraInput);
          }
          return {
            to: universalRouter,
            data: UNIVERSAL_ROUTER.encodeFunctionData('execute', [commands(codes), list, deadline]),
            value: swap.value,
            gasLimit: 300_000n,
          };
        }),
      // A built swap as is, with a random value or gas limit: the allow-list, the gas checks or
      // the simulation (no session: the hook refuses) stop it.
      fc
        .record({ swap: anySwap, value: fc.option(value), gasLimit })
        .map(({ swap, value: v, gasLimit: g }) => ({
          to: universalRouter,
          data: swap.data,
          value: v ?? swap.value,
          gasLimit: g,
        })),
    );

    const check = async (call: { to: string; data: string; value: bigint; gasLimit: bigint }) => {
      const signedTransaction = await signer.signTransaction(
        await signer.populateTransaction({ ...call, nonce, type: 2 }),
      );
      const res = await request(t.server)
        .post('/api/v1/defi/transactions')
        .set('Authorization', `Bearer ${accessToken}`)
        .send({ signedTransaction });
      const code = String(res.body?.code);
      seen.set(`${res.status} ${code}`, (seen.get(`${res.status} ${code}`) ?? 0) + 1);
      if (res.status >= 500 || res.status < 400 || !isErrorCode(code))
        throw new Error(
          `${res.status} ${JSON.stringify(res.body)} for ${JSON.stringify(call, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
        );
      expect(ERROR_CATALOGUE[code].status).toBe(res.status);
    };
    await fc.assert(fc.asyncProperty(shapes, check), { numRuns: RUNS, seed: SEED });

    console.info(`relay funded fuzz (seed ${SEED}): ${JSON.stringify(Object.fromEntries(seen))}`);
    expect(seen.get('400 BROADCAST_TARGET_NOT_ALLOWED') ?? 0).toBeGreaterThan(0);
    expect(await chain.rpcRequestCount('eth_sendRawTransaction')).toBe(0);
    expect(await chain.provider.getBlockNumber()).toBe(blockBefore);
    expect(await signer.getNonce('pending')).toBe(nonce);
  }, 600_000);
});

/** One change to a signed transaction's bytes; never the identity. */
function mutate(raw: string, at: number, xor: number, kind: string, extra: Uint8Array): string {
  const bytes = Buffer.from(raw.slice(2), 'hex');
  const i = at % bytes.length;
  const noise = Buffer.from(extra);
  switch (kind) {
    case 'flip':
      bytes[i] ^= xor;
      return `0x${bytes.toString('hex')}`;
    case 'insert':
      return `0x${Buffer.concat([bytes.subarray(0, i), noise, bytes.subarray(i)]).toString('hex')}`;
    case 'delete':
      return `0x${Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]).toString('hex')}`;
    case 'truncate':
      return `0x${bytes.subarray(0, i).toString('hex')}`;
    case 'append':
      return `0x${Buffer.concat([bytes, noise]).toString('hex')}`;
    default: {
      // Another chain id under the same signature (typed transactions; a legacy v encodes it).
      const copy = Transaction.from(raw);
      if (copy.type === 0) return mutate(raw, at, xor, 'flip', extra);
      copy.chainId = BigInt(84_533 + (at % 100_000));
      return copy.serialized;
    }
  }
}
