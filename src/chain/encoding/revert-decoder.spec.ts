import { Interface } from 'ethers';
import { decodeRevert, revertDataOf } from './revert-decoder';

const errors = new Interface([
  'error SessionNotActive(address trader)',
  'error RouterNotAllowed(address router)',
  'error WrappedError(address target, bytes4 selector, bytes reason, bytes details)',
  'error HookCallFailed()',
  'error ExecutionFailed(uint256 commandIndex, bytes message)',
]);
const hook = '0xB0044845d57D1ceEB39F4D851c2B4F9313c7c880';
const trader = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('decodeRevert', () => {
  const inner = errors.encodeErrorResult('SessionNotActive', [trader]);
  const wrapped = errors.encodeErrorResult('WrappedError', [
    hook,
    '0x575e24b4',
    inner,
    errors.encodeErrorResult('HookCallFailed', []),
  ]);

  it('unwraps the PoolManager WrappedError to the hook reason and names the hook', () => {
    expect(decodeRevert(wrapped)).toMatchObject({
      name: 'SessionNotActive',
      code: 'SESSION_NOT_ACTIVE',
      raisedBy: hook,
      args: { trader },
    });
  });

  it('unwraps a UniversalRouter ExecutionFailed around a hook failure', () => {
    const routed = errors.encodeErrorResult('ExecutionFailed', [0, wrapped]);
    expect(decodeRevert(routed)).toMatchObject({ name: 'SessionNotActive', raisedBy: hook });
  });

  it('maps RouterNotAllowed and keeps unknown data as REVERTED', () => {
    expect(decodeRevert(errors.encodeErrorResult('RouterNotAllowed', [hook])).code).toBe(
      'ROUTER_NOT_ALLOWED',
    );
    expect(decodeRevert('0x12345678')).toMatchObject({ name: 'Unknown', code: 'REVERTED' });
    expect(decodeRevert(undefined).name).toBe('Unknown');
  });

  it('names the Permit2 refusals of a signed permit, also inside a router ExecutionFailed', () => {
    const permit2 = new Interface([
      'error SignatureExpired(uint256 signatureDeadline)',
      'error InvalidNonce()',
      'error InvalidSigner()',
    ]);
    const expired = permit2.encodeErrorResult('SignatureExpired', [1700000000n]);
    expect(decodeRevert(expired)).toMatchObject({
      name: 'SignatureExpired',
      code: 'PERMIT_EXPIRED',
    });
    expect(decodeRevert(errors.encodeErrorResult('ExecutionFailed', [0, expired])).code).toBe(
      'PERMIT_EXPIRED',
    );
    expect(decodeRevert(permit2.encodeErrorResult('InvalidNonce', [])).code).toBe(
      'PERMIT_NONCE_USED',
    );
    expect(decodeRevert(permit2.encodeErrorResult('InvalidSigner', [])).code).toBe(
      'PERMIT_SIGNATURE_INVALID',
    );
  });

  it('finds revert data wherever ethers or the node put it, and not in transport errors', () => {
    expect(revertDataOf({ code: 'CALL_EXCEPTION', data: inner })).toBe(inner);
    expect(revertDataOf({ info: { error: { data: { data: inner } } } })).toBe(inner);
    expect(
      revertDataOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ).toBeUndefined();
  });
});
