import { seededRandom } from '../../../test/helpers/seeded-random';
import { ERC20 } from '../../chain/abi/erc20';
import { PERMIT2 } from '../../chain/abi/permit2';
import {
  erc20ApproveData,
  MAX_UINT160,
  MAX_UINT256,
  PERMIT2_GRANT_SECONDS,
  permit2ApproveData,
  planApprovals,
} from './approvals';
import { planApprovalsByInterface } from './library-encoders';

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

describe('approval calldata is byte-equal to ethers Interface.encodeFunctionData', () => {
  it('erc20ApproveData and permit2ApproveData over random addresses, amounts and expiries', () => {
    const r = seededRandom(0xa55);
    for (let i = 0; i < 500; i += 1) {
      const [token, spender, amount] = [r.address(), r.address(), r.uint(256)];
      expect(erc20ApproveData(spender, amount)).toBe(
        ERC20.encodeFunctionData('approve', [spender, amount]),
      );
      const [amount160, expiration] = [r.uint(160), Number(r.uint(48))];
      expect(permit2ApproveData(token, spender, amount160, expiration)).toBe(
        PERMIT2.encodeFunctionData('approve', [token, spender, amount160, expiration]),
      );
    }
  });

  it('refuses what ethers refuses (out-of-range amounts, bad checksums)', () => {
    const badChecksum = ROUTER.replace('FC8', 'fC8');
    const refused: Array<[() => string, () => string]> = [
      [
        () => erc20ApproveData(ROUTER, 1n << 256n),
        () => ERC20.encodeFunctionData('approve', [ROUTER, 1n << 256n]),
      ],
      [
        () => erc20ApproveData(badChecksum, 1n),
        () => ERC20.encodeFunctionData('approve', [badChecksum, 1n]),
      ],
      [
        () => permit2ApproveData(TOKEN, ROUTER, 1n << 160n, 1),
        () => PERMIT2.encodeFunctionData('approve', [TOKEN, ROUTER, 1n << 160n, 1]),
      ],
      [
        () => permit2ApproveData(TOKEN, ROUTER, 1n, 2 ** 48),
        () => PERMIT2.encodeFunctionData('approve', [TOKEN, ROUTER, 1n, 2 ** 48]),
      ],
    ];
    for (const [ours, theirs] of refused) {
      expect(theirs).toThrow();
      expect(ours).toThrow();
    }
  });

  it('planApprovals plans the same steps as the ethers version over random wallet states', () => {
    const r = seededRandom(0xa99);
    const amount = () => (r.int(3) === 0 ? 0n : r.uint(r.bool() ? 64 : 256));
    for (let i = 0; i < 300; i += 1) {
      const needs = Array.from({ length: 1 + r.int(2) }, () => ({
        token: r.address(),
        amount: amount(),
        erc20ToPermit2: amount(),
        permit2: {
          amount: r.uint(160),
          expiration: NOW - 100 + r.int(200),
          nonce: Number(r.uint(48)),
        },
      }));
      const context = { ...ctx, spender: r.address(), permit2: r.address() };
      expect(planApprovals(needs, context)).toEqual(planApprovalsByInterface(needs, context));
    }
  });
});
