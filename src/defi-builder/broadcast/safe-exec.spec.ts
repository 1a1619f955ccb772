import { refusalOf as refusal } from '../../../test/helpers/api-error';
import devnetFile from '../../config/networks/devnet.json';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { safeContractsFor } from '../../chain/safe/safe-contracts';
import {
  batchSafeTx,
  encodeExecTransaction,
  SafeCall,
  SafeTx,
} from '../../chain/safe/safe-transactions';
import { erc20ApproveData, MAX_UINT256, permit2ApproveData } from '../encoding/approvals';
import { encodeMintCalldata } from '../encoding/liquidity-calldata';
import { encodeSwapCalldata } from '../encoding/swap-calldata';
import { callKeyOf } from '../../receipts/call-key';
import { builtCallOf, safeExecKindOf, safeExecOf } from './safe-exec';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const { permit2, universalRouter, positionManager } = network.contracts;
const pool = network.pool;
const SAFE = '0x20D18339b6369b94f60eFC38f6606a66B62E02D2';
const RELAYER = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
const SIGNATURES = `0x${'11'.repeat(130)}`;
const multiSendCallOnly = safeContractsFor(network.chainId)!.multiSendCallOnly;
const DEADLINE = 2_000_000_000n;

const approvals: SafeCall[] = [
  { to: pool.currency0, value: 0n, data: erc20ApproveData(permit2, MAX_UINT256) },
  {
    to: permit2,
    value: 0n,
    data: permit2ApproveData(pool.currency0, universalRouter, 10n ** 18n, 2_000_000_000),
  },
];
const swap: SafeCall = {
  to: universalRouter,
  value: 0n,
  data: encodeSwapCalldata({
    tradeType: 'EXACT_INPUT',
    amountIn: 1000n,
    amountOutMinimum: 900n,
    poolKey: pool,
    zeroForOne: true,
    deadline: DEADLINE,
    ethIn: false,
    ethOut: false,
  }),
};
const mint = (owner: string): SafeCall => ({
  to: positionManager,
  value: 0n,
  data: encodeMintCalldata({
    poolKey: pool,
    tickLower: -600,
    tickUpper: 600,
    liquidity: 10n ** 12n,
    amount0Max: 10n ** 18n,
    amount1Max: 10n ** 18n,
    owner,
    deadline: DEADLINE,
  }),
});

const exec = (safeTx: SafeTx, value = 0n) => ({
  to: SAFE,
  from: RELAYER,
  value,
  data: encodeExecTransaction(safeTx, SIGNATURES),
});
const batch = (calls: SafeCall[]) => batchSafeTx(multiSendCallOnly, calls, 0n);

describe('safeExecOf: the relay unwrap step for a Safe', () => {
  it("accepts the build's batch (approvals, then the trade) and names its kind", () => {
    const unwrapped = safeExecOf(network, exec(batch([...approvals, swap])))!;
    expect(unwrapped).toMatchObject({
      safe: SAFE,
      operation: 1,
      kinds: ['approval', 'permit2-approval', 'swap'],
      kind: 'swap',
    });
    expect(unwrapped.calls).toEqual([...approvals, swap]);
    expect(safeExecOf(network, exec(batch([mint(SAFE)])))!.kind).toBe('mint');
  });

  it("names the call the Safe's build keyed its receipt by: the trade, sent by the Safe", () => {
    const unwrapped = safeExecOf(network, exec(batch([...approvals, swap])))!;
    // The key ReceiptsService.issue gives the Safe's build (wallet, then its transaction).
    const issued = callKeyOf({ from: SAFE, to: swap.to, value: '0', data: swap.data });
    expect(callKeyOf(builtCallOf(unwrapped))).toBe(issued);
    const single: SafeTx = { ...batch([]), to: swap.to, data: swap.data, operation: 0 };
    expect(callKeyOf(builtCallOf(safeExecOf(network, exec(single))!))).toBe(issued);
  });

  it('accepts one call of our shapes without MultiSend (operation 0)', () => {
    const single: SafeTx = { ...batch([]), to: swap.to, data: swap.data, operation: 0 };
    expect(safeExecOf(network, exec(single))).toMatchObject({ operation: 0, kind: 'swap' });
  });

  it('leaves anything that is no execTransaction to the ordinary shape check', () => {
    expect(safeExecOf(network, { to: universalRouter, from: RELAYER, data: swap.data })).toBeNull();
  });

  it.each<[string, SafeTx, RegExp, Record<string, unknown>]>([
    [
      'a foreign call inside the batch',
      batch([
        ...approvals,
        { to: pool.currency1, value: 0n, data: `0xa9059cbb${'00'.repeat(64)}` },
      ]),
      /call 3 of 3 is refused/,
      { safeCall: 2, innerTo: pool.currency1 },
    ],
    ['approvals after the trade', batch([swap, ...approvals]), /approvals, then one/, {}],
    ['two trades', batch([swap, swap]), /approvals, then one swap/, {}],
    ['an empty batch', batch([]), /empty/, {}],
    [
      'a refund to the relayer',
      { ...batch([swap]), gasPrice: 1n, refundReceiver: RELAYER },
      /refund/,
      {},
    ],
    ['a gas limit of its own', { ...batch([swap]), safeTxGas: 100_000n }, /safeTxGas/, {}],
    [
      'a delegatecall to another contract',
      { ...batch([swap]), to: universalRouter },
      /delegatecalls/,
      {},
    ],
    ['a mint whose owner is a protocol contract', batch([mint(permit2)]), /owner/, { safeCall: 0 }],
  ])('refuses %s with 400 BROADCAST_TARGET_NOT_ALLOWED', (_name, safeTx, reason, extra) => {
    const err = refusal(() => safeExecOf(network, exec(safeTx)));
    expect(err.code).toBe('BROADCAST_TARGET_NOT_ALLOWED');
    expect(err.message).toMatch(reason);
    expect(err.options.details?.[0]).toMatchObject(extra);
    // The status lookup reads such a transaction as none of ours.
    expect(safeExecKindOf(network, exec(safeTx))).toBeNull();
  });

  it('refuses ETH sent with execTransaction itself', () => {
    expect(refusal(() => safeExecOf(network, exec(batch([swap]), 1n))).message).toMatch(/wei/);
  });
});
