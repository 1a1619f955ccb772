import { ApiError } from '../../common/errors/api-error';
import {
  beforeSendFailure,
  feeOverCap,
  isNonceClash,
  isNonceTaken,
  sendRefused,
} from './chain-errors';

describe('attester chain failures', () => {
  it('maps a failure before sending to 503 when the RPC is unreachable, else 502 BROADCAST_FAILED', () => {
    const unreachable = beforeSendFailure({ code: 'NETWORK_ERROR', message: 'network error' });
    expect(unreachable).toMatchObject({ code: 'CHAIN_UNAVAILABLE', status: 503 });
    const reverted = beforeSendFailure({
      code: 'CALL_EXCEPTION',
      message: 'execution reverted',
      data: '0x12345678',
    });
    expect(reverted).toMatchObject({ code: 'BROADCAST_FAILED', status: 502 });
    expect(reverted.message).not.toContain('0x12345678');
    const own = new ApiError('CHAIN_UNAVAILABLE', 'x');
    expect(beforeSendFailure(own)).toBe(own);
  });

  it("reads EDR's and geth's nonce clash messages", () => {
    const edr = new Error(
      'Replacement transaction underpriced. A gasPrice/maxFeePerGas of at least 11 is necessary to replace the existing transaction with nonce 3.',
    );
    expect([isNonceClash(edr), isNonceTaken(edr)]).toEqual([true, false]);
    const known = new Error('Known transaction: 0xabc');
    expect([isNonceClash(known), isNonceTaken(known)]).toEqual([true, true]);
    expect(isNonceClash(new Error('nonce too low: next nonce 5, tx nonce 4'))).toBe(true);
    expect(isNonceClash(new Error('insufficient funds for gas * price + value'))).toBe(false);
  });

  it.each([
    ['insufficient funds for gas * price + value: balance 0', 'insufficient_funds', /out of ETH/],
    [
      "Sender doesn't have enough funds to send tx. The max upfront cost is: 1 and the sender's balance is: 0.",
      'insufficient_funds',
      /attester fund/,
    ],
    ['nonce too low: next nonce 5, tx nonce 4', 'nonce', /retry in a few seconds/],
    ['intrinsic gas too low', 'refused', /./],
  ])('names the cause of a refused send (%s): %s', (message, reason, hint) => {
    const error = sendRefused(new Error(message), 'The node refused the activation transaction');
    expect(error).toMatchObject({ code: 'BROADCAST_FAILED', status: 502 });
    expect(error.options.extra).toEqual({ reason });
    expect(error.hint).toMatch(hint);
  });

  it('names the fee cap', () => {
    const error = feeOverCap(60_000_000_000n, 50_000_000_000n);
    expect(error.options.extra).toEqual({ reason: 'fee_cap' });
    expect(error.message).toContain('above the attester');
  });

  it('names unpaid gas found by the simulation too', () => {
    const simulated = beforeSendFailure(new Error('insufficient funds for gas * price + value'));
    expect(simulated.options.extra).toEqual({ reason: 'insufficient_funds' });
  });
});
