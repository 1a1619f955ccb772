import { Contract, getAddress, Wallet, ZeroAddress } from 'ethers';
import { SCHEMA_REGISTRY } from '../abi/eas';
import { schemaUid } from '../encoding/attestations';
import { acquireDevnet, DevnetHandle } from '../../../test/helpers/devnet';
import { DEVNET_MNEMONIC } from '../devnet/constants';
import { createJsonRpcTransport, JsonRpcError, JsonRpcTransport } from '../json-rpc-http';
import { devnetNetworkFile, NetworkFile } from './network-definition';
import { mismatchLines, NetworkVerification, verifyNetwork, warningLines } from './verify-network';

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

  it('passes the network file of the devnet, with the deployer as attester, in three requests (five with its attestation sources)', async () => {
    const attester = Wallet.fromPhrase(DEVNET_MNEMONIC).address;
    const bare = copy();
    bare.compliance = { ...bare.compliance, attestationSources: [] };
    await chain.resetRpcCount();
    expect((await verifyNetwork(rpc, bare, { attester })).ok).toBe(true);
    expect(await chain.rpcStats()).toEqual({ eth_chainId: 1, eth_call: 2 });
    await chain.resetRpcCount();
    const result = await verifyNetwork(rpc, copy(), { attester });
    expect(mismatchLines(result)).toEqual([]);
    expect(warningLines(result)).toEqual([]);
    expect(result.ok).toBe(true);
    expect(await chain.rpcStats()).toEqual({ eth_chainId: 1, eth_call: 4 });
    // Issue 52: the devnet's sources are guarded as Coinbase's are on Base.
    expect(result.checks).toEqual(
      expect.arrayContaining([
        {
          field: 'compliance.attestationSources[0].schema',
          ok: true,
          message: expect.stringMatching(
            /^verified-account: guarded by the resolver 0x[0-9a-fA-F]{40}, which allows 0x/,
          ),
        },
        {
          field: 'compliance.eas.indexer',
          ok: true,
          message: expect.stringContaining('written only by its INDEXER_ROLE'),
        },
      ]),
    );
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

  it('warns, without failing, about a source whose schema nobody guards and an indexer without INDEXER_ROLE; fails a schema that is not registered (issue 52)', async () => {
    const file = copy();
    const registry = new Contract(
      file.compliance!.eas!.schemaRegistry,
      SCHEMA_REGISTRY,
      chain.wallets[3],
    );
    await (await registry.register('string verifiedCountry', ZeroAddress, true)).wait();
    const open = schemaUid('string verifiedCountry', ZeroAddress, true);
    const sources = file.compliance!.attestationSources!;
    file.compliance!.attestationSources = [
      sources[0],
      { ...sources[1], schema: open },
      { ...sources[1], name: 'nowhere', schema: `0x${'ab'.repeat(32)}` },
    ];
    file.compliance!.eas = { ...file.compliance!.eas!, indexer: file.contracts.multicall3! };
    const result = await verifyNetwork(rpc, file);
    expect(mismatchLines(result)).toEqual([
      `compliance.attestationSources[2].schema: 0x${'ab'.repeat(32)} is not registered in the SchemaRegistry ${file.compliance!.eas!.schemaRegistry}`,
    ]);
    const warnings = warningLines(result);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^compliance\.attestationSources\[1\]\.schema: verified-country: the schema is not guarded \(registered without a resolver\): anyone may attest it/,
      ),
      expect.stringMatching(
        /^compliance\.eas\.indexer: 0x[0-9a-fA-F]{40} does not answer INDEXER_ROLE\(\)/,
      ),
    ]);
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
      `contracts.complianceHook: ${registry} carries the hook flags 0x${flags}; our hook v3 needs exactly 0x0a80 (beforeAddLiquidity | beforeRemoveLiquidity | beforeSwap)`,
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

  it('names a standby attester (or a token key) the registry does not know, by its setting', async () => {
    const attester = Wallet.fromPhrase(DEVNET_MNEMONIC).address;
    const stranger = Wallet.createRandom().address;
    const file = copy();
    const result = await verifyNetwork(rpc, file, {
      attester,
      attesterField: 'PKCS11_KEY_LABEL',
      standbyAttester: stranger,
      standbyAttesterField: 'PKCS11_STANDBY_KEY_LABEL',
    });
    expect(mismatchLines(result)).toEqual([
      `PKCS11_STANDBY_KEY_LABEL: ${stranger} is not an attester of the registry ${file.contracts.complianceRegistry}`,
    ]);
    expect(result.checks).toContainEqual(
      expect.objectContaining({ field: 'PKCS11_KEY_LABEL', ok: true }),
    );
  });

  it('checks hook v3: its version, the authorizers of the file and the configured one, the attester as enforcer (issue 54)', async () => {
    const attester = Wallet.fromPhrase(DEVNET_MNEMONIC).address;
    const file = copy();
    expect(file).toMatchObject({ hookVersion: 3, authorizers: [attester] });
    const ok = await verifyNetwork(rpc, file, { attester, authorizer: attester });
    expect(mismatchLines(ok)).toEqual([]);
    for (const field of ['hookVersion', 'authorizers[0]', 'AUTHORIZER_PRIVATE_KEY'])
      expect(ok.checks).toContainEqual(expect.objectContaining({ field, ok: true }));

    const stranger = Wallet.createRandom().address;
    const hook = file.contracts.complianceHook;
    const result = await verifyNetwork(rpc, file, { attester, authorizer: stranger });
    expect(mismatchLines(result)).toEqual([
      `AUTHORIZER_PRIVATE_KEY: the hook ${hook} does not accept authorizations signed by ${stranger} (isAuthorizer is false): run npm run cli -- deploy --authorizer ${stranger}`,
    ]);
    // The file's authorizers are checked too.
    const other = copy();
    other.authorizers = [stranger];
    expect(failedFields(await verifyNetwork(rpc, other, { attester }))).toEqual(['authorizers[0]']);
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
