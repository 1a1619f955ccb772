/**
 * `npm run cli -- keys generate [--out-dir D] [--json]`: the key pairs a production deployment
 * needs, made without the app (no database, no configuration):
 *
 * - the credential issuer's Baby Jubjub EdDSA-Poseidon pair: ZK_ISSUER_PRIVATE_KEY (signs
 *   credentials: `credentials issue`, kept with the issuer) and ZK_ISSUER_PUBLIC_KEY "<x>,<y>"
 *   (what the service verifies proofs against);
 * - the registry attester's secp256k1 key, ATTESTER_PRIVATE_KEY, whose address must hold gas and
 *   is the attester named at deployment;
 * - the service's compliance receipt key (ES256, P-256), RECEIPT_SIGNING_KEY: a PKCS#8 key as one
 *   line of base64 (no quoting needed in any env file); its public half is published at
 *   /.well-known/jwks.json under its kid (issue 56).
 *
 * Without --out-dir the env lines are printed (private keys included) for a person to paste; with
 * it, the private keys go only to files readable by their owner, and stdout shows public values.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Wallet } from 'ethers';
import { issuerPublicKeyOf } from '../compliance/zk/credential-issuer';
import { formatIssuerPublicKey } from '../compliance/zk/issuer-key';
import { generateEs256Key } from '../config/es256-key';
import { CliUsageError } from './cli-usage';

export interface GeneratedKeys {
  zkIssuerPrivateKey: string;
  /** `"<x>,<y>"`, as ZK_ISSUER_PUBLIC_KEY takes it. */
  zkIssuerPublicKey: string;
  attesterPrivateKey: string;
  attesterAddress: string;
  /** The private key as RECEIPT_SIGNING_KEY takes it (base64 PKCS#8). */
  receiptSigningKey: string;
  receiptKeyId: string;
}

/** The files `--out-dir` writes: one per holder, so each key goes only where it is used. */
export const KEY_FILES = {
  issuer: 'zk-issuer.env',
  attester: 'attester.env',
  receipts: 'receipt-signing.env',
} as const;

export async function generateKeys(): Promise<GeneratedKeys> {
  // Any 32 bytes are an EdDSA-Poseidon private key (circomlibjs hashes and prunes them).
  const zkIssuerPrivateKey = `0x${randomBytes(32).toString('hex')}`;
  const attester = Wallet.createRandom();
  const receipts = generateEs256Key();
  return {
    zkIssuerPrivateKey,
    zkIssuerPublicKey: formatIssuerPublicKey(await issuerPublicKeyOf(zkIssuerPrivateKey)),
    attesterPrivateKey: attester.privateKey,
    attesterAddress: attester.address,
    receiptSigningKey: receipts.pkcs8,
    receiptKeyId: receipts.kid,
  };
}

function issuerLines(keys: GeneratedKeys, withPrivateKey: boolean): string[] {
  return [
    '# Credential issuer (Baby Jubjub EdDSA-Poseidon). The service needs the public key only;',
    '# the private key signs credentials (npm run cli -- credentials issue) and stays with the issuer.',
    ...(withPrivateKey ? [`ZK_ISSUER_PRIVATE_KEY=${keys.zkIssuerPrivateKey}`] : []),
    `ZK_ISSUER_PUBLIC_KEY=${keys.zkIssuerPublicKey}`,
  ];
}

function attesterLines(keys: GeneratedKeys, withPrivateKey: boolean): string[] {
  return [
    `# Registry attester (secp256k1), address ${keys.attesterAddress}:`,
    '# fund it with gas and pass it to npm run cli -- deploy --attester.',
    ...(withPrivateKey ? [`ATTESTER_PRIVATE_KEY=${keys.attesterPrivateKey}`] : []),
  ];
}

function receiptLines(keys: GeneratedKeys, withPrivateKey: boolean): string[] {
  return [
    `# Compliance receipts (ES256, P-256), kid ${keys.receiptKeyId}: the service signs with it;`,
    '# /.well-known/jwks.json publishes its public half.',
    ...(withPrivateKey ? [`RECEIPT_SIGNING_KEY=${keys.receiptSigningKey}`] : []),
  ];
}

/** The env lines to paste, private keys included. */
export function formatKeyLines(keys: GeneratedKeys): string {
  return (
    [
      ...issuerLines(keys, true),
      '',
      ...attesterLines(keys, true),
      '',
      ...receiptLines(keys, true),
    ].join('\n') + '\n'
  );
}

/** Writes the two env files (owner-only; an existing file is never replaced). */
export function writeKeyFiles(
  dir: string,
  keys: GeneratedKeys,
): { issuer: string; attester: string; receipts: string } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files = {
    issuer: join(dir, KEY_FILES.issuer),
    attester: join(dir, KEY_FILES.attester),
    receipts: join(dir, KEY_FILES.receipts),
  };
  const contents = {
    issuer: `${issuerLines(keys, true).join('\n')}\n`,
    attester: `${attesterLines(keys, true).join('\n')}\n`,
    receipts: `${receiptLines(keys, true).join('\n')}\n`,
  };
  for (const holder of ['issuer', 'attester', 'receipts'] as const) {
    try {
      writeFileSync(files[holder], contents[holder], { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new CliUsageError(`${files[holder]} exists: keys are never overwritten`);
      throw error;
    }
  }
  return files;
}

export function parseKeysArgs(args: string[]): { outDir?: string; json: boolean } {
  const options: { outDir?: string; json: boolean } = { json: false };
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--json') options.json = true;
    else if (args[i] === '--out-dir' && args[i + 1] && !args[i + 1].startsWith('--'))
      options.outDir = resolve(args[(i += 1)]);
    else throw new CliUsageError(`Unexpected argument: ${args[i]}`);
  }
  return options;
}

/** `keys generate`: returns what to print on stdout (private keys only without --out-dir). */
export async function keysGenerate(args: string[]): Promise<string> {
  const { outDir, json } = parseKeysArgs(args);
  const keys = await generateKeys();
  if (outDir === undefined) {
    if (!json) return formatKeyLines(keys);
    return `${JSON.stringify({
      ZK_ISSUER_PRIVATE_KEY: keys.zkIssuerPrivateKey,
      ZK_ISSUER_PUBLIC_KEY: keys.zkIssuerPublicKey,
      ATTESTER_PRIVATE_KEY: keys.attesterPrivateKey,
      attesterAddress: keys.attesterAddress,
      RECEIPT_SIGNING_KEY: keys.receiptSigningKey,
      receiptKeyId: keys.receiptKeyId,
    })}\n`;
  }
  const files = writeKeyFiles(outDir, keys);
  if (json) {
    return `${JSON.stringify({
      ZK_ISSUER_PUBLIC_KEY: keys.zkIssuerPublicKey,
      attesterAddress: keys.attesterAddress,
      receiptKeyId: keys.receiptKeyId,
      files,
    })}\n`;
  }
  return (
    [
      ...issuerLines(keys, false),
      `# ZK_ISSUER_PRIVATE_KEY is in ${files.issuer} (mode 0600)`,
      '',
      ...attesterLines(keys, false),
      `# ATTESTER_PRIVATE_KEY is in ${files.attester} (mode 0600)`,
      '',
      ...receiptLines(keys, false),
      `# RECEIPT_SIGNING_KEY is in ${files.receipts} (mode 0600)`,
    ].join('\n') + '\n'
  );
}
