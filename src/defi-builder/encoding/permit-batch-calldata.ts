/**
 * A PositionManager call preceded by a signed Permit2 batch permit, in one transaction:
 * PositionManager.multicall([permitBatch(owner, permitBatch, signature), call]) (v4-periphery
 * Permit2Forwarder + Multicall_v4).
 *
 * The bytes are those of @uniswap/v4-sdk's V4PositionManager.encodePermitBatch inside an ethers
 * multicall encode, written word by word (`npm run bench:encoders`); liquidity-calldata.spec.ts asserts byte
 * equality against the library.
 */
import { selectorOf } from '../../chain/abi/selectors';
import { POSITION_MANAGER } from '../../chain/abi/uniswap-v4';
import {
  addressWord,
  bytesBody,
  encodedBytesArrayBody,
  encodeParts,
  hexData,
  parseUint,
  sizeWord,
  uintWord,
} from '../../chain/encoding/abi-words';
import { checksumAddress } from '../../common/address/checksum-address';
import type { PermitBatch } from './permit2-typed-data';

const MULTICALL = selectorOf(POSITION_MANAGER, 'multicall');
const PERMIT_BATCH = selectorOf(POSITION_MANAGER, 'permitBatch');
/** PermitBatch's details array sits after its 3 head words. */
const DETAILS_AT = sizeWord(3 * 32);

/** permitBatch(owner, PermitBatch, signature) (hex body, no 0x). */
function permitBatchCall(owner: string, permitBatch: PermitBatch, signature: string): string {
  let details = sizeWord(permitBatch.details.length);
  for (const d of permitBatch.details) {
    details +=
      addressWord(checksumAddress(d.token)) +
      uintWord(parseUint(d.amount), 160) +
      uintWord(parseUint(d.expiration), 48) +
      uintWord(parseUint(d.nonce), 48);
  }
  const batch =
    DETAILS_AT +
    addressWord(checksumAddress(permitBatch.spender)) +
    uintWord(parseUint(permitBatch.sigDeadline)) +
    details;
  return (
    PERMIT_BATCH.slice(2) +
    encodeParts([
      addressWord(checksumAddress(owner)),
      { tail: batch },
      { tail: bytesBody(signature) },
    ])
  );
}

export function withPermitBatch(
  call: string,
  owner: string,
  permitBatch: PermitBatch,
  signature: string,
): string {
  const calls = [permitBatchCall(owner, permitBatch, signature), hexData(call)];
  return `${MULTICALL}${encodeParts([{ tail: encodedBytesArrayBody(calls) }])}`;
}
