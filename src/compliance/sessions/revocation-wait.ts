import { ApiError } from '../../common/errors/api-error';
import { nodeReason } from './chain-errors';

/**
 * Why an owed revocation waits, in words an operator acts on (the warn line, the row's
 * last_error, readiness): the send's failure as the attester's error classification names it.
 */
export function waitingReason(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'CHAIN_UNAVAILABLE') return 'the chain RPC does not answer';
    switch (error.options.extra?.reason) {
      case 'insufficient_funds':
        return 'the attester cannot pay for gas (insufficient funds): fund it with npm run cli -- attester fund';
      case 'fee_cap':
        return 'gas costs more than ATTESTER_MAX_FEE_GWEI lets the attester pay';
      case 'nonce':
        return "the attester's nonce is held by other transactions";
      case 'refused':
        return `the registry refused the attester's transaction (${nodeReason(error.options.cause ?? error)}): is the key still a registry attester?`;
    }
    return error.message;
  }
  return (error as Error)?.message ?? String(error);
}
