/**
 * Pure encoders/decoders for EAS attestations (ethereum-attestation-service/eas-contracts):
 * schema uids, the getAttestation answer, and the data of the Verified-Account- and
 * Verified-Country-shaped schemas (coinbase/verifications).
 */
import { AbiCoder, getAddress, solidityPackedKeccak256 } from 'ethers';
import { EAS } from '../abi/eas';

export const ZERO_UID = `0x${'00'.repeat(32)}`;

export interface AttestationRecord {
  uid: string;
  schema: string;
  /** unix s the attestation was made. */
  time: number;
  /** unix s; 0 = never */
  expirationTime: number;
  /** unix s; 0 = not revoked */
  revocationTime: number;
  recipient: string;
  attester: string;
  data: string;
}

/** SchemaRegistry's uid: keccak256(abi.encodePacked(schema, resolver, revocable)). */
export function schemaUid(schema: string, resolver: string, revocable: boolean): string {
  return solidityPackedKeccak256(['string', 'address', 'bool'], [schema, resolver, revocable]);
}

export function decodeAttestation(returnData: string): AttestationRecord {
  const [a] = EAS.decodeFunctionResult('getAttestation', returnData) as unknown as [
    {
      uid: string;
      schema: string;
      time: bigint;
      expirationTime: bigint;
      revocationTime: bigint;
      recipient: string;
      attester: string;
      data: string;
    },
  ];
  return {
    uid: a.uid,
    schema: a.schema,
    time: Number(a.time),
    expirationTime: Number(a.expirationTime),
    revocationTime: Number(a.revocationTime),
    recipient: getAddress(a.recipient),
    attester: getAddress(a.attester),
    data: a.data,
  };
}

const coder = AbiCoder.defaultAbiCoder();

export function encodeVerifiedAccount(verified = true): string {
  return coder.encode(['bool'], [verified]);
}

export function encodeVerifiedCountry(country: string): string {
  return coder.encode(['string'], [country]);
}

/** The ISO 3166-1 alpha-2 code of a Verified Country attestation, upper-cased; null if unreadable. */
export function decodeVerifiedCountry(data: string): string | null {
  try {
    const [country] = coder.decode(['string'], data) as unknown as [string];
    return country.toUpperCase();
  } catch {
    return null;
  }
}

/** A Verified Account attestation's flag; false if unreadable. */
export function decodeVerifiedAccount(data: string): boolean {
  try {
    return (coder.decode(['bool'], data) as unknown as [boolean])[0];
  } catch {
    return false;
  }
}
