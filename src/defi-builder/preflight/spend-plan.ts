/**
 * The spend plan of the preflight phase (design §4): for what a transaction will pull through
 * Permit2, the approval transactions that fix a shortfall (in broadcast order), the matching
 * ALLOWANCE_INSUFFICIENT warning, and the Permit2 signature alternative (issue 11 §4): typed data
 * to sign instead of the Permit2.approve step, or the check of a permit the caller signed. Each
 * approval says whether the offered permit replaces it, and the warning says the same (issue 31
 * §4). Pure.
 */
import { SpendUse, spenderOf, TokenSymbol, WalletState } from '../../chain/encoding/wallet-reads';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ERROR_CATALOGUE } from '../../common/errors/error-catalogue';
import { toValidationError } from '../../common/validation/validation-exception.factory';
import type { Warning } from '../defi-builder.types';
import { ApprovalStep, planApprovals } from '../encoding/approvals';
import {
  checkSignedPermit,
  PermitBatch,
  permitDetails,
  PermitSingle,
  permitTypedData,
  PermitTypedData,
} from '../encoding/permit2-typed-data';
import { CALIBRATED_GAS } from '../pipeline/gas';

/** How long the permit we offer stays valid (a little longer than the default 20-minute deadline). */
export const PERMIT_VALIDITY_SECONDS = 30 * 60;

export interface SpendNeed {
  symbol: TokenSymbol;
  amount: bigint;
  /** Native ETH: sent as the transaction's value, no approval (checked against the ETH balance). */
  native?: boolean;
}

export interface SignedPermit {
  field: 'permit' | 'permitBatch';
  /** Who must have signed it: userAddress. */
  owner: string;
  permit: PermitSingle | PermitBatch;
  signature: string;
}

export interface SpendRequest {
  use: SpendUse;
  needs: SpendNeed[];
  /** Gas limit the transaction is planned with: a wallet paying ETH pays this gas too. */
  gas?: bigint;
  /** Offer Permit2 typed data when the spender's Permit2 allowance is short. */
  offerPermit?: 'single' | 'batch';
  /** A permit the caller signed: replaces the Permit2.approve steps (checked first). */
  signed?: SignedPermit;
}

/** An approval transaction as integrators see it: the same fields as preflight's nextActions. */
export type ApprovalView = ApprovalStep & {
  symbol: TokenSymbol;
  spenderName: string;
  description: string;
  /** A Permit2.approve step that signing the response's permitData replaces (issue 31 §4). */
  replaceableByPermit: boolean;
};

/** Typed data to sign with eth_signTypedData_v4; primaryType for signers that need it (viem). */
export type PermitData =
  | (PermitTypedData<PermitSingle> & { primaryType: 'PermitSingle' })
  | (PermitTypedData<PermitBatch> & { primaryType: 'PermitBatch' });

export interface SpendPlan {
  approvals: ApprovalView[];
  warnings: Warning[];
  permitData?: PermitData;
}

export const NOTHING_TO_SPEND: SpendPlan = { approvals: [], warnings: [] };

const SPENDER_NAMES: Record<SpendUse, string> = {
  swap: 'UniversalRouter',
  liquidity: 'PositionManager',
};

/** `permitOffered`: the response carries permitData, which replaces every Permit2.approve step. */
export function describeApproval(
  step: ApprovalStep,
  symbol: TokenSymbol,
  use: SpendUse,
  permitOffered = false,
): ApprovalView {
  const spenderName = step.kind === 'erc20' ? 'Permit2' : SPENDER_NAMES[use];
  const description =
    step.kind === 'erc20'
      ? `Approve Permit2 to move your ${symbol}`
      : `Allow the ${SPENDER_NAMES[use]} to spend ${symbol} through Permit2`;
  const { token, spender, kind, transaction } = step;
  const replaceableByPermit = permitOffered && kind === 'permit2';
  return {
    token,
    spender,
    kind,
    transaction,
    symbol,
    spenderName,
    description,
    replaceableByPermit,
  };
}

