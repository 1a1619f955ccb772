/**
 * Where our contracts land: each goes through the CREATE2 deployer with a deterministic salt, so
 * its address follows from the deployer, the attester and the infrastructure alone, and a re-run
 * finds what an earlier run deployed by looking at that address. The owner is a constructor
 * argument (the CREATE2 deployer is msg.sender there), so whoever sends the creation, the
 * contract at the address is ours. Pure functions, no I/O.
 */
import { getAddress, getBytes, keccak256, toBeHex, zeroPadValue } from 'ethers';
import { initCode, loadOwnArtifact } from './contract-artifacts';
import type { ComplianceNetworkSettings } from '../network/network.types';
import { HOOK_FLAG_MASK, HOOK_FLAGS } from './deployment-constants';

export interface Create2Contract {
  salt: string;
  initCode: string;
  address: string;
}

/** A contract a network file already names (an earlier deployment's registry): used as found. */
export interface NamedContract {
  address: string;
}

export function isCreate2Contract(
  contract: Create2Contract | NamedContract,
): contract is Create2Contract {
  return 'salt' in contract;
}

export interface OurContractsInput {
  create2Deployer: string;
  poolManager: string;
  weth: string;
  /** Owner of the registry, the hook and the test token. */
  deployer: string;
  /** The registry's first attester (the service's key). */
  attester: string;
  /**
   * The registry an earlier deployment put on this network (the file's), when it is not where
   * this deployer/attester pair would put one: e.g. after the attester was rotated.
   */
  existingRegistry?: string | null;
  /** The hook's sanctions oracle and exit policy (constructor arguments; absent: none, "freeze"). */
  screening?: ComplianceNetworkSettings;
}

export interface OurContracts {
  complianceRegistry: Create2Contract | NamedContract;
  complianceHook: Create2Contract;
  /** The test stablecoin (deployed only when no existing token is used). */
  testToken: Create2Contract;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export function saltOf(n: number): string {
  return zeroPadValue(toBeHex(n), 32);
}

/**
 * The first salt, scanning from 0, whose CREATE2 address satisfies `accept` (which receives the
 * lower-case address). Deterministic: the same inputs always give the same salt. One keccak per
 * candidate over a reused buffer: mining the hook takes ~16,000 candidates on average.
 */
export function mineSalt(
  create2Deployer: string,
  code: string,
  accept: (address: string) => boolean,
  limit = 1_000_000,
): Create2Contract {
  // 0xff ++ deployer (20) ++ salt (32) ++ keccak256(initCode) (32): EIP-1014.
  const preimage = new Uint8Array(85);
  preimage[0] = 0xff;
  preimage.set(getBytes(create2Deployer), 1);
  preimage.set(getBytes(keccak256(code)), 53);
  for (let i = 0; i < limit; i++) {
    // The salt is i as a big-endian word; i < 2^32, so only its last 4 bytes change.
    preimage[49] = (i >>> 24) & 0xff;
    preimage[50] = (i >>> 16) & 0xff;
    preimage[51] = (i >>> 8) & 0xff;
    preimage[52] = i & 0xff;
    const address = `0x${keccak256(preimage).slice(26)}`;
    if (accept(address)) return { salt: saltOf(i), initCode: code, address: getAddress(address) };
  }
  throw new Error(`no CREATE2 salt below ${limit} gives an acceptable address`);
}

const FLAG_MASK = Number(HOOK_FLAG_MASK);
const FLAGS = Number(HOOK_FLAGS);

/** The lowest 14 bits of a hook address are its permissions: exactly ours, nothing more. */
export function hasHookFlags(address: string): boolean {
  return (parseInt(address.slice(-4), 16) & FLAG_MASK) === FLAGS;
}

/** Where the registry, the hook and the test token of this deployer/attester pair go. */
export function predictOurContracts(input: OurContractsInput): OurContracts {
  const deployer = getAddress(input.deployer);
  const registryCode = initCode(loadOwnArtifact('ComplianceRegistry'), [
    deployer,
    getAddress(input.attester),
  ]);
  const predictedRegistry = mineSalt(input.create2Deployer, registryCode, () => true);
  const complianceRegistry: Create2Contract | NamedContract =
    input.existingRegistry && getAddress(input.existingRegistry) !== predictedRegistry.address
      ? { address: getAddress(input.existingRegistry) }
      : predictedRegistry;
  const hookCode = initCode(loadOwnArtifact('ComplianceHookV3'), [
    getAddress(input.poolManager),
    complianceRegistry.address,
    deployer,
    input.screening?.sanctionsOracle ?? ZERO_ADDRESS,
    (input.screening?.exitPolicy ?? 'freeze') === 'freeze',
  ]);
  const complianceHook = mineSalt(input.create2Deployer, hookCode, hasHookFlags);
  // Spec §1: WETH must be token0, so the test token takes the first salt sorting above WETH.
  const weth = BigInt(input.weth);
  const tokenCode = initCode(loadOwnArtifact('TestUSDC'), [deployer]);
  const testToken = mineSalt(input.create2Deployer, tokenCode, (a) => BigInt(a) > weth);
  return { complianceRegistry, complianceHook, testToken };
}
