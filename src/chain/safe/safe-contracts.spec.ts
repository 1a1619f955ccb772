import { getSingletonFactoryInfo } from '@safe-global/safe-singleton-factory';
import { getCreate2Address, keccak256, ZeroHash } from 'ethers';
import {
  canonicalSafeDeployment,
  DEVNET_SAFE_DEPLOYMENTS,
  loadSafeArtifact,
  safeContractsFor,
  safeProxyCode,
} from './safe-contracts';

describe('safe-contracts', () => {
  it('knows Safe 1.4.1 on Base Sepolia and Base at the canonical addresses, and no other chain here', () => {
    const sepolia = safeContractsFor(84532);
    expect(sepolia).toEqual({
      version: '1.4.1',
      safeL2Singleton: '0x29fcB43b46531BcA003ddC8FCB67FFE91900C762',
      safeSingleton: '0x41675C099F32341bf84BFc5382aF534df5C7461a',
      proxyFactory: '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67',
      multiSendCallOnly: '0x9641d764fc13c8B624c04430C7356C1C7C8102e2',
      fallbackHandler: '0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99',
    });
    expect(safeContractsFor(8453)).toEqual(sepolia);
    expect(safeContractsFor(31337)).toBeNull();
  });

  it("lands each safe-contracts artifact at its canonical address through Safe's singleton factory, with its code hash", () => {
    const factory = getSingletonFactoryInfo(84532)!.address;
    for (const [name, artifact] of DEVNET_SAFE_DEPLOYMENTS) {
      const { address, codeHash } = canonicalSafeDeployment(name);
      const { bytecode, deployedBytecode } = loadSafeArtifact(artifact);
      expect({ name, address: getCreate2Address(factory, ZeroHash, keccak256(bytecode)) }).toEqual({
        name,
        address,
      });
      // MultiSend and SimulateTxAccessor keep their own address as an immutable: only deployed
      // code has it (the devnet checks that against the canonical hash as it deploys).
      if (name !== 'multiSend' && name !== 'simulateTxAccessor')
        expect({ name, codeHash: keccak256(deployedBytecode!) }).toEqual({ name, codeHash });
    }
  });

  it('has the proxy creation code SafeProxyFactory answers, and one runtime code hash for every proxy', () => {
    const { creationCode, runtimeCodeHash } = safeProxyCode();
    // The factory's own code embeds type(SafeProxy).creationCode.
    const factoryCode = loadSafeArtifact('SafeProxyFactory').deployedBytecode!;
    expect(factoryCode).toContain(creationCode.slice(2));
    expect(runtimeCodeHash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
