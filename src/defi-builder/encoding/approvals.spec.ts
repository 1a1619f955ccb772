import { ERC20 } from '../../chain/abi/erc20';
import { PERMIT2 } from '../../chain/abi/permit2';
import { MAX_UINT160, MAX_UINT256, PERMIT2_GRANT_SECONDS, planApprovals } from './approvals';

const TOKEN = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';
const PERMIT2_ADDR = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const ROUTER = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
const NOW = 1_800_000_000;
const ctx = {
  permit2: PERMIT2_ADDR,
  spender: ROUTER,
  now: NOW,
  gas: { erc20Approve: 60_000n, permit2Approve: 65_000n },
};

describe('planApprovals', () => {
  it('returns nothing when both grants cover the amount', () => {
    expect(
      planApprovals(
        [
          {
            token: TOKEN,
            amount: 10n,
            erc20ToPermit2: 10n,
            permit2: { amount: 10n, expiration: NOW + 60, nonce: 0 },
          },
        ],
        ctx,
      ),
    ).toEqual([]);
  });

  it('builds ERC20.approve(Permit2, max) then Permit2.approve(token, router, max160, future expiry)', () => {
    const steps = planApprovals(
      [
        {
          token: TOKEN.toLowerCase(),
          amount: 10n,
          erc20ToPermit2: 0n,
          permit2: { amount: 0n, expiration: 0, nonce: 0 },
        },
      ],
      ctx,
    );
    expect(steps.map((s) => s.kind)).toEqual(['erc20', 'permit2']);
    const [erc20, permit2] = steps;
    expect(erc20).toMatchObject({
      token: TOKEN,
      spender: PERMIT2_ADDR,
      transaction: { to: TOKEN, value: '0', gas: '60000' },
    });
    expect([...ERC20.decodeFunctionData('approve', erc20.transaction.data)]).toEqual([
      PERMIT2_ADDR,
      MAX_UINT256,
    ]);
    expect(permit2).toMatchObject({
      token: TOKEN,
      spender: ROUTER,
      transaction: { to: PERMIT2_ADDR, value: '0', gas: '65000' },
    });
    const args = PERMIT2.decodeFunctionData('approve', permit2.transaction.data);
    expect([...args]).toEqual([TOKEN, ROUTER, MAX_UINT160, BigInt(NOW + PERMIT2_GRANT_SECONDS)]);
    expect(args[3] > NOW).toBe(true); // expiration 0 would mean "now" to Permit2
  });

  it('renews an expired Permit2 grant even when its amount is large', () => {
    const steps = planApprovals(
      [
        {
          token: TOKEN,
          amount: 10n,
          erc20ToPermit2: MAX_UINT256,
          permit2: { amount: MAX_UINT160, expiration: NOW - 1, nonce: 0 },
        },
      ],
      ctx,
    );
    expect(steps.map((s) => s.kind)).toEqual(['permit2']);
  });

  it('keeps a Permit2 grant that expires this very second (Permit2 reverts only after it)', () => {
    const need = (expiration: number) => ({
      token: TOKEN,
      amount: 10n,
      erc20ToPermit2: MAX_UINT256,
      permit2: { amount: MAX_UINT160, expiration, nonce: 0 },
    });
    expect(planApprovals([need(NOW)], ctx)).toEqual([]);
    expect(planApprovals([need(NOW - 1)], ctx).map((s) => s.kind)).toEqual(['permit2']);
  });
});
