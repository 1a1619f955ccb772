import { getAddress, getCreate2Address, keccak256 } from 'ethers';
import { initCode, loadOwnArtifact } from './contract-artifacts';
import {
  hasHookFlags,
  isCreate2Contract,
  mineSalt,
  predictOurContracts,
  saltOf,
} from './create2-addresses';
import { CREATE2_DEPLOYER_ADDRESS, HOOK_FLAG_MASK, HOOK_FLAGS } from './deployment-constants';

const INPUT = {
  create2Deployer: CREATE2_DEPLOYER_ADDRESS,
  poolManager: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  weth: '0x77139Fa81c4434893f9D7e033C3e3903C46B820D',
  deployer: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  attester: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  // The devnet's SanctionsOracle (src/config/networks/devnet.json compliance.sanctionsOracle).
  screening: {
    sanctionsOracle: '0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6',
    exitPolicy: 'freeze' as const,
  },
};

describe('CREATE2 addresses', () => {
  it('mines the first salt whose EIP-1014 address passes, as ethers computes it', () => {
    const code = '0x6000';
    const mined = mineSalt(CREATE2_DEPLOYER_ADDRESS, code, (a) => a.endsWith('0'));
    const index = BigInt(mined.salt);
    expect(mined.address).toBe(
      getCreate2Address(CREATE2_DEPLOYER_ADDRESS, mined.salt, keccak256(code)),
    );
    expect(mined.address.toLowerCase().endsWith('0')).toBe(true);
    for (let i = 0n; i < index; i++) {
      const earlier = getCreate2Address(
        CREATE2_DEPLOYER_ADDRESS,
        saltOf(Number(i)),
        keccak256(code),
      );
      expect(earlier.toLowerCase().endsWith('0')).toBe(false);
    }
    expect(() => mineSalt(CREATE2_DEPLOYER_ADDRESS, code, () => false, 10)).toThrow(
      /no CREATE2 salt below 10/,
    );
  });

  it('accepts a hook address only with exactly beforeAddLiquidity | beforeRemoveLiquidity | beforeSwap (v2 and v3) in its low 14 bits', () => {
    expect(HOOK_FLAGS).toBe(0xa80n);
    expect(hasHookFlags('0x0000000000000000000000000000000000000a80')).toBe(true);
    expect(hasHookFlags('0xffffffffffffffffffffffffffffffffffffca80')).toBe(true);
    expect(hasHookFlags('0x0000000000000000000000000000000000000ac0')).toBe(false); // + afterSwap
    expect(hasHookFlags('0x0000000000000000000000000000000000000880')).toBe(false); // exits unhooked
    expect(hasHookFlags('0x0000000000000000000000000000000000000a81')).toBe(false); // + afterDonate
    expect(hasHookFlags('0x0000000000000000000000000000000000000080')).toBe(false);
    expect(hasHookFlags('0x0000000000000000000000000000000000002a80')).toBe(false);
  });

  it('predicts a hook address carrying its flags, for the init code the hook is deployed with', () => {
    const ours = predictOurContracts(INPUT);
    const { complianceHook, complianceRegistry, testToken } = ours;
    expect(BigInt(complianceHook.address) & HOOK_FLAG_MASK).toBe(HOOK_FLAGS);
    expect(complianceHook.initCode).toBe(
      initCode(loadOwnArtifact('ComplianceHookV3'), [
        INPUT.poolManager,
        complianceRegistry.address,
        INPUT.deployer,
        INPUT.screening.sanctionsOracle,
        true,
      ]),
    );
    expect(complianceHook.address).toBe(
      getCreate2Address(
        CREATE2_DEPLOYER_ADDRESS,
        complianceHook.salt,
        keccak256(complianceHook.initCode),
      ),
    );
    // WETH must be token0: the test token sorts above it.
    expect(BigInt(testToken.address) > BigInt(INPUT.weth)).toBe(true);
    // Deterministic: the embedded devnet's addresses (src/config/networks/devnet.json).
    expect(complianceRegistry.address).toBe('0x27e0Ec776049b21912B5bca64D2E33c4bFe8196E');
    expect(complianceHook.address).toBe('0xFA9e22eF24B5C2e86Dd1dA6d13480c69A385CA80');
    expect(testToken.address).toBe('0x993706027b3eC9d8b03A962CAaa15C133A52707c');
  });

  it('depends on the attester (a constructor argument), and keeps a registry the file names', () => {
    const other = predictOurContracts({
      ...INPUT,
      attester: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
    const ours = predictOurContracts(INPUT);
    expect(other.complianceRegistry.address).not.toBe(ours.complianceRegistry.address);
    const kept = predictOurContracts({
      ...INPUT,
      attester: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      existingRegistry: ours.complianceRegistry.address.toLowerCase(),
    });
    expect(isCreate2Contract(kept.complianceRegistry)).toBe(false);
    expect(kept.complianceRegistry.address).toBe(getAddress(ours.complianceRegistry.address));
    expect(kept.complianceHook.address).toBe(ours.complianceHook.address);
    expect(
      isCreate2Contract(
        predictOurContracts({ ...INPUT, existingRegistry: ours.complianceRegistry.address })
          .complianceRegistry,
      ),
    ).toBe(true);
  });
});
