import { AbiCoder } from 'ethers';
import devnetFile from '../config/networks/devnet.json';
import { ApiError } from '../common/errors/api-error';
import type { ChainConnection } from './chain-connection';
import { ChainReaderService, decodeChainAnswer, NO_CONTRACT_HINT } from './chain-reader.service';
import type { ChainRpcService } from './chain-rpc.service';
import { readWord, ReturnDataError } from './encoding/abi-words';
import { decodeAggregate3 } from './encoding/multicall';
import { walletReadCallCount } from './encoding/wallet-reads';
import { NetworkFile, resolveNetworkFile } from './network/network-definition';
import { NetworkService } from './network/network.service';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ONE = AbiCoder.defaultAbiCoder().encode(['uint256'], [1n]);

/** aggregate3's answer: every call succeeds with `answer(i)`. */
const aggregate = (count: number, answer: (i: number) => string) =>
  AbiCoder.defaultAbiCoder().encode(
    ['(bool,bytes)[]'],
    [Array.from({ length: count }, (_, i) => [true, answer(i)])],
  );

function readerAnswering(raw: (data: string) => string) {
  const rpc = { call: async ({ data }: { data: string }) => raw(data) };
  const networkService = new NetworkService({ network } as ChainConnection);
  const reader = new ChainReaderService(rpc as unknown as ChainRpcService, networkService);
  return { reader, networkService, rpc };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe(ChainReaderService.name, () => {
  beforeAll(() => jest.spyOn(ChainReaderService.logger, 'warn').mockImplementation(() => {}));
  afterAll(() => jest.restoreAllMocks());

  it('throws ReturnDataError, a named error, for an empty answer (0x) or a truncated batch', () => {
    expect(() => readWord('0x', 0)).toThrow(ReturnDataError);
    expect(() => readWord('0x', 0)).toThrow('return data has no word 0');
    expect(() => decodeAggregate3('0x')).toThrow(ReturnDataError);
  });

  it('maps a read without data to 503 CHAIN_UNAVAILABLE naming the contract, other errors untouched', () => {
    let error: unknown;
    try {
      decodeChainAnswer(
        () => readWord('0x', 0),
        () => '0xRegistry',
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'CHAIN_UNAVAILABLE', status: 503, hint: NO_CONTRACT_HINT });
    expect((error as ApiError).message).toBe(
      'The chain answered a read of 0xRegistry with no data',
    );
    expect(NO_CONTRACT_HINT).toMatch(/npm run cli -- verify-network/);
    const other = new RangeError('not ours');
    expect(() =>
      decodeChainAnswer(
        () => {
          throw other;
        },
        () => undefined,
      ),
    ).toThrow(other);
  });

  it('names the registry when the wallet-read batch gets no data from it', async () => {
    // Call 3 of the batch is ComplianceRegistry.activeUntil (wallet-reads.ts).
    const { reader } = readerAnswering(() =>
      aggregate(walletReadCallCount(network), (i) => (i === 3 ? '0x' : ONE)),
    );
    const error = await rejection(reader.readWallet(wallet));
    expect(error.code).toBe('CHAIN_UNAVAILABLE');
    expect(error.message).toContain(network.contracts.complianceRegistry);
  });

  it('names Multicall3 when it answers nothing (no code at its address)', async () => {
    const { reader } = readerAnswering(() => '0x');
    const error = await rejection(reader.readWallet(wallet));
    expect(error.message).toContain(`Multicall3 ${network.contracts.multicall3}`);
    expect(error.status).toBe(503);
  });
});
