/**
 * The devnet's test attester at work: issues and revokes EAS attestations shaped like Coinbase
 * Verifications (`npm run cli -- attest`). The schemas' resolver indexes each one as EAS records
 * it, as Coinbase's does on Base. Any signer may be passed: the resolver refuses anyone but the
 * allowed attester (EAS reverts), which the e2e suites check.
 */
import { Contract, Signer, ZeroHash } from 'ethers';
import { EAS } from '../abi/eas';
import { encodeVerifiedAccount, encodeVerifiedCountry } from '../encoding/attestations';
import type { NetworkCompliance } from '../network/network.types';
import { devnetPrivateKeys } from './devnet';
import { TEST_ATTESTER_ACCOUNT_INDEX } from './constants';

export interface TestAttestation {
  kind: 'account' | 'country';
  wallet: string;
  /** ISO 3166-1 alpha-2, for kind country. */
  country?: string;
  /** Seconds from the chain's now; absent: never expires. */
  expiresIn?: number;
  /** Another schema than the source's (tests). */
  schema?: string;
}

export function testAttesterKey(): string {
  return devnetPrivateKeys()[TEST_ATTESTER_ACCOUNT_INDEX];
}

function sourceSchema(compliance: NetworkCompliance, kind: 'account' | 'country'): string {
  const source = compliance.attestationSources.find((s) => s.kind === kind);
  if (!source) throw new Error(`the network file has no attestation source of kind ${kind}`);
  return source.schema;
}

function contracts(compliance: NetworkCompliance, signer: Signer) {
  if (!compliance.eas) throw new Error('the network file names no EAS contracts (compliance.eas)');
  return { eas: new Contract(compliance.eas.eas, EAS, signer) };
}

/** Attests (the schema's resolver indexes it) and returns the attestation uid. */
export async function issueTestAttestation(
  signer: Signer,
  compliance: NetworkCompliance,
  a: TestAttestation,
): Promise<string> {
  const { eas } = contracts(compliance, signer);
  const block = await signer.provider!.getBlock('latest');
  const expirationTime = a.expiresIn === undefined ? 0 : block!.timestamp + a.expiresIn;
  const data =
    a.kind === 'country' ? encodeVerifiedCountry(a.country ?? '') : encodeVerifiedAccount(true);
  const tx = await eas.attest({
    schema: a.schema ?? sourceSchema(compliance, a.kind),
    data: {
      recipient: a.wallet,
      expirationTime,
      revocable: true,
      refUID: ZeroHash,
      data,
      value: 0,
    },
  });
  const receipt = await tx.wait();
  const attested = receipt!.logs
    .map((log: { topics: string[]; data: string }) => EAS.parseLog(log))
    .find((parsed: { name: string } | null) => parsed?.name === 'Attested');
  return attested!.args.uid as string;
}

export async function revokeTestAttestation(
  signer: Signer,
  compliance: NetworkCompliance,
  uid: string,
): Promise<void> {
  const { eas } = contracts(compliance, signer);
  const record = (await eas.getAttestation(uid)) as { schema: string; uid: string };
  if (BigInt(record.uid) === 0n) throw new Error(`no attestation ${uid}`);
  await (await eas.revoke({ schema: record.schema, data: { uid, value: 0 } })).wait();
}
