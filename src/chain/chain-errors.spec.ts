import { classifyChainFailure, ChainTimeoutError, isTransportFailure } from './chain-errors';

describe('classifyChainFailure', () => {
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

  it('tells a timeout (never retried) from an unreachable node (retried)', () => {
    expect(classifyChainFailure(new ChainTimeoutError(10))).toEqual({ kind: 'timeout' });
    expect(classifyChainFailure({ code: 'NETWORK_ERROR', message: 'x' })).toEqual({
      kind: 'unreachable',
    });
  });

  it('reads reverts (with or without data) and refusals as answers of the node', () => {
    expect(
      classifyChainFailure({ code: 'CALL_EXCEPTION', message: 'reverted', data: '0x12345678' }),
    ).toEqual({ kind: 'revert', revertData: '0x12345678' });
    expect(classifyChainFailure({ code: 'CALL_EXCEPTION', message: 'reverted' })).toEqual({
      kind: 'revert',
      revertData: '0x',
    });
    expect(classifyChainFailure({ code: 'UNKNOWN_ERROR', message: 'nonce too low' })).toEqual({
      kind: 'refused',
    });
  });
});
