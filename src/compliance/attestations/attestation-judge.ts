/**
 * Pure judgement of one attestation against one accepted source at the chain's time. The order
 * names the most specific reason: absent, then not ours (attester, schema, recipient), then
 * revoked, then expired.
 */
import type { AttestationSource } from '../../chain/network/network.types';
import {
  AttestationRecord,
  decodeVerifiedAccount,
  decodeVerifiedCountry,
} from '../../chain/encoding/attestations';

export type AttestationReason =
  | 'ok'
  | 'not_found'
  | 'other_attester'
  | 'other_schema'
  | 'other_recipient'
  | 'not_verified'
  | 'revoked'
  | 'expired';

export interface SourceFinding {
  source: AttestationSource;
  uid: string | null;
  reason: AttestationReason;
  /** unix s; 0 = never expires. */
  expirationTime: number;
  /** country sources: the attested ISO 3166-1 alpha-2 code. */
  country: string | null;
}

export function judgeAttestation(
  source: AttestationSource,
  wallet: string,
  record: AttestationRecord | null,
  chainTime: number,
): SourceFinding {
  const finding: SourceFinding = {
    source,
    uid: record?.uid ?? null,
    reason: 'ok',
    expirationTime: record?.expirationTime ?? 0,
    country: null,
  };
  if (!record || BigInt(record.uid) === 0n) return { ...finding, uid: null, reason: 'not_found' };
  if (record.attester.toLowerCase() !== source.attester.toLowerCase())
    return { ...finding, reason: 'other_attester' };
  if (record.schema.toLowerCase() !== source.schema.toLowerCase())
    return { ...finding, reason: 'other_schema' };
  if (record.recipient.toLowerCase() !== wallet.toLowerCase())
    return { ...finding, reason: 'other_recipient' };
  if (record.revocationTime !== 0) return { ...finding, reason: 'revoked' };
  if (record.expirationTime !== 0 && record.expirationTime <= chainTime)
    return { ...finding, reason: 'expired' };
  if (source.kind === 'country') {
    const country = decodeVerifiedCountry(record.data);
    return country && /^[A-Z]{2}$/.test(country)
      ? { ...finding, country }
      : { ...finding, reason: 'not_verified' };
  }
  return decodeVerifiedAccount(record.data) ? finding : { ...finding, reason: 'not_verified' };
}

/** The error code a refusal of this reason carries (design §9). */
export function codeOfReason(
  reason: Exclude<AttestationReason, 'ok'>,
):
  | 'ATTESTATION_NOT_FOUND'
  | 'ATTESTATION_REVOKED'
  | 'ATTESTATION_EXPIRED'
  | 'ATTESTATION_SOURCE_NOT_ACCEPTED' {
  switch (reason) {
    case 'not_found':
      return 'ATTESTATION_NOT_FOUND';
    case 'revoked':
      return 'ATTESTATION_REVOKED';
    case 'expired':
      return 'ATTESTATION_EXPIRED';
    default:
      return 'ATTESTATION_SOURCE_NOT_ACCEPTED';
  }
}

/** Most specific first: a refusal names the reason closest to acceptance. */
const REASON_RANK: AttestationReason[] = [
  'ok',
  'expired',
  'revoked',
  'not_verified',
  'other_recipient',
  'other_schema',
  'other_attester',
  'not_found',
];

export function closestFinding(findings: SourceFinding[]): SourceFinding | undefined {
  return [...findings].sort(
    (a, b) => REASON_RANK.indexOf(a.reason) - REASON_RANK.indexOf(b.reason),
  )[0];
}

/**
 * The attestation a source's finding is about: the latest (by EAS time) of the candidates made by
 * the source's attester, of its schema, for the wallet; none such: the first candidate found (the
 * pointer's, judged and refused for what it is), else null (not found).
 */
export function attestationOf(
  source: AttestationSource,
  wallet: string,
  candidates: readonly (AttestationRecord | null)[],
): AttestationRecord | null {
  const present = candidates.filter(
    (r): r is AttestationRecord => r !== null && BigInt(r.uid) !== 0n,
  );
  const ours = present.filter(
    (r) =>
      r.attester.toLowerCase() === source.attester.toLowerCase() &&
      r.schema.toLowerCase() === source.schema.toLowerCase() &&
      r.recipient.toLowerCase() === wallet.toLowerCase(),
  );
  if (ours.length === 0) return present[0] ?? null;
  return ours.reduce((latest, r) => (r.time >= latest.time ? r : latest));
}