export function planSpend(
  network: NetworkDefinition,
  state: WalletState,
  request: SpendRequest,
): SpendPlan {
  const { use } = request;
  const needs = request.needs.filter((n) => !n.native && n.amount > 0n);
  const expectation = {
    permit2: network.contracts.permit2,
    chainId: network.chainId,
    spender: spenderOf(network, use),
    now: state.blockTimestamp,
    tokens: needs.map(({ symbol, amount }) => ({
      token: network.tokens[symbol].address,
      amount,
      nonce: state.permit2[use][symbol].nonce,
    })),
  };
  if (request.signed) {
    const { field, permit, signature, owner } = request.signed;
    const errors = checkSignedPermit(field, permit, signature, { owner, ...expectation });
    if (errors.length > 0) throw toValidationError(errors);
  }
  const symbolOf = (token: string) =>
    needs.find((n) => network.tokens[n.symbol].address === token)!;
  const steps = planApprovals(
    needs.map(({ symbol, amount }) => ({
      token: network.tokens[symbol].address,
      amount,
      erc20ToPermit2: state.erc20ToPermit2[symbol],
      permit2: state.permit2[use][symbol],
    })),
    {
      permit2: network.contracts.permit2,
      spender: expectation.spender,
      now: state.blockTimestamp,
      gas: CALIBRATED_GAS,
    },
  )
    // A checked signed permit grants what Permit2.approve would have.
    .filter((step) => !(request.signed && step.kind === 'permit2'));
  const permitKind =
    request.signed === undefined && steps.some((step) => step.kind === 'permit2')
      ? request.offerPermit
      : undefined;
  const approvals = steps.map((step) =>
    describeApproval(step, symbolOf(step.token).symbol, use, permitKind !== undefined),
  );
  if (approvals.length === 0) return { approvals, warnings: [] };
  const short = needs
    .filter(({ symbol }) => approvals.some((a) => a.token === network.tokens[symbol].address))
    .map(({ symbol, amount }) => ({
      symbol,
      required: amount.toString(),
      allowance: state.effective[use][symbol].toString(),
    }));
  const warning: Warning = {
    code: 'ALLOWANCE_INSUFFICIENT',
    message: `Permit2 allowance too low for ${short.map((s) => s.symbol).join(' and ')}: ${allowanceInstruction(approvals)}`,
    hint: ERROR_CATALOGUE.ALLOWANCE_INSUFFICIENT.hint,
    tokens: short,
  };
  const permitData = permitKind && offerPermit(network, state, permitKind, expectation);
  return { approvals, warnings: [warning], ...(permitData && { permitData }) };
}

/**
 * What the ALLOWANCE_INSUFFICIENT warning tells the caller to do, matching what the response
 * offers (issue 31 §4): send approvals[]; or, when permitData is offered, sign it in place of the
 * Permit2.approve steps (replaceableByPermit) and send only the ERC-20 ones; calls[] for a batch.
 */
export function allowanceInstruction(approvals: ReadonlyArray<ApprovalView>): string {
  const replaceable = approvals.filter((a) => a.replaceableByPermit);
  const remaining = approvals.filter((a) => !a.replaceableByPermit);
  let text = `send ${theSteps(approvals)} in approvals[] first`;
  if (replaceable.length > 0)
    text +=
      remaining.length > 0
        ? `, or send ${theSteps(remaining)} and sign permitData instead of ${theSteps(replaceable)}`
        : ', or sign permitData instead';
  return `${text}; calls[] holds the whole sequence for a batch wallet`;
}

/** "the ERC-20 approval", "the 2 Permit2 approvals", "the 4 transactions". */
function theSteps(steps: ReadonlyArray<ApprovalView>): string {
  const kinds = new Set(steps.map((s) => s.kind));
  const n = steps.length;
  if (kinds.size > 1) return `the ${n} transactions`;
  const name = steps[0].kind === 'erc20' ? 'ERC-20 approval' : 'Permit2 approval';
  return n === 1 ? `the ${name}` : `the ${n} ${name}s`;
}

/** Typed data covering every needed token, offered when some Permit2.approve step is planned. */
function offerPermit(
  network: NetworkDefinition,
  state: WalletState,
  kind: 'single' | 'batch',
  expectation: { spender: string; tokens: Array<{ token: string; amount: bigint; nonce: number }> },
): PermitData {
  const until = state.blockTimestamp + PERMIT_VALIDITY_SECONDS;
  const details = expectation.tokens.map((t) => permitDetails(t.token, t.amount, t.nonce, until));
  const common = { spender: expectation.spender, sigDeadline: until.toString() };
  const { permit2 } = network.contracts;
  if (kind === 'single') {
    const data = permitTypedData({ details: details[0], ...common }, permit2, network.chainId);
    return {
      domain: data.domain,
      types: data.types,
      primaryType: 'PermitSingle',
      values: data.values,
    };
  }
  const data = permitTypedData({ details, ...common }, permit2, network.chainId);
  return {
    domain: data.domain,
    types: data.types,
    primaryType: 'PermitBatch',
    values: data.values,
  };
}

/** The signed permit of a request body, if it carries one (the DTO requires both fields together). */
export function signedPermit(
  field: SignedPermit['field'],
  owner: string,
  permit: PermitSingle | PermitBatch | undefined,
  signature: string | undefined,
): SignedPermit | undefined {
  if (permit === undefined || signature === undefined) return undefined;
  return { field, owner, permit, signature };
}
