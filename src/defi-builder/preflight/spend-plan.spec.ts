import { Wallet } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import type { WalletState } from '../../chain/encoding/wallet-reads';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import type { ApprovalStep } from '../encoding/approvals';
import type { PermitSingle } from '../encoding/permit2-typed-data';
import { allowanceInstruction, ApprovalView, describeApproval, planSpend } from './spend-plan';

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
      const view = describeApproval(step, 'WETH', 'swap', true);
      expect(view).toStrictEqual({
        ...step,
        symbol: 'WETH',
        spenderName: kind === 'erc20' ? 'Permit2' : 'UniversalRouter',
        description:
          kind === 'erc20'
            ? 'Approve Permit2 to move your WETH'
            : 'Allow the UniversalRouter to spend WETH through Permit2',
        // Only the Permit2.approve step can be replaced by a signed permit.
        replaceableByPermit: kind === 'permit2',
      });
      expect(Object.keys(view)).toEqual([
        ...Object.keys(step),
        'symbol',
        'spenderName',
        'description',
        'replaceableByPermit',
      ]);
      expect(describeApproval(step, 'WETH', 'swap').replaceableByPermit).toBe(false);
    },
  );
});

const network = resolveNetworkFile(devnetFile as NetworkFile);
const NOW = 1_800_000_000;
const none = { amount: 0n, expiration: 0, nonce: 0 };
/** A wallet that approved nothing yet. */
const fresh: WalletState = {
  blockTimestamp: NOW,
  blockNumber: 100,
  session: { active: true, activeUntil: NOW + 3600 },
  sanctioned: false,
  balances: { ETH: 10n ** 18n, WETH: 10n ** 18n, tUSDC: 10n ** 10n },
  erc20ToPermit2: { WETH: 0n, tUSDC: 0n },
  permit2: { swap: { WETH: none, tUSDC: none }, liquidity: { WETH: none, tUSDC: none } },
  effective: { swap: { WETH: 0n, tUSDC: 0n }, liquidity: { WETH: 0n, tUSDC: 0n } },
};
const flags = (approvals: ApprovalView[]) => approvals.map((a) => [a.kind, a.replaceableByPermit]);

describe('planSpend: one instruction, matching what the response offers (issue 31 §4)', () => {
  it('swap of a fresh wallet: both approvals, the Permit2 one replaceable by the offered permit', () => {
    const plan = planSpend(network, fresh, {
      use: 'swap',
      needs: [{ symbol: 'WETH', amount: 10n }],
      offerPermit: 'single',
    });
    expect(flags(plan.approvals)).toEqual([
      ['erc20', false],
      ['permit2', true],
    ]);
    expect(plan.permitData?.primaryType).toBe('PermitSingle');
    expect(plan.warnings).toHaveLength(1);
    expect(plan.warnings[0].message).toBe(
      'Permit2 allowance too low for WETH: send the 2 transactions in approvals[] first, or send the ERC-20 approval and sign permitData instead of the Permit2 approval; calls[] holds the whole sequence for a batch wallet',
    );
  });

  it('mint: four approvals, the two Permit2 ones replaceable by the batch permit', () => {
    const plan = planSpend(network, fresh, {
      use: 'liquidity',
      needs: [
        { symbol: 'WETH', amount: 10n },
        { symbol: 'tUSDC', amount: 10n },
      ],
      offerPermit: 'batch',
    });
    expect(flags(plan.approvals)).toEqual([
      ['erc20', false],
      ['permit2', true],
      ['erc20', false],
      ['permit2', true],
    ]);
    expect(plan.permitData?.primaryType).toBe('PermitBatch');
    expect(plan.warnings[0].message).toBe(
      'Permit2 allowance too low for WETH and tUSDC: send the 4 transactions in approvals[] first, or send the 2 ERC-20 approvals and sign permitData instead of the 2 Permit2 approvals; calls[] holds the whole sequence for a batch wallet',
    );
  });

  it('an operation offering no permit (increase): nothing is replaceable, no permit in the text', () => {
    const plan = planSpend(network, fresh, {
      use: 'liquidity',
      needs: [{ symbol: 'tUSDC', amount: 10n }],
    });
    expect(flags(plan.approvals)).toEqual([
      ['erc20', false],
      ['permit2', false],
    ]);
    expect(plan.permitData).toBeUndefined();
    expect(plan.warnings[0].message).toBe(
      'Permit2 allowance too low for tUSDC: send the 2 transactions in approvals[] first; calls[] holds the whole sequence for a batch wallet',
    );
  });

  it('a request carrying a valid signed permit: only the ERC-20 approval is left, no permitData', async () => {
    const signer = Wallet.createRandom();
    const offered = planSpend(network, fresh, {
      use: 'swap',
      needs: [{ symbol: 'WETH', amount: 10n }],
      offerPermit: 'single',
    }).permitData!;
    const permit = offered.values as PermitSingle;
    const signature = await signer.signTypedData(offered.domain, offered.types, permit);
    const plan = planSpend(network, fresh, {
      use: 'swap',
      needs: [{ symbol: 'WETH', amount: 10n }],
      offerPermit: 'single',
      signed: { field: 'permit', owner: signer.address, permit, signature },
    });
    expect(flags(plan.approvals)).toEqual([['erc20', false]]);
    expect(plan.permitData).toBeUndefined();
    expect(plan.warnings[0].message).toBe(
      'Permit2 allowance too low for WETH: send the ERC-20 approval in approvals[] first; calls[] holds the whole sequence for a batch wallet',
    );
  });
});

describe('allowanceInstruction', () => {
  const view = (kind: ApprovalStep['kind'], replaceableByPermit: boolean) =>
    ({ kind, replaceableByPermit }) as ApprovalView;

  it('names a lone Permit2 approval that the permit replaces', () => {
    expect(allowanceInstruction([view('permit2', true)])).toBe(
      'send the Permit2 approval in approvals[] first, or sign permitData instead; calls[] holds the whole sequence for a batch wallet',
    );
  });
});
