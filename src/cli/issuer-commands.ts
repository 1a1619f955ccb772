import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordOperatorChange, type OperatorEventType } from '../audit/operator-audit';
import { AttesterService } from '../compliance/sessions/attester.service';
import {
  IssuerCommandError,
  IssuersService,
  ISSUER_NAME,
  type Validity,
} from '../compliance/credentials/issuers.service';
import { VerifyChallengesService } from '../compliance/verification/verify-challenges.service';
import { parseIssuerPublicKey, type IssuerPublicKey } from '../compliance/zk/issuer-key';
import { CliUsageError, required } from './cli-usage';

function issuerName(flags: Record<string, string>): string {
  const name = required(flags, 'name');
  if (!ISSUER_NAME.test(name))
    throw new CliUsageError(
      '--name must be 1-64 characters: lower-case letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
  return name;
}

function publicKey(flags: Record<string, string>): IssuerPublicKey {
  try {
    return parseIssuerPublicKey(required(flags, 'public-key'));
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    throw new CliUsageError(`--public-key: ${(error as Error).message}`);
  }
}

/** Unix seconds or an ISO 8601 date. */
function instant(flags: Record<string, string>, name: string): number | undefined {
  const text = flags[name];
  if (text === undefined) return undefined;
  if (/^\d{1,12}$/.test(text)) return Number(text);
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(ms))
    throw new CliUsageError(
      `--${name} must be unix seconds or an ISO 8601 date (2027-01-31T00:00:00Z)`,
    );
  return Math.floor(ms / 1000);
}

function validity(flags: Record<string, string>): Validity {
  return { validFrom: instant(flags, 'valid-from'), validUntil: instant(flags, 'valid-until') };
}

/** `issuers add|list|rotate|revoke`; undefined when `command` is not one of them. */
export async function runIssuerCommand(
  app: INestApplicationContext,
  command: string,
  flags: Record<string, string>,
): Promise<Record<string, unknown> | undefined> {
  const issuers = app.get(IssuersService);
  /** Every change to the issuers POST /verify trusts is in the operator audit. */
  const audited = async <T extends object>(
    type: OperatorEventType,
    name: string,
    result: T,
    data: Record<string, unknown> = {},
  ): Promise<T> => {
    await recordOperatorChange(app.get(DataSource), {
      type,
      target: { type: 'issuer', id: name },
      data,
    });
    return result;
  };
  try {
    switch (command) {
      case 'issuers list':
        return { issuers: await issuers.list() };
      case 'issuers add':
      case 'issuers rotate': {
        const name = issuerName(flags);
        const key = publicKey(flags);
        const valid = validity(flags);
        const issuer =
          command === 'issuers add'
            ? await issuers.add(name, key, valid)
            : await issuers.rotate(name, key, valid);
        return audited(
          command === 'issuers add' ? 'issuer.added' : 'issuer.rotated',
          name,
          { issuer },
          { publicKey: flags['public-key'], ...valid },
        );
      }
      case 'issuers revoke': {
        const name = issuerName(flags);
        const issuer = await issuers.revoke(name);
        // New sessions stop at once (every proof reads the issuer); the open ones end on chain.
        const open = await app.get(VerifyChallengesService).walletsWithOpenSessionsOfIssuer(name);
        const sessionsRevoked = [];
        for (const wallet of open)
          sessionsRevoked.push({
            wallet,
            ...(await app.get(AttesterService).revoke(wallet, 'issuer_revoked')),
          });
        return audited(
          'issuer.revoked',
          name,
          { issuer, sessionsRevoked },
          { sessionsRevoked: sessionsRevoked.length },
        );
      }
      default:
        return undefined;
    }
  } catch (error) {
    if (error instanceof IssuerCommandError) throw new CliUsageError(error.message);
    throw error;
  }
}
