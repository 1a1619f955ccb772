/**
 * A new Safe, as SafeProxyFactory.createProxyWithNonce makes it, pure: the `setup` initializer
 * (owners, threshold, the CompatibilityFallbackHandler that answers ERC-1271), the CREATE2 address
 * the factory will give it (salt = keccak256(keccak256(initializer) . saltNonce), init code = the
 * proxy's creation code + the singleton), and the factory call.
 *
 * The default salt nonce is protocol-kit's (PREDETERMINED_SALT_NONCE with the chain id), so the
 * same owners and threshold predict the same address in Safe's SDK with its defaults; the Safe
 * e2e checks the CLI's Safe against protocol-kit's predictSafeAddress.
 */
import {
  AbiCoder,
  concat,
  getAddress,
  getCreate2Address,
  keccak256,
  toUtf8Bytes,
  ZeroAddress,
} from 'ethers';
import { SAFE, SAFE_PROXY_FACTORY } from '../abi/safe';
import type { SafeContracts } from './safe-contracts';

/** protocol-kit's PREDETERMINED_SALT_NONCE (keccak256 of "Safe Account Abstraction"). */
const PREDETERMINED_SALT_NONCE =
  '0xb1073742015cbcf5a3a4d9d1ae33ecf619439710b89475f92e2abd2117e90f90';

export interface SafeConfig {
  owners: readonly string[];
  threshold: number;
  saltNonce: bigint;
}

/** protocol-kit's chain-specific default salt nonce: keccak256(utf8(PREDETERMINED + chainId)). */
export function defaultSaltNonce(chainId: number): bigint {
  return BigInt(keccak256(toUtf8Bytes(`${PREDETERMINED_SALT_NONCE}${chainId}`)));
}

/** Owners distinct, non-zero, checksummed; 1 <= threshold <= owners. Throws RangeError. */
export function checkSafeConfig(owners: readonly string[], threshold: number): string[] {
  const checked = owners.map((owner) => getAddress(owner));
  if (checked.length === 0) throw new RangeError('a Safe needs at least one owner');
  if (new Set(checked).size !== checked.length) throw new RangeError('owners must be distinct');
  if (checked.includes(ZeroAddress)) throw new RangeError('the zero address cannot be an owner');
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > checked.length)
    throw new RangeError(`threshold must be a whole number from 1 to ${checked.length}`);
  return checked;
}

/** Safe.setup(owners, threshold, no module call, fallback handler, no payment). */
export function safeSetupInitializer(contracts: SafeContracts, config: SafeConfig): string {
  return SAFE.encodeFunctionData('setup', [
    checkSafeConfig(config.owners, config.threshold),
    config.threshold,
    ZeroAddress,
    '0x',
    contracts.fallbackHandler,
    ZeroAddress,
    0,
    ZeroAddress,
  ]);
}

/** The address createProxyWithNonce gives this Safe (SafeL2 singleton). */
export function predictSafeAddress(
  contracts: SafeContracts,
  proxyCreationCode: string,
  config: SafeConfig,
): string {
  const abi = AbiCoder.defaultAbiCoder();
  const salt = keccak256(
    concat([
      keccak256(safeSetupInitializer(contracts, config)),
      abi.encode(['uint256'], [config.saltNonce]),
    ]),
  );
  const initCode = concat([
    proxyCreationCode,
    abi.encode(['address'], [contracts.safeL2Singleton]),
  ]);
  return getCreate2Address(contracts.proxyFactory, salt, keccak256(initCode));
}

/** The factory call that creates the Safe: to the SafeProxyFactory. */
export function createSafeCalldata(contracts: SafeContracts, config: SafeConfig): string {
  return SAFE_PROXY_FACTORY.encodeFunctionData('createProxyWithNonce', [
    contracts.safeL2Singleton,
    safeSetupInitializer(contracts, config),
    config.saltNonce,
  ]);
}
