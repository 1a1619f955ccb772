import { getAddress, Wallet } from 'ethers';
import { acquireDevnet, DevnetHandle } from '../../../test/helpers/devnet';
import { DEVNET_MNEMONIC } from '../devnet/constants';
import { createJsonRpcTransport, JsonRpcError, JsonRpcTransport } from '../json-rpc-http';
import { devnetNetworkFile, NetworkFile } from './network-definition';
import { mismatchLines, NetworkVerification, verifyNetwork } from './verify-network';

const failedFields = (result: NetworkVerification) =>
  result.checks.filter((c) => !c.ok).map((c) => c.field);

describe('verifyNetwork (devnet)', () => {
  let chain: DevnetHandle;
  let rpc: JsonRpcTransport;
  /** The network file of the running devnet's deployment (devnet.spec.ts compares it to devnet.json). */
  const copy = (): NetworkFile => structuredClone(devnetNetworkFile(chain.deployment));
  const NO_CODE = '0x00000000000000000000000000000000000c0de0';

  beforeAll(async () => {
    chain = await acquireDevnet();
    rpc = createJsonRpcTransport(chain.rpcUrl, 5_000);
  }, 60_000);
  afterAll(async () => {
    rpc?.destroy();
    await chain?.release();
  });

  it('passes the network file of the devnet, with the deployer as attester, in three requests', async () => {
    const attester = Wallet.fromPhrase(DEVNET_MNEMONIC).address;
    await chain.resetRpcCount();
    const result = await verifyNetwork(rpc, copy(), { attester });
    expect(mismatchLines(result)).toEqual([]);
    expect(result.ok).toBe(true);
    expect(await chain.rpcStats()).toEqual({ eth_chainId: 1, eth_call: 2 });
    const fields = result.checks.map((c) => c.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'chainId',
        'contracts.complianceHook',
        'tokens.tUSDC.address',
        'pool',
        'ATTESTER_PRIVATE_KEY',
        'contracts.universalRouter',
        'tokens.WETH.decimals',
      ]),
    );
    expect(result.checks.find((c) => c.field === 'pool')?.message).toMatch(/is initialized/);
  });

  it('names the hook when it is replaced by the registry address (flags), and nothing that depends on it', async () => {
    const file = copy();
    file.contracts.complianceHook = file.contracts.complianceRegistry;
    const result = await verifyNetwork(rpc, file);
    expect(result.ok).toBe(false);
    expect(failedFields(result)).toEqual(['contracts.complianceHook']);
    const registry = file.contracts.complianceRegistry!;
    const flags = (BigInt(registry) & 0x3fffn).toString(16).padStart(4, '0');
    expect(mismatchLines(result)).toEqual([
      `contracts.complianceHook: ${registry} carries the hook flags 0x${flags}; our hook needs exactly 0x0a80 (beforeAddLiquidity | beforeRemoveLiquidity | beforeSwap)`,
    ]);
  });

  it('names tUSDC (order) and WETH (decimals) when the two tokens are swapped', async () => {
    const file = copy();
    [file.tokens.WETH.address, file.tokens.tUSDC.address] = [
      file.tokens.tUSDC.address,
      file.tokens.WETH.address,
    ];
    const result = await verifyNetwork(rpc, file);
    expect(failedFields(result)).toEqual(['tokens.tUSDC.address', 'tokens.WETH.decimals']);
    expect(mismatchLines(result).join('\n')).toMatch(/WETH must be token0/);
  });

  it('names an address without code, a wrong chainId, a registry the hook does not use, and an attester', async () => {
    const file = copy();
    const hookRegistry = file.contracts.complianceRegistry;
    file.contracts.v4Quoter = NO_CODE;
    file.chainId = 8453;
    file.contracts.complianceRegistry = file.contracts.positionDescriptor!;
    const result = await verifyNetwork(rpc, file, { attester: Wallet.createRandom().address });
    expect(failedFields(result)).toEqual([
      'chainId',
      'contracts.v4Quoter',
      'contracts.complianceRegistry',
      'contracts.complianceRegistry',
    ]);
    expect(mismatchLines(result)).toEqual([
      'chainId: the RPC serves chainId 84532, the file says 8453',
      `contracts.v4Quoter: ${getAddress(NO_CODE)} has no code on this chain`,
      `contracts.complianceRegistry: the hook's registry is ${hookRegistry}, the file says ${file.contracts.positionDescriptor}`,
      `contracts.complianceRegistry: ${file.contracts.positionDescriptor} does not answer isAttester: not our registry`,
    ]);
  });

  it('names the attester the registry does not know, and an uninitialized pool', async () => {
    const file = copy();
    file.pool.fee = 500;
    const stranger = Wallet.createRandom().address;
    const result = await verifyNetwork(rpc, file, { attester: stranger });
    expect(mismatchLines(result)).toEqual([
      `ATTESTER_PRIVATE_KEY: ${stranger} is not an attester of the registry ${file.contracts.complianceRegistry}`,
      `pool: WETH/tUSDC (fee 500, tickSpacing 60, hooks ${file.contracts.complianceHook}) is not initialized; run npm run cli -- deploy`,
    ]);
  });

  it('says to deploy when our contracts are still null', async () => {
    const file = copy();
    file.contracts.complianceRegistry = null;
    file.contracts.complianceHook = null;
    file.tokens.tUSDC.address = null;
    const result = await verifyNetwork(rpc, file);
    expect(mismatchLines(result)).toEqual([
      'contracts.complianceRegistry: is null: our contracts are not deployed on this network yet; run npm run cli -- deploy',
      'contracts.complianceHook: is null: our contracts are not deployed on this network yet; run npm run cli -- deploy',
      'tokens.tUSDC.address: is null: our contracts are not deployed on this network yet; run npm run cli -- deploy',
    ]);
  });

  it('falls back to eth_getCode on a node that refuses calls without `to`', async () => {
    const refusing: Pick<JsonRpcTransport, 'send'> = {
      send: <T>(method: string, params: unknown[]) => {
        const [tx] = params as Array<{ to?: string }>;
        if (method === 'eth_call' && !tx.to)
          return Promise.reject(new JsonRpcError(-32000, 'contract creation not allowed'));
        return rpc.send<T>(method, params);
      },
    };
    const file = copy();
    file.contracts.permit2 = NO_CODE;
    expect(failedFields(await verifyNetwork(refusing, file))).toEqual(['contracts.permit2']);
  });
});
