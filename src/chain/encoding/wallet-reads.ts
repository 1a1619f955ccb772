/**
 * THE wallet-read batch (spec §7 rule 3: session, balances and allowances at once): the chain
 * clock, the session expiry, balances, ERC-20 -> Permit2 and Permit2 -> spender allowances, as
 * Multicall3 calls that ride first in ONE aggregate3 eth_call (callers append their own reads,
 * e.g. a quote), and their decoding. Pure: no provider.
 *
 * One clock: the chain's. Sessions and Permit2 expiries are judged by the timestamp of the block
 * the batch ran at, read in the same batch (Multicall3.getCurrentBlockTimestamp), as the hook and
 * Permit2 judge them.
 *
 * Sanctions screening rides in the same batch: when the network names a sanctions oracle, its
 * `isSanctioned(wallet)` is the last wallet-read call (allowed to fail: a failure reads as
 * sanctioned, as the hook fails closed).
 *
 * Every call has static arguments and static results: encoded and decoded word by word
 * (abi-words.ts), which keeps this per-request batch in the microseconds.
 */
import { selectorOf, selectorsOf } from '../abi/selectors';
import { COMPLIANCE_REGISTRY } from '../abi/compliance-registry';
import { ERC20 } from '../abi/erc20';
import { MULTICALL3 } from '../abi/multicall3';
import { PERMIT2 } from '../abi/permit2';
import { SANCTIONS_LIST } from '../abi/sanctions-list';
import type { NetworkDefinition } from '../network/network.types';
import { encodeStaticCall, readWord } from './abi-words';
import { requiredRead, type Call3, type Call3Result } from './multicall';
import { checksumAddress } from '../../common/address/checksum-address';

/** A token of the network's whitelist, by its symbol (a key of NetworkDefinition.tokens). */
export type TokenSymbol = string;
/** The network's tokens, in the file's order: what a wallet read covers when no list is given. */
export function tokenSymbols(network: NetworkDefinition): TokenSymbol[] {
  return Object.keys(network.tokens);
}
/** Who pulls the tokens through Permit2: swap = UniversalRouter, liquidity = PositionManager. */
export type SpendUse = 'swap' | 'liquidity';
export const SPEND_USES: readonly SpendUse[] = ['swap', 'liquidity'];

/** Permit2 allowance wallet -> spender of one token (IAllowanceTransfer.PackedAllowance). */
export interface Permit2Allowance {
  amount: bigint;
  /** Unix seconds. Permit2 reverts AllowanceExpired only when block.timestamp > expiration. */
  expiration: number;
  /** Next nonce of a signed PermitSingle for this (token, spender). */
  nonce: number;
}

export interface WalletState {
  /** Chain time of the block the batch ran at: the clock the hook and Permit2 judge by. */
  blockTimestamp: number;
  blockNumber: number;
  session: { active: boolean; activeUntil: number | null };
  /** The network's sanctions oracle lists the wallet (or could not answer); false without an oracle. */
  sanctioned: boolean;
  /** ETH and each token read (the tokens the request needs: `symbols` of the batch). */
  balances: Record<'ETH' | TokenSymbol, bigint>;
  /** ERC-20 allowance token -> Permit2. */
  erc20ToPermit2: Record<TokenSymbol, bigint>;
  /** Permit2 allowance wallet -> spender of each use, per token. */
  permit2: Record<SpendUse, Record<TokenSymbol, Permit2Allowance>>;
  /** What the spender of each use can actually pull at blockTimestamp. */
  effective: Record<SpendUse, Record<TokenSymbol, bigint>>;
}

/** The Permit2 amount the spender may pull at `now`: zero once expired (now > expiration). */
export function permit2Usable(permit2: Permit2Allowance, now: number): bigint {
  return now > permit2.expiration ? 0n : permit2.amount;
}

/** min(ERC-20 allowance to Permit2, unexpired Permit2 allowance to the spender) (design §4). */
export function effectiveAllowance(
  erc20ToPermit2: bigint,
  permit2: Permit2Allowance,
  now: number,
): bigint {
  const usable = permit2Usable(permit2, now);
  return erc20ToPermit2 < usable ? erc20ToPermit2 : usable;
}

export function spenderOf(network: NetworkDefinition, use: SpendUse): string {
  return use === 'swap' ? network.contracts.universalRouter : network.contracts.positionManager;
}

const SELECTOR = {
  activeUntil: selectorOf(COMPLIANCE_REGISTRY, 'activeUntil'),
  isSanctioned: selectorOf(SANCTIONS_LIST, 'isSanctioned'),
  ...selectorsOf(MULTICALL3, {
    blockTimestamp: 'getCurrentBlockTimestamp',
    blockNumber: 'getBlockNumber',
    ethBalance: 'getEthBalance',
  }),
  ...selectorsOf(ERC20, { balanceOf: 'balanceOf', erc20Allowance: 'allowance' }),
  ...selectorsOf(PERMIT2, { permit2Allowance: 'allowance' }),
};

