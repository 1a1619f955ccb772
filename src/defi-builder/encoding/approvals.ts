/**
 * Permit2 allowance math and the approval transactions that fix a shortfall. Both routers pull
 * tokens through Permit2, so a spend needs two grants: ERC-20 token -> Permit2, and a Permit2
 * allowance (amount + expiry) token -> router.
 *
 * Both approve calls have static arguments only: encoded word by word with memoised checksums
 * (`npm run bench:encoders`; ethers' Interface.encodeFunctionData and getAddress cost ~90 us per step), byte-equal
 * to ethers (approvals.spec.ts).
 */
import { selectorOf } from '../../chain/abi/selectors';
import { ERC20 } from '../../chain/abi/erc20';
import { PERMIT2 } from '../../chain/abi/permit2';
import { addressWord, uintWord } from '../../chain/encoding/abi-words';
import { Permit2Allowance, permit2Usable } from '../../chain/encoding/wallet-reads';
import { checksumAddress } from '../../common/address/checksum-address';

export const MAX_UINT256 = (1n << 256n) - 1n;
export const MAX_UINT160 = (1n << 160n) - 1n;
/** How long a Permit2 grant we build stays valid. Permit2 treats expiration 0 as "now", so never 0. */
export const PERMIT2_GRANT_SECONDS = 30 * 24 * 3600;

export interface UnsignedTx {
  to: string;
  data: string;
  value: string;
  gas: string;
}

export interface ApprovalStep {
  token: string;
  /** Who is approved: Permit2 for the ERC-20 step, the router for the Permit2 step. */
  spender: string;
  kind: 'erc20' | 'permit2';
  transaction: UnsignedTx;
}

/** Gas of each approval, measured on the devnet (see defi-builder gas.ts) with a buffer. */
export interface ApprovalGas {
  erc20Approve: bigint;
  permit2Approve: bigint;
}

export interface ApprovalNeed {
  token: string;
  amount: bigint;
  erc20ToPermit2: bigint;
  permit2: Permit2Allowance;
}

const ERC20_APPROVE = selectorOf(ERC20, 'approve');
const PERMIT2_APPROVE = selectorOf(PERMIT2, 'approve');

/** ERC20.approve(spender, amount) calldata. */
export function erc20ApproveData(spender: string, amount: bigint): string {
  return `${ERC20_APPROVE}${addressWord(checksumAddress(spender))}${uintWord(amount)}`;
}

/** Permit2.approve(token, spender, uint160 amount, uint48 expiration) calldata. */
export function permit2ApproveData(
  token: string,
  spender: string,
  amount: bigint,
  expiration: number,
): string {
  return (
    PERMIT2_APPROVE +
    addressWord(checksumAddress(token)) +
    addressWord(checksumAddress(spender)) +
    uintWord(amount, 160) +
    uintWord(BigInt(expiration), 48)
  );
}

/** How the planner names addresses and encodes the two approvals (the library reference swaps them). */
export interface ApprovalEncoders {
  address(address: string): string;
  erc20Approve(spender: string, amount: bigint): string;
  permit2Approve(token: string, spender: string, amount: bigint, expiration: number): string;
}

const HAND_WRITTEN: ApprovalEncoders = {
  address: checksumAddress,
  erc20Approve: erc20ApproveData,
  permit2Approve: permit2ApproveData,
};

/** The approval transactions (in broadcast order) that let `spender` pull each needed amount. */
export function planApprovals(
  needs: ApprovalNeed[],
  ctx: { permit2: string; spender: string; now: number; gas: ApprovalGas },
  encode: ApprovalEncoders = HAND_WRITTEN,
): ApprovalStep[] {
  const permit2 = encode.address(ctx.permit2);
  const spender = encode.address(ctx.spender);
  const steps: ApprovalStep[] = [];
  for (const need of needs) {
    const token = encode.address(need.token);
    if (need.erc20ToPermit2 < need.amount) {
      steps.push({
        token,
        spender: permit2,
        kind: 'erc20',
        transaction: tx(token, encode.erc20Approve(permit2, MAX_UINT256), ctx.gas.erc20Approve),
      });
    }
    if (permit2Usable(need.permit2, ctx.now) < need.amount) {
      const expiration = ctx.now + PERMIT2_GRANT_SECONDS;
      steps.push({
        token,
        spender,
        kind: 'permit2',
        transaction: tx(
          permit2,
          encode.permit2Approve(token, spender, MAX_UINT160, expiration),
          ctx.gas.permit2Approve,
        ),
      });
    }
  }
  return steps;
}

function tx(to: string, data: string, gas: bigint): UnsignedTx {
  return { to, data, value: '0', gas: gas.toString() };
}
