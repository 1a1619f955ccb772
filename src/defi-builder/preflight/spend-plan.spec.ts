import type { ApprovalStep } from '../encoding/approvals';
import { describeApproval } from './spend-plan';

describe('describeApproval', () => {
  // Listed member by member, not `{ ...step, symbol, ... }` (V8 11.3 builds new hidden classes for
  // that form on every call: bench/object-spread.ts): the view keeps every member of the step, in
  // the step's order, then the three it adds.
  it.each<ApprovalStep['kind']>(['erc20', 'permit2'])(
    'keeps the %s step whole and adds its names',
    (kind) => {
      const step: ApprovalStep = {
        token: '0x4200000000000000000000000000000000000006',
        spender: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
        kind,
        transaction: {
          to: '0x4200000000000000000000000000000000000006',
          data: '0x095ea7b3',
          value: '0',
          gas: '60000',
        },
      };
      const view = describeApproval(step, 'WETH', 'swap');
      expect(view).toStrictEqual({
        ...step,
        symbol: 'WETH',
        spenderName: kind === 'erc20' ? 'Permit2' : 'UniversalRouter',
        description:
          kind === 'erc20'
            ? 'Approve Permit2 to move your WETH'
            : 'Allow the UniversalRouter to spend WETH through Permit2',
      });
      expect(Object.keys(view)).toEqual([
        ...Object.keys(step),
        'symbol',
        'spenderName',
        'description',
      ]);
    },
  );
});
