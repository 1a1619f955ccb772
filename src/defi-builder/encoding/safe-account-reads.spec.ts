import { safeContractsFor } from '../../chain/safe/safe-contracts';
import { encodeStaticCall } from '../../chain/encoding/abi-words';
import {
  SAFE_NONCE_READ,
  SAFE_SINGLETON_READ,
  safeAccountOf,
  safeAccountReads,
} from './safe-account-reads';

const safe = safeContractsFor(84532)!;
const WALLET = '0x20d18339b6369b94f60efc38f6606a66b62e02d2';
const word = (hex: string) => `0x${hex.replace(/^0x/, '').padStart(64, '0')}`;

describe('safe-account-reads', () => {
  it('asks the wallet for masterCopy() and nonce(), both allowed to fail', () => {
    const reads = safeAccountReads(WALLET);
    expect(reads[SAFE_SINGLETON_READ].call).toEqual({
      target: WALLET,
      allowFailure: true,
      callData: encodeStaticCall('0xa619486e', []),
    });
    expect(reads[SAFE_NONCE_READ].call.callData).toBe('0xaffed0e0');
  });

  it('reads a Safe 1.4.1 (SafeL2 or Safe singleton) with its nonce', () => {
    const reads = safeAccountReads(WALLET);
    for (const singleton of [safe.safeL2Singleton, safe.safeSingleton]) {
      const singletonWord = reads[SAFE_SINGLETON_READ].decode({
        ok: true,
        returnData: word(singleton),
      });
      const nonce = reads[SAFE_NONCE_READ].decode({ ok: true, returnData: word('07') });
      expect(safeAccountOf(safe, WALLET, singletonWord, nonce)).toEqual({
        address: '0x20D18339b6369b94f60eFC38f6606a66B62E02D2',
        singleton,
        nonce: 7n,
      });
    }
  });

  it('reads no Safe from an EOA (no data), a revert, another singleton or a dirty word', () => {
    const reads = safeAccountReads(WALLET);
    const decode = (returnData: string) =>
      reads[SAFE_SINGLETON_READ].decode({ ok: true, returnData });
    const nonce = 0n;
    expect(safeAccountOf(safe, WALLET, decode('0x'), null)).toBeNull();
    expect(
      safeAccountOf(
        safe,
        WALLET,
        reads[SAFE_SINGLETON_READ].decode({
          ok: false,
          revert: { name: 'Unknown', args: {}, code: 'REVERTED', summary: 'revert 0x' },
        }),
        nonce,
      ),
    ).toBeNull();
    expect(safeAccountOf(safe, WALLET, decode(word(safe.multiSendCallOnly)), nonce)).toBeNull();
    expect(
      safeAccountOf(safe, WALLET, decode(`0x01${word(safe.safeL2Singleton).slice(4)}`), nonce),
    ).toBeNull();
    expect(safeAccountOf(safe, WALLET, decode(word(safe.safeL2Singleton)), null)).toBeNull();
  });
});
