import { ApiError } from '../../common/errors/api-error';
import { beforeSendFailure, isNonceClash, isNonceTaken } from './chain-errors';

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
});
