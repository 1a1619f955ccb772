/**
 * No open relay: the only transactions the relay sends are those this service's builders
 * produce, decoded down to every command, action and parameter, and their kind follows from that
 * shape. Everything else is 400 BROADCAST_TARGET_NOT_ALLOWED naming what was refused. Pure.
 *
 * The shapes (read from the builders; broadcast-targets.spec.ts runs the builders' own encoders
 * through this file so the two cannot drift apart):
 *   UniversalRouter execute (encoding/swap-calldata.ts), commands exactly
 *     [PERMIT2_PERMIT] [WRAP_ETH(ADDRESS_THIS, value)] V4_SWAP [UNWRAP_WETH(MSG_SENDER)]
 *     with no allow-revert flag; V4_SWAP = SWAP_EXACT_IN_SINGLE | SWAP_EXACT_OUT_SINGLE on a
 *     listed pool, or SWAP_EXACT_IN | SWAP_EXACT_OUT over a two-hop path of listed pools (each
 *     with the compliance hook, empty hookData), then SETTLE(in, payerIsUser=false)
 *     after a WRAP_ETH or SETTLE_ALL(in), then TAKE(WETH, ADDRESS_THIS, open delta) before an
 *     UNWRAP_WETH or TAKE_ALL(out); the permit names a supported token and the router; value is
 *     0, or with WRAP_ETH exactly the wrapped amount.
 *   PositionManager modifyLiquidities (encoding/liquidity-calldata.ts, position-calldata.ts):
 *     MINT_POSITION + SETTLE_PAIR (mint), INCREASE_LIQUIDITY + CLOSE_CURRENCY x2 (increase),
 *     DECREASE_LIQUIDITY | BURN_POSITION + TAKE_PAIR (decrease; DECREASE of 0 liquidity: collect);
 *     the mint's pool key a listed pool with the compliance hook and SETTLE_PAIR its currencies,
 *     the currencies of an increase those of a listed pool, of a decrease, collect or burn those
 *     of a listed or deprecated pool (its positions can always be exited); the mint owner and the TAKE_PAIR
 *     recipient pass the payout rule (pipeline/payout-recipients.ts; TAKE_PAIR may also name the
 *     MSG_SENDER marker, as the SDK's decrease does); value 0. A multicall holds at most one
 *     permitBatch (owner = the sender, spender = the PositionManager, supported tokens) and then
 *     exactly one modifyLiquidities (encoding/permit-batch-calldata.ts).
 *   Permit2 approve(supported token, UniversalRouter | PositionManager, amount, expiration), and
 *   a supported token's approve(Permit2, amount) (encoding/approvals.ts): value 0.
 * Every level must be in canonical ABI encoding (decode, re-encode, same bytes): nothing rides
 * along unseen.
 *
 * Codes: universal-router Commands.sol (CommandType), v4-periphery Actions.sol (Actions).
 */
import { CommandType, ROUTER_AS_RECIPIENT } from '@uniswap/universal-router-sdk';
import { Actions } from '@uniswap/v4-sdk';
import { AbiCoder, FunctionFragment, getAddress, Result } from 'ethers';
import { ERC20 } from '../../chain/abi/erc20';
import { PERMIT2 } from '../../chain/abi/permit2';
import {
  POSITION_MANAGER,
  UNIVERSAL_ROUTER,
  UNIVERSAL_ROUTER_INPUTS,
  V4_ACTION_PARAMS,
  V4_ACTION_PLAN,
} from '../../chain/abi/uniswap-v4';
import {
  decodeAuthorizationHookData,
  ROUTE_AUTHORIZATION_HOOKDATA_BYTES,
  TRADE_AUTHORIZATION_HOOKDATA_BYTES,
} from '../../chain/encoding/trade-authorization';
import type { NetworkDefinition, PoolKeyInfo } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import { MSG_SENDER_MARKER, refusedPayoutReason } from '../pipeline/payout-recipients';
import { listedPool } from '../routing/market-pools';

export const TX_KINDS = [
  'swap',
  'mint',
  'increase',
  'decrease',
  'collect',
  'approval',
  'permit2-approval',
] as const;
export type TxKind = (typeof TX_KINDS)[number];

