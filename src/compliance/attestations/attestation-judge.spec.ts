import { encodeVerifiedAccount, encodeVerifiedCountry } from '../../chain/encoding/attestations';
import type { AttestationSource } from '../../chain/network/network.types';
import { closestFinding, codeOfReason, judgeAttestation } from './attestation-judge';

const ATTESTER = '0x71bE63f3384f5fb98995898A86B02Fb2426c5788';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SCHEMA = `0x${'ab'.repeat(32)}`;
const source: AttestationSource = {
  name: 'verified-account',
  attester: ATTESTER,
  schema: SCHEMA,
  kind: 'account',
};
const record = (over: object = {}) => ({
  uid: `0x${'01'.repeat(32)}`,
  schema: SCHEMA,
  expirationTime: 0,
  revocationTime: 0,
  recipient: WALLET,
  attester: ATTESTER,
  data: encodeVerifiedAccount(true),
  ...over,
});

describe(judgeAttestation.name, () => {
  it('accepts an unrevoked, unexpired attestation of the source', () => {
    expect(judgeAttestation(source, WALLET, record(), 1000).reason).toBe('ok');
    expect(judgeAttestation(source, WALLET, record({ expirationTime: 1001 }), 1000).reason).toBe(
      'ok',
    );
  });

  it.each([
    ['not_found', null, 'ATTESTATION_NOT_FOUND'],
    ['other_attester', record({ attester: WALLET }), 'ATTESTATION_SOURCE_NOT_ACCEPTED'],
    ['other_schema', record({ schema: `0x${'cd'.repeat(32)}` }), 'ATTESTATION_SOURCE_NOT_ACCEPTED'],
    ['other_recipient', record({ recipient: ATTESTER }), 'ATTESTATION_SOURCE_NOT_ACCEPTED'],
    ['revoked', record({ revocationTime: 5 }), 'ATTESTATION_REVOKED'],
    ['expired', record({ expirationTime: 1000 }), 'ATTESTATION_EXPIRED'],
    [
      'not_verified',
      record({ data: encodeVerifiedAccount(false) }),
      'ATTESTATION_SOURCE_NOT_ACCEPTED',
    ],
  ] as const)('%s -> %s', (reason, r, code) => {
    const finding = judgeAttestation(source, WALLET, r, 1000);
    expect(finding.reason).toBe(reason);
    expect(codeOfReason(reason)).toBe(code);
  });

  it('reads the country of a country source, upper-cased', () => {
    const countrySource = { ...source, kind: 'country' as const };
    const finding = judgeAttestation(
      countrySource,
      WALLET,
      record({ data: encodeVerifiedCountry('fr') }),
      1000,
    );
    expect(finding).toMatchObject({ reason: 'ok', country: 'FR' });
  });

  it('a refusal names the reason closest to acceptance', () => {
    const findings = [
      judgeAttestation(source, WALLET, null, 1000),
      judgeAttestation(source, WALLET, record({ revocationTime: 1 }), 1000),
    ];
    expect(closestFinding(findings)!.reason).toBe('revoked');
  });
});
