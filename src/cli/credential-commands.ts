import { INestApplicationContext } from '@nestjs/common';
import { readFileSync, writeFileSync } from 'node:fs';
import { CredentialRootsService } from '../compliance/credentials/credential-roots.service';
import {
  DEFAULT_CREDENTIAL_TTL_SECONDS,
  DemoIssuerService,
} from '../compliance/credentials/demo-issuer.service';
import {
  AttesterService,
  type SessionRevocationReason,
} from '../compliance/sessions/attester.service';
import { VerifyChallengesService } from '../compliance/verification/verify-challenges.service';
import { parseCredentialFile, type CredentialFile } from '../compliance/zk/credential-file';
import { isEvmAddress, parseFieldElement } from '../compliance/zk/field';
import { CliUsageError, required } from './cli-usage';

function wallet(flags: Record<string, string>): string {
  const value = required(flags, 'wallet');
  if (!isEvmAddress(value)) throw new CliUsageError('--wallet must be 0x followed by 40 hex');
  return value;
}

function writeCredential(path: string, credential: CredentialFile): void {
  // The holder's secret is in it: readable by its owner only.
  writeFileSync(path, `${JSON.stringify(credential, null, 2)}\n`, { mode: 0o600 });
}

function readCredential(path: string): CredentialFile {
  try {
    return parseCredentialFile(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new CliUsageError(`--credential ${path}: ${(error as Error).message}`);
  }
}

/** Ends the on-chain sessions of these wallets (attester), mined one after the other. */
async function revokeSessions(
  app: INestApplicationContext,
  wallets: string[],
  reason: SessionRevocationReason,
) {
  const revoked = [];
  for (const w of wallets)
    revoked.push({ wallet: w, ...(await app.get(AttesterService).revoke(w, reason)) });
  return revoked;
}

/** The credential and session commands; undefined when `command` is not one of them. */
export async function runCredentialCommand(
  app: INestApplicationContext,
  command: string,
  flags: Record<string, string>,
): Promise<Record<string, unknown> | undefined> {
  const issuer = () => app.get(DemoIssuerService);
  switch (command) {
    case 'credentials issue': {
      const out = required(flags, 'out');
      const text = flags['expires-in'] ?? String(DEFAULT_CREDENTIAL_TTL_SECONDS);
      if (!/^[1-9]\d{0,9}$/.test(text))
        throw new CliUsageError('--expires-in must be a positive number of seconds');
      const credential = await issuer().issue(wallet(flags), Number(text));
      writeCredential(out, credential);
      const { leafIndex, expiresAt, merkle } = credential;
      return { wallet: credential.wallet, leafIndex, expiresAt, root: merkle.root, out };
    }
    case 'credentials revoke': {
      const { nullifiers, root } = await issuer().revoke(wallet(flags));
      const open = await app.get(VerifyChallengesService).walletsWithOpenSessions(nullifiers);
      return {
        revoked: nullifiers.length,
        root,
        sessionsRevoked: await revokeSessions(app, open, 'credential_revoked'),
      };
    }
    case 'credentials refresh': {
      const path = required(flags, 'credential');
      const refreshed = await issuer().refresh(readCredential(path));
      writeCredential(flags.out ?? path, refreshed);
      return { root: refreshed.merkle.root, out: flags.out ?? path };
    }
    case 'credentials push-root': {
      const root = required(flags, 'root');
      if (parseFieldElement(root) === null)
        throw new CliUsageError('--root must be a decimal BN254 field element');
      const revocation = flags.revocation ?? 'no';
      if (!['yes', 'no'].includes(revocation))
        throw new CliUsageError('--revocation must be yes or no');
      await app.get(CredentialRootsService).push(root, revocation === 'yes');
      return { root, accepted: await app.get(CredentialRootsService).accepted() };
    }
    case 'revoke-session': {
      const [revoked] = await revokeSessions(app, [wallet(flags)], 'operator');
      return revoked;
    }
    default:
      return undefined;
  }
}
