import { INestApplicationContext } from '@nestjs/common';
import { Wallet } from 'ethers';
import { ChainConnection } from '../chain/chain-connection';
import {
  issueTestAttestation,
  revokeTestAttestation,
  testAttesterKey,
} from '../chain/devnet/test-attester';
import { isEvmAddress } from '../compliance/zk/field';
import { CliUsageError, required } from './cli-usage';

/**
 * `attest` and `attest revoke`: the devnet's test attester (the stand-in for Coinbase
 * Verifications). Refused on a network whose sources are not the test attester's.
 */
export async function runAttestCommand(
  app: INestApplicationContext,
  command: string,
  flags: Record<string, string>,
): Promise<unknown> {
  if (command !== 'attest' && command !== 'attest revoke') return undefined;
  const connection = app.get(ChainConnection);
  const compliance = connection.network.compliance;
  const signer = new Wallet(testAttesterKey(), connection.provider);
  if (!compliance.attestationSources.some((s) => s.attester === signer.address))
    throw new Error(
      `attest works on a devnet only: no attestation source of ${connection.network.name} is the devnet's test attester ${signer.address}`,
    );
  if (command === 'attest revoke') {
    const uid = required(flags, 'uid');
    if (!/^0x[0-9a-fA-F]{64}$/.test(uid)) throw new CliUsageError('--uid must be 0x + 64 hex');
    await revokeTestAttestation(signer, compliance, uid);
    return { uid, revoked: true };
  }
  const kind = required(flags, 'kind');
  if (kind !== 'account' && kind !== 'country')
    throw new CliUsageError('--kind must be account or country');
  const wallet = required(flags, 'wallet');
  if (!isEvmAddress(wallet)) throw new CliUsageError('--wallet must be 0x followed by 40 hex');
  const country = flags.country?.toUpperCase();
  if (kind === 'country' && !/^[A-Z]{2}$/.test(country ?? ''))
    throw new CliUsageError(
      '--country (ISO 3166-1 alpha-2, e.g. FR) is required with --kind country',
    );
  const expiresIn = flags['expires-in'] === undefined ? undefined : Number(flags['expires-in']);
  if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && expiresIn > 0))
    throw new CliUsageError('--expires-in must be a positive whole number of seconds');
  const uid = await issueTestAttestation(signer, compliance, { kind, wallet, country, expiresIn });
  return {
    uid,
    kind,
    wallet,
    ...(country ? { country } : {}),
    ...(expiresIn ? { expiresIn } : {}),
  };
}