/** Calls of the batch before the tokens': clock, block number, ETH balance, session. */
const FIXED_CALLS = 4;
/** Calls per token: balance, ERC-20 -> Permit2, Permit2 -> each spender. */
const CALLS_PER_TOKEN = 2 + SPEND_USES.length;

/** Number of wallet-read calls for `tokenCount` tokens, without a sanctions oracle. */
export function walletTokenReadCallCount(tokenCount: number): number {
  return FIXED_CALLS + tokenCount * CALLS_PER_TOKEN;
}

/** Number of calls walletReadCalls() puts first in the batch on `network`; a caller's own calls follow. */
export function walletReadCallCount(
  network: NetworkDefinition,
  symbols: readonly TokenSymbol[] = tokenSymbols(network),
): number {
  return walletTokenReadCallCount(symbols.length) + (network.compliance.sanctionsOracle ? 1 : 0);
}

/**
 * Order: clock, block number, ETH balance, session, then per token of `symbols` (default: every
 * token of the network) balance, ERC-20 -> Permit2, Permit2 -> each spender; the oracle last.
 */
export function walletReadCalls(
  network: NetworkDefinition,
  walletAddress: string,
  symbols: readonly TokenSymbol[] = tokenSymbols(network),
): Call3[] {
  const c = network.contracts;
  const wallet = checksumAddress(walletAddress);
  const calls = [
    clockCall(network),
    requiredRead(c.multicall3, SELECTOR.blockNumber),
    requiredRead(c.multicall3, SELECTOR.ethBalance, [wallet]),
    sessionCall(network, wallet),
  ];
  for (const symbol of symbols) {
    const token = network.tokens[symbol].address;
    calls.push(
      requiredRead(token, SELECTOR.balanceOf, [wallet]),
      requiredRead(token, SELECTOR.erc20Allowance, [wallet, c.permit2]),
      ...SPEND_USES.map((use) =>
        requiredRead(c.permit2, SELECTOR.permit2Allowance, [
          wallet,
          token,
          spenderOf(network, use),
        ]),
      ),
    );
  }
  const oracle = network.compliance.sanctionsOracle;
  if (oracle) calls.push(sanctionsCall(oracle, wallet));
  return calls;
}

/** The chain's clock: Multicall3.getCurrentBlockTimestamp() at the batch's block. */
export function clockCall(network: NetworkDefinition): Call3 {
  return requiredRead(network.contracts.multicall3, SELECTOR.blockTimestamp);
}

/** The wallet's session: ComplianceRegistry.activeUntil(wallet). */
export function sessionCall(network: NetworkDefinition, wallet: string): Call3 {
  return requiredRead(network.contracts.complianceRegistry, SELECTOR.activeUntil, [
    checksumAddress(wallet),
  ]);
}

/** `isSanctioned(wallet)` on the oracle, allowed to fail (read by isSanctionedAnswer). */
export function sanctionsCall(oracle: string, wallet: string): Call3 {
  return {
    target: oracle,
    allowFailure: true,
    callData: encodeStaticCall(SELECTOR.isSanctioned, [checksumAddress(wallet)]),
  };
}

/** Fail closed, as the hook: only a successful, well-formed `false` clears the wallet. */
export function isSanctionedAnswer(result: Call3Result): boolean {
  return !result.success || result.returnData.length !== 66 || BigInt(result.returnData) !== 0n;
}

export function decodeWalletState(
  results: readonly Call3Result[],
  symbols: readonly TokenSymbol[],
  screened = false,
): WalletState {
  const count = walletTokenReadCallCount(symbols.length);
  if (results.length < count + (screened ? 1 : 0))
    throw new Error(`wallet-read batch is incomplete (${results.length} results)`);
  const word = (i: number, w = 0): bigint => readWord(results[i].returnData, w);
  const blockTimestamp = Number(word(0));
  const activeUntil = Number(word(3));
  const state: WalletState = {
    blockTimestamp,
    blockNumber: Number(word(1)),
    // ComplianceRegistry.isActive: block.timestamp < activeUntil.
    session: {
      active: blockTimestamp < activeUntil,
      activeUntil: activeUntil === 0 ? null : activeUntil,
    },
    sanctioned: screened ? isSanctionedAnswer(results[count]) : false,
    balances: { ETH: word(2) },
    erc20ToPermit2: {},
    permit2: { swap: {}, liquidity: {} } as WalletState['permit2'],
    effective: { swap: {}, liquidity: {} } as WalletState['effective'],
  };
  let i = FIXED_CALLS;
  for (const symbol of symbols) {
    state.balances[symbol] = word(i++);
    state.erc20ToPermit2[symbol] = word(i++);
    for (const use of SPEND_USES) {
      const permit2 = {
        amount: word(i, 0),
        expiration: Number(word(i, 1)),
        nonce: Number(word(i, 2)),
      };
      i += 1;
      state.permit2[use][symbol] = permit2;
      state.effective[use][symbol] = effectiveAllowance(
        state.erc20ToPermit2[symbol],
        permit2,
        blockTimestamp,
      );
    }
  }
  return state;
}