const EXECUTE = UNIVERSAL_ROUTER.getFunction('execute')!;
const MODIFY_LIQUIDITIES = POSITION_MANAGER.getFunction('modifyLiquidities')!;
const MULTICALL = POSITION_MANAGER.getFunction('multicall')!;
const PERMIT_BATCH = POSITION_MANAGER.getFunction('permitBatch')!;
const PERMIT2_APPROVE = PERMIT2.getFunction('approve')!;
const ERC20_APPROVE = ERC20.getFunction('approve')!;
const abi = AbiCoder.defaultAbiCoder();
const ADDRESS_THIS = getAddress(ROUTER_AS_RECIPIENT);

export interface TargetCall {
  to: string | null;
  data: string;
  /** The signer; required for a PositionManager multicall with a permitBatch. */
  from?: string;
  /** Wei sent; absent means 0. */
  value?: bigint;
}

/** What in the call was refused, for details[] (command/action name, its field). */
interface RefusedPart {
  command?: string;
  action?: string;
  parameter?: string;
}

/** Why a call is not one the relay sends: the message of BROADCAST_TARGET_NOT_ALLOWED. */
class NotAllowed extends Error {
  constructor(
    message: string,
    readonly part: RefusedPart = {},
  ) {
    super(message);
  }
}

function selectorOf(data: string): string | null {
  return data.length >= 10 ? data.slice(0, 10).toLowerCase() : null;
}

