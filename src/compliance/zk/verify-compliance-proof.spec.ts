import fc from 'fast-check';

import { PUBLIC_SIGNAL } from './compliance-circuit';
import { expectedNullifier } from './credential-issuer';
import { DEVNET_ISSUER_PUBLIC_KEY } from './devnet-issuer';
import { BN254_BASE_FIELD, BN254_SCALAR_FIELD } from './field';
import type { CredentialFile } from './credential-file';
import {
  complianceCircuitInput,
  mintStandaloneCredential,
  proveCredential,
  type GeneratedComplianceProof,
} from './proof-generator';
import { verifyComplianceProof, type ComplianceVerifierConfig } from './verify-compliance-proof';
import { loadSnarkjs, withBn128Curve } from './snarkjs';
import { loadComplianceVerificationKey, resolveZkArtifact, ZK_ARTIFACTS } from './zk-artifacts';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const OTHER_ISSUER_PRIVATE_KEY = '0x' + '11'.repeat(32);

describe('verifyComplianceProof', () => {
  const CHALLENGE = '123456789';
  let config: ComplianceVerifierConfig;
  let credential: CredentialFile;
  let real: GeneratedComplianceProof;
  let fromOtherIssuer: GeneratedComplianceProof;

  beforeAll(async () => {
    config = {
      verificationKey: loadComplianceVerificationKey(),
      issuerPublicKey: DEVNET_ISSUER_PUBLIC_KEY,
    };
    const started = Date.now();
    credential = await mintStandaloneCredential({ wallet: WALLET });
    real = await proveCredential(credential, { challenge: CHALLENGE });
    console.info(
      `compliance proof generated in ${Date.now() - started} ms (incl. circomlibjs init)`,
    );
    fromOtherIssuer = await proveCredential(
      await mintStandaloneCredential({
        wallet: WALLET,
        issuerPrivateKey: OTHER_ISSUER_PRIVATE_KEY,
      }),
      { challenge: CHALLENGE },
    );
  }, 120_000);

  const submit = (
    overrides: Partial<{ walletAddress: unknown; proof: unknown; publicSignals: unknown }> = {},
  ) => ({
    walletAddress: WALLET,
    proof: structuredClone(real.proof),
    publicSignals: [...real.publicSignals],
    ...overrides,
  });

  it('accepts a real proof and returns what it proves: nullifier, wallet, challenge, now, expiry, root', async () => {
    const started = Date.now();
    const result = await verifyComplianceProof(submit(), config);
    console.info(`compliance proof verified in ${Date.now() - started} ms`);
    expect(result).toEqual({
      ok: true,
      nullifier: expectedNullifier(credential.credentialSecret, WALLET),
      wallet: WALLET,
      challenge: CHALLENGE,
      now: Number(real.publicSignals[PUBLIC_SIGNAL.now]),
      expiresAt: credential.expiresAt,
      root: credential.merkle.root,
      issuer: DEVNET_ISSUER_PUBLIC_KEY,
    });
    expect(
      Math.abs(Number(real.publicSignals[PUBLIC_SIGNAL.now]) - Date.now() / 1000),
    ).toBeLessThan(120);
    expect(real.nullifier).toBe(real.publicSignals[PUBLIC_SIGNAL.nullifier]);
  });

  it.each(['challenge', 'now', 'expiresAt', 'root'] as const)(
    'refuses an altered %s (a public input the proof binds)',
    async (signal) => {
      const publicSignals = [...real.publicSignals];
      publicSignals[PUBLIC_SIGNAL[signal]] = (
        BigInt(publicSignals[PUBLIC_SIGNAL[signal]]) + 1n
      ).toString();
      expect(await verifyComplianceProof(submit({ publicSignals }), config)).toMatchObject({
        ok: false,
        message: 'the proof does not verify against the verification key',
      });
    },
  );

  it('cannot prove an expired credential (the circuit enforces now < expiresAt)', async () => {
    const expired = { ...credential, expiresAt: Math.floor(Date.now() / 1000) - 1 };
    await expect(proveCredential(expired, { challenge: CHALLENGE })).rejects.toThrow(
      /credential expired at/,
    );
    // Past the script's friendly check, the witness itself fails: now < expiresAt is a constraint.
    const input = complianceCircuitInput(credential, {
      challenge: CHALLENGE,
      now: credential.expiresAt,
    });
    await expect(
      withBn128Curve(() =>
        loadSnarkjs().groth16.fullProve(
          input,
          resolveZkArtifact(ZK_ARTIFACTS.wasm),
          resolveZkArtifact(ZK_ARTIFACTS.zkey),
        ),
      ),
    ).rejects.toThrow();
  }, 60_000);

  it('binds the wallet case-insensitively', async () => {
    const result = await verifyComplianceProof(
      submit({ walletAddress: WALLET.toLowerCase() }),
      config,
    );
    expect(result).toMatchObject({ ok: true, wallet: WALLET });
    const upper = await verifyComplianceProof(
      submit({ walletAddress: '0x' + WALLET.slice(2).toUpperCase() }),
      config,
    );
    expect(upper.ok).toBe(true);
  });

  it('gives the same credential the same nullifier, and a new credential a new one', async () => {
    const again = await proveCredential(credential, { challenge: '42' });
    expect(again.nullifier).toBe(real.nullifier);
    expect(again.proof.pi_a).not.toEqual(real.proof.pi_a);
    expect(fromOtherIssuer.nullifier).not.toBe(real.nullifier);
  }, 30_000);

  it.each([
    [
      'pi_a[0]',
      (p: GeneratedComplianceProof['proof']) =>
        (p.pi_a[0] = ((BigInt(p.pi_a[0]) + 1n) % BN254_BASE_FIELD).toString()),
    ],
    [
      'pi_b[1][0]',
      (p: GeneratedComplianceProof['proof']) =>
        (p.pi_b[1][0] = ((BigInt(p.pi_b[1][0]) + 1n) % BN254_BASE_FIELD).toString()),
    ],
    // pi_c <- -pi_c: still a valid curve point, so the pairing itself must refuse it
    [
      'pi_c[1] (negated point)',
      (p: GeneratedComplianceProof['proof']) =>
        (p.pi_c[1] = (BN254_BASE_FIELD - BigInt(p.pi_c[1])).toString()),
    ],
  ])('refuses a proof with %s altered', async (_name, tamper) => {
    const proof = structuredClone(real.proof);
    tamper(proof);
    expect(await verifyComplianceProof(submit({ proof }), config)).toEqual({
      ok: false,
      reason: 'PROOF_INVALID',
      message: expect.any(String),
    });
  });

  it('refuses an altered nullifier (public signal not proven)', async () => {
    const publicSignals = [...real.publicSignals];
    publicSignals[PUBLIC_SIGNAL.nullifier] = (
      (BigInt(publicSignals[0]) + 1n) %
      BN254_SCALAR_FIELD
    ).toString();
    const result = await verifyComplianceProof(submit({ publicSignals }), config);
    expect(result).toMatchObject({
      ok: false,
      message: 'the proof does not verify against the verification key',
    });
  });

  it('refuses a proof for another wallet, whether walletAddress or the wallet signal differs', async () => {
    expect(
      await verifyComplianceProof(submit({ walletAddress: OTHER_WALLET }), config),
    ).toMatchObject({
      ok: false,
      message: 'the proof is bound to a different wallet than walletAddress',
    });
    const publicSignals = [...real.publicSignals];
    publicSignals[PUBLIC_SIGNAL.wallet] = BigInt(OTHER_WALLET).toString();
    expect(
      await verifyComplianceProof(submit({ walletAddress: OTHER_WALLET, publicSignals }), config),
    ).toMatchObject({
      ok: false,
      message: 'the proof does not verify against the verification key',
    });
  });

  it('refuses a real proof whose credential comes from another issuer', async () => {
    expect(
      await verifyComplianceProof(
        submit({ proof: fromOtherIssuer.proof, publicSignals: fromOtherIssuer.publicSignals }),
        config,
      ),
    ).toMatchObject({
      ok: false,
      message: 'the credential was not issued by the configured issuer',
    });
    // ... and a devnet proof when the service trusts another issuer
    const strict = {
      ...config,
      issuerPublicKey: { x: fromOtherIssuer.publicSignals[1], y: fromOtherIssuer.publicSignals[2] },
    };
    expect(await verifyComplianceProof(submit(), strict)).toMatchObject({
      ok: false,
      reason: 'PROOF_INVALID',
    });
  });

  const p = () => structuredClone(real.proof) as unknown as Record<string, unknown>;
  const malformed: Array<[string, () => unknown]> = [
    ['null submission', () => null],
    ['no walletAddress', () => submit({ walletAddress: undefined })],
    ['short walletAddress', () => submit({ walletAddress: '0x1234' })],
    ['proof as string', () => submit({ proof: JSON.stringify(real.proof) })],
    ['proof null', () => submit({ proof: null })],
    ['proof array', () => submit({ proof: [] })],
    ['unknown proof field', () => submit({ proof: { ...p(), extra: 1 } })],
    ['protocol plonk', () => submit({ proof: { ...p(), protocol: 'plonk' } })],
    ['curve bls12381', () => submit({ proof: { ...p(), curve: 'bls12381' } })],
    ['pi_a of numbers', () => submit({ proof: { ...p(), pi_a: [1, 2, 1] } })],
    ['pi_a hex', () => submit({ proof: { ...p(), pi_a: ['0x01', '0x02', '1'] } })],
    ['pi_a leading zero', () => submit({ proof: { ...p(), pi_a: ['01', '2', '1'] } })],
    ['pi_a negative', () => submit({ proof: { ...p(), pi_a: ['-1', '2', '1'] } })],
    [
      'pi_a coordinate = q',
      () => submit({ proof: { ...p(), pi_a: [BN254_BASE_FIELD.toString(), '2', '1'] } }),
    ],
    ['pi_a huge', () => submit({ proof: { ...p(), pi_a: ['9'.repeat(5000), '2', '1'] } })],
    [
      'pi_a projective z',
      () => submit({ proof: { ...p(), pi_a: [real.proof.pi_a[0], real.proof.pi_a[1], '2'] } }),
    ],
    ['pi_a point at infinity', () => submit({ proof: { ...p(), pi_a: ['0', '1', '0'] } })],
    ['pi_a not on curve', () => submit({ proof: { ...p(), pi_a: ['1', '1', '1'] } })],
    ['pi_b flat', () => submit({ proof: { ...p(), pi_b: real.proof.pi_b.flat() } })],
    [
      'pi_b bad z',
      () =>
        submit({ proof: { ...p(), pi_b: [real.proof.pi_b[0], real.proof.pi_b[1], ['1', '1']] } }),
    ],
    [
      'pi_b not on curve',
      () =>
        submit({
          proof: {
            ...p(),
            pi_b: [
              ['1', '2'],
              ['3', '4'],
              ['1', '0'],
            ],
          },
        }),
    ],
    ['pi_c missing', () => submit({ proof: { ...p(), pi_c: undefined } })],
    ['publicSignals missing', () => submit({ publicSignals: undefined })],
    ['publicSignals short', () => submit({ publicSignals: real.publicSignals.slice(1) })],
    ['publicSignals long', () => submit({ publicSignals: [...real.publicSignals, '0'] })],
    ['publicSignals numbers', () => submit({ publicSignals: real.publicSignals.map(Number) })],
    [
      'publicSignals = r',
      () =>
        submit({ publicSignals: [BN254_SCALAR_FIELD.toString(), ...real.publicSignals.slice(1)] }),
    ],
    ['publicSignals object', () => submit({ publicSignals: { ...real.publicSignals } })],
  ];

  it.each(malformed)('refuses malformed input without throwing: %s', async (_name, build) => {
    const result = await verifyComplianceProof(build() as never, config);
    expect(result).toEqual({ ok: false, reason: 'PROOF_INVALID', message: expect.any(String) });
  });

  it('never throws on arbitrary JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.jsonValue(),
        fc.jsonValue(),
        async (walletAddress, proof, publicSignals) => {
          const result = await verifyComplianceProof(
            { walletAddress, proof, publicSignals },
            config,
          );
          expect(result.ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (junk) => {
        const result = await verifyComplianceProof(
          submit({ proof: { ...p(), pi_b: junk } }),
          config,
        );
        expect(result.ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
