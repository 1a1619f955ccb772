import { encodeVerifiedAccount, encodeVerifiedCountry } from '../../chain/encoding/attestations';
import type { AttestationSource } from '../../chain/network/network.types';
import { attestationOf, closestFinding, codeOfReason, judgeAttestation } from './attestation-judge';

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
  time: 900,
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

describe(attestationOf.name, () => {
  const at = (time: number, over: object = {}) =>
    record({ uid: `0x${time.toString(16).padStart(64, '0')}`, time, ...over });

  it("takes the source attester's latest attestation, whatever the pointer names (issue 52)", () => {
    const older = at(100);
    const newer = at(200);
    const stranger = at(300, { attester: WALLET });
    expect(attestationOf(source, WALLET, [older, newer])).toBe(newer);
    expect(attestationOf(source, WALLET, [newer, older])).toBe(newer);
    // A pointer to another attester's attestation, even a later one, does not hide the source's.
    expect(attestationOf(source, WALLET, [stranger, older])).toBe(older);
    // Of another schema or for another recipient: not the source's either.
    expect(
      attestationOf(source, WALLET, [at(400, { schema: `0x${'cd'.repeat(32)}` }), older]),
    ).toBe(older);
    expect(attestationOf(source, WALLET, [at(400, { recipient: ATTESTER }), older])).toBe(older);
  });

  it('reports the first candidate when the attester has none (judged for what it is), else nothing', () => {
    const stranger = at(300, { attester: WALLET });
    expect(attestationOf(source, WALLET, [stranger, null])).toBe(stranger);
    expect(
      attestationOf(source, WALLET, [null, at(0, { uid: `0x${'00'.repeat(32)}` })]),
    ).toBeNull();
    expect(attestationOf(source, WALLET, [])).toBeNull();
  });

  it('keeps a revoked latest attestation: the attester withdrew it, an older one does not come back', () => {
    const older = at(100);
    const revoked = at(200, { revocationTime: 250 });
    expect(attestationOf(source, WALLET, [older, revoked])).toBe(revoked);
    expect(judgeAttestation(source, WALLET, revoked, 1000).reason).toBe('revoked');
  });
});
