import { ApiError } from '../../common/errors/api-error';
import { beforeSendFailure } from './chain-errors';

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
});
