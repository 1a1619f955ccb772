import { erc20ApproveData, MAX_UINT256, UnsignedTx } from '../encoding/approvals';
import { callsOf } from './calls';

const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const WETH = '0x4200000000000000000000000000000000000006';

describe('callsOf', () => {
  const approve: UnsignedTx = {
    to: WETH,
    data: erc20ApproveData(PERMIT2, MAX_UINT256),
    value: '0',
    gas: '59986',
  };
  const permit2Approve: UnsignedTx = { to: PERMIT2, data: '0x87517c45', value: '0', gas: '62133' };
  const swap: UnsignedTx = {
    to: '0x492E6456D9528771018DeB9E87ef7750EF184104',
    data: '0x3593564c',
    value: '1000',
    gas: '196406',
  };

  it('lists the approvals in order, then the transaction, as EIP-5792 calls without gas', () => {
    const calls = callsOf([{ transaction: approve }, { transaction: permit2Approve }], swap);
    expect(calls).toStrictEqual([
      { to: WETH, data: approve.data, value: '0' },
      { to: PERMIT2, data: '0x87517c45', value: '0' },
      { to: swap.to, data: '0x3593564c', value: '1000' },
    ]);
  });

  it('is the transaction alone when nothing needs approving', () => {
    expect(callsOf([], swap)).toStrictEqual([{ to: swap.to, data: swap.data, value: '1000' }]);
  });
});
