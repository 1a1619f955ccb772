import { ApiError } from '../../common/errors/api-error';
import { beforeSendFailure, isTransportFailure } from './chain-errors';

describe('chain error classification', () => {
  it('treats refused connections, timeouts and ethers network errors as transport failures', () => {
    expect(
      isTransportFailure(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(isTransportFailure({ code: 'TIMEOUT', message: 'request timeout' })).toBe(true);
    expect(
      isTransportFailure({ code: 'UNKNOWN_ERROR', message: 'x', cause: { code: 'ECONNRESET' } }),
    ).toBe(true);
    expect(
      isTransportFailure({
        code: 'CALL_EXCEPTION',
        message: 'execution reverted (timeout in reason)',
      }),
    ).toBe(false);
  });

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
