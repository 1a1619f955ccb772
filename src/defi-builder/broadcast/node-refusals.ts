/**
 * What a node's refusal of eth_sendRawTransaction means for the integrator, phase broadcast. Node
 * texts differ (geth, erigon, nethermind, besu, reth, Hardhat/EDR), so they are matched loosely;
 * the node's own text is logged, never returned (design §5: no RPC text reaches a client). Pure.
 */
import { ApiError } from '../../common/errors/api-error';

export type RefusalKind = 'nonce' | 'replacement' | 'fee' | 'funds' | 'gas-limit' | 'other';

const PATTERNS: Array<[RefusalKind, RegExp]> = [
  ['replacement', /replacement (transaction )?underpriced|replacement.*fee too low/i],
  [
    'nonce',
    /nonce too (low|high)|nonce.*(too low|too high|already used|lower than)|invalid nonce/i,
  ],
  [
    'fee',
    /underpriced|fee.*too low|too low.*fee|less than.*base ?fee|base ?fee.*(exceeds|higher|greater)|feecap|fee cap|gas ?price too low|maxFeePerGas.*too low|max priority fee per gas higher/i,
  ],
  ['funds', /insufficient funds|insufficient balance|sender doesn't have enough funds/i],
  [
    'gas-limit',
    // geth/reth: intrinsic gas too low, exceeds block gas limit; Hardhat EDR: "Transaction
    // requires at least N gas but got M", "requires gas floor of", "has a higher gas limit than
    // the remaining gas in the block", "call gas cost (N) exceeds the gas limit".
    /intrinsic gas|gas limit.*(exceeds|too|greater than)|exceeds block gas limit|out of gas|requires at least \d+ gas|requires gas floor|higher gas limit than|gas cost .*exceeds/i,
  ],
];

export function classifyRefusal(message: string): RefusalKind {
  for (const [kind, pattern] of PATTERNS) if (pattern.test(message)) return kind;
  return 'other';
}

export interface RefusedTx {
  hash: string;
  from: string;
  nonce: number;
}

/** The envelope error for a node's refusal of `tx`; `expectedNonce` when the caller read it. */
export function refusalError(kind: RefusalKind, tx: RefusedTx, expectedNonce?: number): ApiError {
  const facts = { txHash: tx.hash, from: tx.from, nonce: tx.nonce };
  switch (kind) {
    case 'nonce':
      return nonceConflict(tx, expectedNonce);
    case 'replacement':
      return new ApiError(
        'NONCE_CONFLICT',
        `Not sent: another transaction of ${tx.from} with nonce ${tx.nonce} is pending, and this one does not pay enough more to replace it`,
        {
          phase: 'broadcast',
          hint: 'Wait for the pending transaction to be mined (GET /api/v1/defi/transactions/:txHash), then sign this one again with the next nonce. The relay sends only the next nonce of a wallet: replace a pending transaction by sending the replacement (same nonce, fees at least 10 % higher) to a node directly.',
          extra: facts,
        },
      );
    case 'fee':
      return new ApiError(
        'FEE_TOO_LOW',
        "Not sent: the node refused the transaction's fee (below the base fee or the node's minimum)",
        { phase: 'broadcast', extra: facts },
      );
    case 'funds':
      return insufficientFunds(tx);
    case 'gas-limit':
      return new ApiError(
        'INVALID_PARAMS',
        "signedTransaction's gas limit is outside what the chain accepts (below the intrinsic gas or above the block gas limit)",
        {
          phase: 'broadcast',
          hint: 'Sign again with the gas the build response gives (transaction.gas).',
          details: [{ field: 'signedTransaction', constraint: 'gasLimit', ...facts }],
        },
      );
    default:
      return new ApiError('BROADCAST_FAILED', 'The node refused the transaction', {
        hint: 'The node gave no reason we recognise; check the transaction with GET /api/v1/defi/transactions/:txHash, then retry or sign it again.',
        extra: facts,
      });
  }
}

export function nonceConflict(tx: RefusedTx, expectedNonce?: number): ApiError {
  const relation =
    expectedNonce === undefined
      ? 'is not the next one of the wallet'
      : tx.nonce < expectedNonce
        ? `was already used (the next nonce is ${expectedNonce})`
        : `is ahead of the next nonce ${expectedNonce}: transactions ${expectedNonce}..${tx.nonce - 1} are missing`;
  return new ApiError('NONCE_CONFLICT', `Not sent: nonce ${tx.nonce} ${relation}`, {
    phase: 'broadcast',
    extra: {
      txHash: tx.hash,
      from: tx.from,
      nonce: tx.nonce,
      ...(expectedNonce !== undefined && { expectedNonce }),
    },
  });
}

const FUNDS_HINT =
  'Fund the wallet with ETH for gas (gas limit x maxFeePerGas + value), or sign with a lower fee cap, then send again.';

/** The sender cannot pay gas limit x max fee + value (read before sending, or the node's answer). */
export function insufficientFunds(tx: RefusedTx, balance?: bigint, required?: bigint): ApiError {
  return new ApiError(
    'BALANCE_INSUFFICIENT',
    `Not sent: ${tx.from} cannot pay gas limit x max fee + value`,
    {
      phase: 'broadcast',
      hint: FUNDS_HINT,
      extra: {
        txHash: tx.hash,
        from: tx.from,
        nonce: tx.nonce,
        token: 'ETH',
        ...(balance !== undefined && { balance: balance.toString() }),
        ...(required !== undefined && { required: required.toString() }),
      },
    },
  );
}

/** The hint of a transaction that runs out of gas at its own limit. */
export const OUT_OF_GAS_HINT =
  'The transaction runs out of gas at its gas limit: sign it again with the gas the build response gives (transaction.gas).';

/**
 * The relay's simulation answered without revert data: the node's text decides. Out of gas at the
 * signed limit is SIMULATION_REVERTED (revertCode OUT_OF_GAS); a limit below the intrinsic gas or
 * above the block's is INVALID_PARAMS on the gas limit; funds as BALANCE_INSUFFICIENT; anything
 * else SIMULATION_REVERTED without a reason. All phase broadcast, all 4xx: the node answered.
 */
export function simulationFailure(message: string, tx: RefusedTx): ApiError {
  const facts = (revertCode: string, revertReason: string) => ({
    txHash: tx.hash,
    from: tx.from,
    nonce: tx.nonce,
    revertCode,
    revertReason,
  });
  if (/out of gas|ran out of gas/i.test(message))
    return new ApiError(
      'SIMULATION_REVERTED',
      'Not sent: simulated, the transaction runs out of gas at its signed gas limit',
      {
        phase: 'broadcast',
        hint: OUT_OF_GAS_HINT,
        extra: facts('OUT_OF_GAS', 'out of gas'),
      },
    );
  const kind = classifyRefusal(message);
  if (kind === 'gas-limit' || kind === 'funds') return refusalError(kind, tx);
  return new ApiError(
    'SIMULATION_REVERTED',
    'Not sent: the node refused to simulate the transaction, without a revert reason',
    {
      phase: 'broadcast',
      hint: 'Sign again the transaction of a fresh build (its transaction.gas and fees), then send it.',
      extra: facts('REVERTED', 'no revert data'),
    },
  );
}