function same(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

const nameOf = <T extends Record<string, unknown>>(enumObj: T, code: number): string =>
  (enumObj as Record<number, string>)[code] ?? `0x${code.toString(16).padStart(2, '0')}`;
const commandName = (code: number) => nameOf(CommandType, code);
const actionName = (code: number) => nameOf(Actions, code);

/**
 * `data` decoded as `types`, only when it is their canonical encoding (re-encoding gives the same
 * bytes): trailing bytes, dirty padding or odd offsets are refused, not ignored.
 */
function decodeExact(types: readonly string[], data: string, what: string, part?: RefusedPart) {
  let values: Result;
  try {
    values = abi.decode(types, data);
    // ethers v6 defers a bad item's error to its access: toArray(true) raises it here.
    values.toArray(true);
    if (abi.encode(types, values).toLowerCase() !== data.toLowerCase()) throw new Error('padding');
  } catch {
    throw new NotAllowed(`its ${what} does not decode as the service encodes it`, part);
  }
  return values;
}

function decodeCall(fragment: FunctionFragment, data: string, what: string): Result {
  if (selectorOf(data) !== fragment.selector)
    throw new NotAllowed(`${what}: expected ${fragment.format('sighash')}`);
  return decodeExact(
    fragment.inputs.map((p) => p.format('full')),
    `0x${data.slice(10)}`,
    `${fragment.name} calldata`,
  );
}

function supportedToken(network: NetworkDefinition, address: unknown): boolean {
  return Object.values(network.tokens).some((token) => same(address, token.address));
}

function bytesOf(hex: string): number[] {
  return (hex.slice(2).match(/../g) ?? []).map((byte) => parseInt(byte, 16));
}

/** The v4 action plan abi.encode(actions, params): the action codes with their decoded params. */
function actionPlan(encoded: string, where: string): Array<{ code: number; params: string }> {
  const [actions, params] = decodeExact(V4_ACTION_PLAN, encoded, `${where} action plan`);
  const codes = bytesOf(actions as string);
  if (codes.length !== (params as string[]).length)
    throw new NotAllowed(
      `its ${where} action plan has ${codes.length} actions for ${params.length} params`,
    );
  return codes.map((code, i) => ({ code, params: (params as string[])[i] }));
}

function actionParams(action: keyof typeof V4_ACTION_PARAMS, params: string): Result {
  return decodeExact(V4_ACTION_PARAMS[action], params, `${action} params`, { action });
}

function checkEmptyHookData(hookData: unknown, action: string): void {
  if (hookData !== '0x')
    throw new NotAllowed(`its ${action} carries hookData; the service sends none`, {
      action,
      parameter: 'hookData',
    });
}

/**
 * An entry (swap, mint, increase) into a pool of hook v3 may carry the hook's authorization
 * (issue 54: 160 bytes, trade-authorization.ts), which the hook verifies itself; anything else,
 * and any hookData on an older hook's network, is refused as before.
 */
function checkEntryHookData(network: NetworkDefinition, hookData: unknown, action: string): void {
  if (hookData === '0x') return;
  if (network.hookVersion !== 3) return checkEmptyHookData(hookData, action);
  if (typeof hookData !== 'string' || decodeAuthorizationHookData(hookData) === null)
    throw new NotAllowed(
      `its ${action} carries hookData that is not a trade authorization of the hook (${TRADE_AUTHORIZATION_HOOKDATA_BYTES} or ${ROUTE_AUTHORIZATION_HOOKDATA_BYTES} bytes)`,
      { action, parameter: 'hookData' },
    );
}

function checkValue(value: bigint, what: string): void {
  if (value !== 0n)
    throw new NotAllowed(`it sends ${value} wei with ${what}, which takes no ETH`, {
      parameter: 'value',
    });
}

function checkCurrency(actual: unknown, expected: string, action: string, parameter = 'currency') {
  if (!same(actual, expected))
    throw new NotAllowed(
      `its ${action} ${parameter} is ${String(actual)}, not ${getAddress(expected)}`,
      { action, parameter },
    );
}

// ---------------------------------------------------------------------------------------------
// UniversalRouter

/** [PERMIT2_PERMIT] [WRAP_ETH] V4_SWAP [UNWRAP_WETH], as swap-calldata.ts writes them. */
const SWAP_COMMANDS = new RegExp(
  `^(${hex(CommandType.PERMIT2_PERMIT)})?(${hex(CommandType.WRAP_ETH)})?${hex(CommandType.V4_SWAP)}(${hex(CommandType.UNWRAP_WETH)})?$`,
);
function hex(code: number): string {
  return code.toString(16).padStart(2, '0');
}

const SWAP_ACTIONS = [
  'SWAP_EXACT_IN_SINGLE',
  'SWAP_EXACT_OUT_SINGLE',
  'SWAP_EXACT_IN',
  'SWAP_EXACT_OUT',
] as const;

/** What a swap action may spend, and the currencies it pays and receives. */
interface SwapEnds {
  maxIn: bigint;
  currencyIn: string;
  currencyOut: string;
}

/** A pool a swap (or a mint) names is a listed, current pool with the network's compliance hook. */
function checkSwapPool(network: NetworkDefinition, key: readonly unknown[], action: string): void {
  const [currency0, currency1, fee, tickSpacing, hooks] = key;
  const ours =
    same(hooks, network.contracts.complianceHook) &&
    listedPool(network, [currency0, currency1, fee, tickSpacing, hooks]) !== undefined;
  if (!ours)
    throw new NotAllowed(
      `its ${action} names pool (${[currency0, currency1, fee, tickSpacing, hooks].join(', ')}), not a listed pool with the compliance hook`,
      { action, parameter: 'poolKey' },
    );
}

/** SWAP_EXACT_IN_SINGLE | SWAP_EXACT_OUT_SINGLE over one listed pool (encoding/swap-calldata.ts). */
function swapPool(
  network: NetworkDefinition,
  action: 'SWAP_EXACT_IN_SINGLE' | 'SWAP_EXACT_OUT_SINGLE',
  encoded: string,
): SwapEnds {
  const [params] = actionParams(action, encoded);
  const [poolKey, zeroForOne, exactAmount, limitAmount, hookData] = params as Result;
  const key = [...(poolKey as Result)];
  checkSwapPool(network, key, action);
  checkEntryHookData(network, hookData, action);
  const [currencyIn, currencyOut] = (zeroForOne ? [key[0], key[1]] : [key[1], key[0]]) as string[];
  // amountIn (exact in) or amountInMaximum (exact out)
  const maxIn = (action === 'SWAP_EXACT_IN_SINGLE' ? exactAmount : limitAmount) as bigint;
  return { maxIn, currencyIn, currencyOut };
}

/**
 * SWAP_EXACT_IN | SWAP_EXACT_OUT over a two-hop path (issue 42): each PathKey, with the currency
 * it is reached from, makes a listed pool with our hook and no hookData. V4Router walks an exact
 * input from currencyIn forwards and an exact output from currencyOut backwards.
 */
function swapPath(
  network: NetworkDefinition,
  action: 'SWAP_EXACT_IN' | 'SWAP_EXACT_OUT',
  encoded: string,
): SwapEnds {
  const [params] = actionParams(action, encoded);
  const [currency, path, hopPrices, exactAmount, limitAmount] = params as Result;
  const keys = [...(path as Result)] as Result[];
  if ((hopPrices as Result).length !== 0)
    throw new NotAllowed(`its ${action} sets per-hop price floors; the service sends none`, {
      action,
      parameter: 'minHopPriceX36',
    });
  if (keys.length !== 2)
    throw new NotAllowed(
      `its ${action} path has ${keys.length} hops; the service routes two (one pool is the _SINGLE action)`,
      { action, parameter: 'path' },
    );
  const exactIn = action === 'SWAP_EXACT_IN';
  let from = currency as string;
  for (const [next, fee, tickSpacing, hooks, hookData] of exactIn ? keys : keys.reverse()) {
    checkEntryHookData(network, hookData, action);
    const pair = BigInt(from) < BigInt(next as string) ? [from, next] : [next, from];
    checkSwapPool(network, [...pair, fee, tickSpacing, hooks], action);
    from = next as string;
  }
  if (same(from, currency as string))
    throw new NotAllowed(`its ${action} path ends in the currency it starts from`, {
      action,
      parameter: 'path',
    });
  const [currencyIn, currencyOut] = exactIn
    ? [currency as string, from]
    : [from, currency as string];
  return { maxIn: (exactIn ? exactAmount : limitAmount) as bigint, currencyIn, currencyOut };
}

function checkSwap(network: NetworkDefinition, call: TargetCall): TxKind {
  const [commands, inputs] = decodeCall(
    EXECUTE,
    call.data,
    'the UniversalRouter is relayed for execute(commands, inputs, deadline) only',
  );
  const codes = bytesOf(commands as string);
  for (const code of codes) {
    if (code & 0x80)
      throw new NotAllowed(
        `its command ${commandName(code & 0x7f)} carries the allow-revert flag (0x80)`,
        { command: commandName(code & 0x7f), parameter: 'commands' },
      );
  }
  const shape = SWAP_COMMANDS.exec((commands as string).slice(2).toLowerCase());
  if (!shape) {
    const foreign = codes.find(
      (c) =>
        ![
          CommandType.PERMIT2_PERMIT,
          CommandType.WRAP_ETH,
          CommandType.V4_SWAP,
          CommandType.UNWRAP_WETH,
        ].includes(c),
    );
    throw new NotAllowed(
      foreign !== undefined
        ? `its command ${commandName(foreign)} is not one the service sends`
        : `its commands ${codes.map(commandName).join(', ') || '(none)'} are not [PERMIT2_PERMIT] [WRAP_ETH] V4_SWAP [UNWRAP_WETH]`,
      { command: foreign !== undefined ? commandName(foreign) : undefined, parameter: 'commands' },
    );
  }
  if ((inputs as string[]).length !== codes.length)
    throw new NotAllowed(`it has ${codes.length} commands for ${inputs.length} inputs`, {
      parameter: 'inputs',
    });
  const input = [...(inputs as string[])];
  const [, permit, wrap, unwrap] = shape;
  const value = call.value ?? 0n;
  const { contracts, tokens } = network;

  if (permit) {
    const command = 'PERMIT2_PERMIT';
    const [single] = decodeExact(
      UNIVERSAL_ROUTER_INPUTS.PERMIT2_PERMIT,
      input.shift()!,
      `${command} input`,
      { command },
    );
    const [details, spender] = single as Result;
    const token = (details as Result)[0];
    if (!supportedToken(network, token))
      throw new NotAllowed(`its ${command} is for ${String(token)}, not a supported token`, {
        command,
        parameter: 'token',
      });
    if (!same(spender, contracts.universalRouter))
      throw new NotAllowed(
        `its ${command} names spender ${String(spender)}; only the UniversalRouter`,
        { command, parameter: 'spender' },
      );
  }
  let wrapped: bigint | undefined;
  if (wrap) {
    const command = 'WRAP_ETH';
    const [recipient, amount] = decodeExact(
      UNIVERSAL_ROUTER_INPUTS.WRAP_ETH,
      input.shift()!,
      `${command} input`,
      { command },
    );
    if (!same(recipient, ADDRESS_THIS))
      throw new NotAllowed(
        `its ${command} wraps for ${String(recipient)}; the router (ADDRESS_THIS) only`,
        { command, parameter: 'recipient' },
      );
    wrapped = amount as bigint;
    if (value !== wrapped)
      throw new NotAllowed(`it sends ${value} wei but wraps ${wrapped}`, {
        command,
        parameter: 'value',
      });
  } else checkValue(value, 'a swap without WRAP_ETH');

  // V4_SWAP: swap (one pool or a two-hop path), settle, take.
  const plan = actionPlan(input.shift()!, 'V4_SWAP');
  const names = plan.map((a) => actionName(a.code));
  const [swap, settle, take] = plan;
  const swapName = SWAP_ACTIONS.find((name) => Actions[name] === swap?.code);
  if (
    plan.length !== 3 ||
    swapName === undefined ||
    ![Actions.SETTLE, Actions.SETTLE_ALL].includes(settle.code) ||
    ![Actions.TAKE, Actions.TAKE_ALL].includes(take.code)
  ) {
    const foreign = names.find(
      (n) => ![...SWAP_ACTIONS, 'SETTLE', 'SETTLE_ALL', 'TAKE', 'TAKE_ALL'].includes(n),
    );
    throw new NotAllowed(
      `its V4_SWAP actions ${names.join(', ') || '(none)'} are not a swap (one pool or a path), settle, take`,
      { command: 'V4_SWAP', action: foreign, parameter: 'actions' },
    );
  }
  const exactIn = swapName === 'SWAP_EXACT_IN_SINGLE' || swapName === 'SWAP_EXACT_IN';
  const exactOut = !exactIn;
  const { maxIn, currencyIn, currencyOut } =
    swapName === 'SWAP_EXACT_IN' || swapName === 'SWAP_EXACT_OUT'
      ? swapPath(network, swapName, swap.params)
      : swapPool(network, swapName, swap.params);

  if (settle.code === Actions.SETTLE) {
    // The router pays with the ETH it wrapped.
    const [currency, settled, payerIsUser] = actionParams('SETTLE', settle.params);
    checkCurrency(currency, currencyIn, 'SETTLE');
    if (!wrap || !same(currencyIn, tokens.WETH.address) || payerIsUser !== false)
      throw new NotAllowed(
        'its SETTLE pays from the router without a WRAP_ETH of the WETH it owes',
        {
          action: 'SETTLE',
        },
      );
    // The builder wraps exactly what the swap may spend and settles it all (exact in) or the
    // open delta with the rest refunded by UNWRAP_WETH (exact out): no WETH is left in the router.
    if (wrapped !== maxIn || settled !== (exactIn ? maxIn : 0n))
      throw new NotAllowed(
        `its WRAP_ETH (${wrapped}) and SETTLE (${settled}) do not match the swap's ${maxIn} in`,
        { action: 'SETTLE', parameter: 'amount' },
      );
  } else {
    const [currency] = actionParams('SETTLE_ALL', settle.params);
    checkCurrency(currency, currencyIn, 'SETTLE_ALL');
    if (wrap)
      throw new NotAllowed('it wraps ETH but settles from the user (SETTLE_ALL)', {
        action: 'SETTLE_ALL',
      });
  }

  if (take.code === Actions.TAKE) {
    // The router takes the WETH it unwraps to the sender.
    const [currency, recipient, amount] = actionParams('TAKE', take.params);
    checkCurrency(currency, currencyOut, 'TAKE');
    if (!same(recipient, ADDRESS_THIS))
      throw new NotAllowed(
        `its TAKE pays ${String(recipient)}; the service takes to the router only, to unwrap`,
        {
          action: 'TAKE',
          parameter: 'recipient',
        },
      );
    if (!unwrap || !same(currencyOut, tokens.WETH.address) || amount !== 0n)
      throw new NotAllowed('its TAKE is not the open delta of WETH followed by UNWRAP_WETH', {
        action: 'TAKE',
      });
  } else {
    const [currency] = actionParams('TAKE_ALL', take.params);
    checkCurrency(currency, currencyOut, 'TAKE_ALL');
  }

  if (unwrap) {
    const command = 'UNWRAP_WETH';
    const [recipient, amountMin] = decodeExact(
      UNIVERSAL_ROUTER_INPUTS.UNWRAP_WETH,
      input.shift()!,
      `${command} input`,
      { command },
    );
    if (!same(recipient, MSG_SENDER_MARKER))
      throw new NotAllowed(
        `its ${command} pays ${String(recipient)}; the service unwraps to the sender only`,
        {
          command,
          parameter: 'recipient',
        },
      );
    const ethOut = take.code === Actions.TAKE;
    const refund = wrap && exactOut && amountMin === 0n;
    if (!ethOut && !refund)
      throw new NotAllowed(`its ${command} unwraps WETH the swap does not take or refund`, {
        command,
      });
  }
  if (wrap && exactOut && !unwrap)
    throw new NotAllowed(
      'it pays ETH for an exact output without the UNWRAP_WETH that refunds what the swap leaves',
      { command: 'UNWRAP_WETH' },
    );
  return 'swap';
}

// ---------------------------------------------------------------------------------------------
// PositionManager

function checkPayout(
  network: NetworkDefinition,
  address: unknown,
  action: string,
  parameter: string,
  marker = false,
) {
  if (marker && same(address, MSG_SENDER_MARKER)) return;
  const reason = refusedPayoutReason(network, String(address));
  if (reason)
    throw new NotAllowed(`its ${action} ${parameter} ${String(address)} is ${reason}`, {
      action,
      parameter,
    });
}

/**
 * The currencies an increase settles (CLOSE_CURRENCY) or an exit takes (TAKE_PAIR), in order, are
 * those of a listed pool with the compliance hook, or for an exit of a deprecated pool too (issue
 * 53: every pool of the market, not only the default one). The position's pool follows from its
 * tokenId on chain: currencies of another pool leave its deltas unsettled and the call reverts.
 */
function checkPoolPair(
  network: NetworkDefinition,
  [currency0, currency1]: unknown[],
  action: string,
  { exit }: { exit: boolean },
): void {
  const pairOf = (key: PoolKeyInfo) =>
    same(currency0, key.currency0) && same(currency1, key.currency1);
  const current = (p: PoolKeyInfo) =>
    same(p.hooks, network.contracts.complianceHook) &&
    listedPool(network, [p.currency0, p.currency1, p.fee, p.tickSpacing, p.hooks]) !== undefined;
  const ours =
    network.pools.some((p) => pairOf(p) && current(p)) ||
    (exit && network.deprecatedPools.some((p) => pairOf(p.key)));
  if (!ours)
    throw new NotAllowed(
      `its ${action} currencies (${String(currency0)}, ${String(currency1)}) are not those of a ${exit ? 'listed or deprecated' : 'listed'} pool with the compliance hook`,
      { action, parameter: 'currency' },
    );
}

/** The kind of a modifyLiquidities(unlockData, deadline) call with one of the builders' plans. */
function liquidityKind(network: NetworkDefinition, data: string): TxKind {
  const [unlockData] = decodeCall(MODIFY_LIQUIDITIES, data, 'modifyLiquidities');
  const plan = actionPlan(unlockData as string, 'modifyLiquidities');
  const names = plan.map((a) => actionName(a.code));
  const shape = names.join(',');

  if (shape === 'MINT_POSITION,SETTLE_PAIR') {
    const [poolKey, , , , , , owner, hookData] = actionParams('MINT_POSITION', plan[0].params);
    const [currency0, currency1] = poolKey as Result;
    checkSwapPool(network, [...(poolKey as Result)], 'MINT_POSITION');
    checkEntryHookData(network, hookData, 'MINT_POSITION');
    checkPayout(network, owner, 'MINT_POSITION', 'owner');
    const [c0, c1] = actionParams('SETTLE_PAIR', plan[1].params);
    checkCurrency(c0, currency0 as string, 'SETTLE_PAIR', 'currency0');
    checkCurrency(c1, currency1 as string, 'SETTLE_PAIR', 'currency1');
    return 'mint';
  }
  if (shape === 'INCREASE_LIQUIDITY,CLOSE_CURRENCY,CLOSE_CURRENCY') {
    const [, , , , hookData] = actionParams('INCREASE_LIQUIDITY', plan[0].params);
    checkEntryHookData(network, hookData, 'INCREASE_LIQUIDITY');
    const [c0] = actionParams('CLOSE_CURRENCY', plan[1].params);
    const [c1] = actionParams('CLOSE_CURRENCY', plan[2].params);
    checkPoolPair(network, [c0, c1], 'CLOSE_CURRENCY', { exit: false });
    return 'increase';
  }
  if (shape === 'DECREASE_LIQUIDITY,TAKE_PAIR' || shape === 'BURN_POSITION,TAKE_PAIR') {
    let kind: TxKind = 'decrease';
    if (plan[0].code === Actions.BURN_POSITION) {
      const [, , , hookData] = actionParams('BURN_POSITION', plan[0].params);
      checkEmptyHookData(hookData, 'BURN_POSITION');
    } else {
      const [, liquidity, , , hookData] = actionParams('DECREASE_LIQUIDITY', plan[0].params);
      checkEmptyHookData(hookData, 'DECREASE_LIQUIDITY');
      // DECREASE_LIQUIDITY of 0 is a fee collect.
      if (liquidity === 0n) kind = 'collect';
    }
    const [c0, c1, recipient] = actionParams('TAKE_PAIR', plan[1].params);
    checkPoolPair(network, [c0, c1], 'TAKE_PAIR', { exit: true });
    checkPayout(network, recipient, 'TAKE_PAIR', 'recipient', true);
    return kind;
  }
  const allowed = [
    'MINT_POSITION',
    'SETTLE_PAIR',
    'INCREASE_LIQUIDITY',
    'CLOSE_CURRENCY',
    'DECREASE_LIQUIDITY',
    'BURN_POSITION',
    'TAKE_PAIR',
  ];
  const foreign = names.find((n) => !allowed.includes(n));
  throw new NotAllowed(
    `its modifyLiquidities actions ${names.join(', ') || '(none)'} are none of the service's mint, increase, decrease, collect plans`,
    { action: foreign, parameter: 'actions' },
  );
}

/** permitBatch(owner, batch, signature): the sender's own permit to the PositionManager. */
function checkPermitBatch(network: NetworkDefinition, call: TargetCall, data: string): void {
  const [owner, batch] = decodeCall(PERMIT_BATCH, data, 'permitBatch');
  const [details, spender] = batch as Result;
  if (!call.from || !same(owner, call.from))
    throw new NotAllowed(
      `its permitBatch is for owner ${String(owner)}, not the sender ${call.from ?? '(unknown)'}`,
      {
        action: 'permitBatch',
        parameter: 'owner',
      },
    );
  if (!same(spender, network.contracts.positionManager))
    throw new NotAllowed(
      `its permitBatch names spender ${String(spender)}; only the PositionManager`,
      {
        action: 'permitBatch',
        parameter: 'spender',
      },
    );
  for (const detail of details as Result) {
    const token = (detail as Result)[0];
    if (!supportedToken(network, token))
      throw new NotAllowed(`its permitBatch is for ${String(token)}, not a supported token`, {
        action: 'permitBatch',
        parameter: 'token',
      });
  }
}

function positionManagerKind(network: NetworkDefinition, call: TargetCall): TxKind {
  checkValue(call.value ?? 0n, 'a PositionManager call');
  const selector = selectorOf(call.data);
  if (selector === MODIFY_LIQUIDITIES.selector) return liquidityKind(network, call.data);
  if (selector !== MULTICALL.selector)
    throw new NotAllowed('the PositionManager is relayed for modifyLiquidities and multicall only');
  // The builders' multicall: [permitBatch (a signed Permit2 permit)] then modifyLiquidities.
  const [calls] = decodeCall(MULTICALL, call.data, 'multicall');
  const inner = [...(calls as string[])];
  if (inner.length === 2 && selectorOf(inner[0]) === PERMIT_BATCH.selector)
    checkPermitBatch(network, call, inner.shift()!);
  if (inner.length !== 1 || selectorOf(inner[0]) !== MODIFY_LIQUIDITIES.selector)
    throw new NotAllowed('its multicall is not [permitBatch] then one modifyLiquidities', {
      parameter: 'multicall',
    });
  return liquidityKind(network, inner[0]);
}

// ---------------------------------------------------------------------------------------------

function kindOrRefusal(network: NetworkDefinition, call: TargetCall): TxKind {
  const { contracts } = network;
  const to = call.to;
  if (to === null) throw new NotAllowed('contract creation is not relayed');
  if (same(to, contracts.universalRouter)) return checkSwap(network, call);
  if (same(to, contracts.positionManager)) return positionManagerKind(network, call);
  if (same(to, contracts.permit2)) {
    const [token, spender] = decodeCall(
      PERMIT2_APPROVE,
      call.data,
      'Permit2 is relayed for approve(token, spender, amount, expiration) only',
    );
    if (!supportedToken(network, token))
      throw new NotAllowed(`Permit2 approve of ${String(token)}: not a supported token`, {
        parameter: 'token',
      });
    if (!same(spender, contracts.universalRouter) && !same(spender, contracts.positionManager))
      throw new NotAllowed(
        `Permit2 approve for spender ${String(spender)}: only the UniversalRouter and the PositionManager`,
        { parameter: 'spender' },
      );
    checkValue(call.value ?? 0n, 'a Permit2 approve');
    return 'permit2-approval';
  }
  if (supportedToken(network, to)) {
    const [spender] = decodeCall(
      ERC20_APPROVE,
      call.data,
      'a supported token is relayed for approve(Permit2, amount) only',
    );
    if (!same(spender, contracts.permit2))
      throw new NotAllowed(
        `approve for spender ${String(spender)}: tokens are approved to Permit2 only`,
        {
          parameter: 'spender',
        },
      );
    checkValue(call.value ?? 0n, 'a token approve');
    return 'approval';
  }
  throw new NotAllowed('it is not a contract this service builds transactions for', {
    parameter: 'to',
  });
}

/** The kind of a call the relay sends; throws 400 BROADCAST_TARGET_NOT_ALLOWED for any other. */
export function broadcastKind(network: NetworkDefinition, call: TargetCall): TxKind {
  try {
    return kindOrRefusal(network, call);
  } catch (err) {
    if (!(err instanceof NotAllowed)) throw err;
    const selector = selectorOf(call.data);
    const part = Object.fromEntries(Object.entries(err.part).filter(([, v]) => v !== undefined));
    throw new ApiError(
      'BROADCAST_TARGET_NOT_ALLOWED',
      `The relay does not send this transaction: ${err.message} (to ${call.to ?? 'null'}, selector ${selector ?? 'none'})`,
      {
        details: [
          { field: 'signedTransaction', to: call.to, selector, ...part, reason: err.message },
        ],
      },
    );
  }
}

/** The kind of any transaction, or null when it is not one the service builds (status lookups). */
export function kindOf(network: NetworkDefinition, call: TargetCall): TxKind | null {
  try {
    return kindOrRefusal(network, call);
  } catch (err) {
    if (err instanceof NotAllowed) return null;
    throw err;
  }
}
