import { AbiCoder } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { ApiError } from '../../common/errors/api-error';
import type { ChainConnection } from '../../chain/chain-connection';
import { ChainReaderService, NO_CONTRACT_HINT } from '../../chain/chain-reader.service';
import type { ChainRpcService } from '../../chain/chain-rpc.service';
import type { WalletSimulatorService } from '../../chain/simulation/wallet-simulator.service';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { NetworkService } from '../../chain/network/network.service';
import { slot0Read } from '../encoding/market-reads';
import { ChainLayerDefiChain } from './defi-chain.adapter';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const ONE = AbiCoder.defaultAbiCoder().encode(['uint256'], [1n]);

/** aggregate3's answer: call i answers `answer(i)`. */
const aggregate = (count: number, answer: (i: number) => string) =>
  AbiCoder.defaultAbiCoder().encode(
    ['(bool,bytes)[]'],
    [Array.from({ length: count }, (_, i) => [true, answer(i)])],
  );

describe(ChainLayerDefiChain.name, () => {
  beforeAll(() => jest.spyOn(ChainReaderService.logger, 'warn').mockImplementation(() => {}));
  afterAll(() => jest.restoreAllMocks());

  it("names the StateView when an operation's own read gets no data", async () => {
    const rpc = { call: async () => aggregate(2, (i) => (i ? '0x' : ONE)) };
    const networkService = new NetworkService({ network } as ChainConnection);
    const reader = new ChainReaderService(rpc as unknown as ChainRpcService, networkService);
    const chain = new ChainLayerDefiChain(
      networkService,
      reader,
      {} as ChainRpcService,
      {} as WalletSimulatorService,
    );
    const error = await chain.read({ slot0: slot0Read(network) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'CHAIN_UNAVAILABLE', hint: NO_CONTRACT_HINT });
    expect((error as ApiError).message).toContain(network.contracts.stateView);
  });
});
