import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/**
 * SanctionsList (Chainalysis' oracle interface) and the devnet's SanctionsOracle administration
 * (contracts/src/SanctionsOracle.sol: owner adds and removes addresses, lists them).
 */
export const SANCTIONS_LIST = withCachedSelectors(
  new Interface([
    'function isSanctioned(address addr) view returns (bool)',
    'function addToSanctionsList(address[] addrs)',
    'function removeFromSanctionsList(address[] addrs)',
    'function sanctionedAddresses() view returns (address[])',
    'function owner() view returns (address)',
    'event SanctionedAddressesAdded(address[] addrs)',
    'event SanctionedAddressesRemoved(address[] addrs)',
    'error NotOwner(address caller)',
  ]),
);
