import {
  calculateSafeMessageHash,
  calculateSafeTransactionHash,
  decodeMultiSendData,
  encodeMultiSendData,
  hashSafeMessage,
} from '@safe-global/protocol-kit';
import { OperationType } from '@safe-global/types-kit';
import { getAddress, TypedDataEncoder, Wallet, ZeroAddress } from 'ethers';
import { MULTI_SEND_CALL_ONLY } from '../abi/safe';
import { SeededRandom, seededRandom } from '../../../test/helpers/seeded-random';
import {
  batchSafeTx,
  concatSafeSignatures,
  decodeExecTransaction,
  decodeMultiSend,
  encodeExecTransaction,
  encodeMultiSend,
  MultiSendFormatError,
  SAFE_MESSAGE_TYPES,
  SafeCall,
  safeMessageTypedData,
  SafeTx,
  safeTxHash,
  safeTxTypedData,
} from './safe-transactions';

const CHAIN_ID = 84532;
const MULTI_SEND_CALL_ONLY_ADDRESS = '0x9641d764fc13c8B624c04430C7356C1C7C8102e2';
const SAFE_ADDRESS = getAddress('0x' + 'ab'.repeat(20));

function randomCalls(random: SeededRandom, count: number): SafeCall[] {
  return Array.from({ length: count }, () => ({
    to: getAddress(random.address()),
    value: random.bool() ? 0n : random.uint(96),
    data: `0x${random.bytes(random.int(300))}`,
  }));
}

/** protocol-kit's SafeTransactionData for a SafeTx (decimal strings, as its types take them). */
function protocolKitTx(tx: SafeTx) {
  return {
    to: tx.to,
    value: tx.value.toString(),
    data: tx.data,
    operation: tx.operation as unknown as OperationType,
    safeTxGas: tx.safeTxGas.toString(),
    baseGas: tx.baseGas.toString(),
    gasPrice: tx.gasPrice.toString(),
    gasToken: tx.gasToken,
    refundReceiver: tx.refundReceiver,
    nonce: Number(tx.nonce),
  };
}

describe('safe-transactions', () => {
  const random = seededRandom(57);

  it('packs a MultiSendCallOnly batch exactly as protocol-kit, and reads it back', () => {
    for (let n = 1; n <= 40; n++) {
      const calls = randomCalls(random, 1 + (n % 4));
      const data = encodeMultiSend(calls);
      const [packed] = MULTI_SEND_CALL_ONLY.decodeFunctionData('multiSend', data);
      const theirs = encodeMultiSendData(
        calls.map((c) => ({
          to: c.to,
          value: c.value.toString(),
          data: c.data,
          operation: OperationType.Call,
        })),
      );
      expect(packed).toBe(theirs.toLowerCase());
      expect(decodeMultiSend(data)).toEqual(calls);
      expect(decodeMultiSendData(data).map((t) => t.to)).toEqual(calls.map((c) => c.to));
    }
  });

  it('refuses a batch that is not exactly an operation-0 MultiSendCallOnly batch', () => {
    const [call] = randomCalls(random, 1);
    const good = encodeMultiSend([call]);
    const packed = MULTI_SEND_CALL_ONLY.decodeFunctionData('multiSend', good)[0] as string;
    const reencode = (bytes: string) =>
      MULTI_SEND_CALL_ONLY.encodeFunctionData('multiSend', [bytes]);
    const delegate = reencode(`0x01${packed.slice(4)}`);
    const cut = reencode(packed.slice(0, -2));
    const trailing = `${good}00`;
    for (const [data, reason] of [
      [delegate, /operation 1/],
      [cut, /cut short/],
      [trailing, /(not canonical|does not decode)/],
      ['0xdeadbeef', /not multiSend/],
    ] as const)
      expect(() => decodeMultiSend(data)).toThrow(
        expect.objectContaining({
          constructor: MultiSendFormatError,
          message: expect.stringMatching(reason),
        }),
      );
  });

  it('hashes a SafeTx as protocol-kit does (EIP-712, chainId + verifyingContract domain)', () => {
    for (let n = 0; n < 25; n++) {
      const tx: SafeTx = {
        ...batchSafeTx(MULTI_SEND_CALL_ONLY_ADDRESS, randomCalls(random, 3), BigInt(n * 7)),
        ...(n % 2 === 1
          ? { safeTxGas: 100_000n, baseGas: 21_000n, gasPrice: 1n, refundReceiver: SAFE_ADDRESS }
          : {}),
      };
      const ours = safeTxHash(CHAIN_ID, SAFE_ADDRESS, tx);
      expect(ours).toBe(
        calculateSafeTransactionHash(SAFE_ADDRESS, protocolKitTx(tx), '1.4.1', BigInt(CHAIN_ID)),
      );
      // The typed data wallets sign hashes to the same safeTxHash.
      const typed = safeTxTypedData(CHAIN_ID, SAFE_ADDRESS, tx);
      const { EIP712Domain, ...types } = typed.types;
      expect(EIP712Domain.map((f) => f.name)).toEqual(['chainId', 'verifyingContract']);
      expect(TypedDataEncoder.hash(typed.domain, types, typed.message)).toBe(ours);
    }
  });

  it('batches with no refund, every gas field 0: the relayer pays, a failure reverts', () => {
    const tx = batchSafeTx(MULTI_SEND_CALL_ONLY_ADDRESS, randomCalls(random, 2), 3n);
    expect(tx).toMatchObject({
      to: MULTI_SEND_CALL_ONLY_ADDRESS,
      operation: 1,
      value: 0n,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: ZeroAddress,
      refundReceiver: ZeroAddress,
      nonce: 3n,
    });
  });

  it("signs a SafeMessage (ERC-1271) as protocol-kit's calculateSafeMessageHash over hashSafeMessage", async () => {
    const owner = Wallet.createRandom();
    const siwe = 'example.com wants you to sign in with your Ethereum account:\n...';
    const hash = hashSafeMessage(siwe);
    const typed = safeMessageTypedData(CHAIN_ID, SAFE_ADDRESS, hash);
    const { EIP712Domain: _domain, ...types } = typed.types;
    expect(types).toEqual(SAFE_MESSAGE_TYPES);
    expect(TypedDataEncoder.hash(typed.domain, types, typed.message)).toBe(
      calculateSafeMessageHash(SAFE_ADDRESS, hash, '1.4.1', BigInt(CHAIN_ID)),
    );
    const signature = await owner.signTypedData(typed.domain, types, typed.message);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
  });

  it('concatenates owner signatures in ascending signer order', () => {
    const low = { signer: '0x' + '11'.repeat(20), signature: '0x' + 'aa'.repeat(65) };
    const high = { signer: '0x' + 'EE'.repeat(20), signature: '0x' + 'bb'.repeat(65) };
    expect(concatSafeSignatures([high, low])).toBe(`0x${'aa'.repeat(65)}${'bb'.repeat(65)}`);
  });

  it('decodes execTransaction calldata it would write, and nothing else', () => {
    const tx = batchSafeTx(MULTI_SEND_CALL_ONLY_ADDRESS, randomCalls(random, 2), 0n);
    const signatures = `0x${'cd'.repeat(130)}`;
    const data = encodeExecTransaction(tx, signatures);
    const { nonce: _nonce, ...fields } = tx;
    expect(decodeExecTransaction(data)).toEqual({ ...fields, signatures });
    expect(decodeExecTransaction(`${data}00`)).toBeNull();
    expect(decodeExecTransaction(encodeMultiSend([]))).toBeNull();
  });
});
