import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { issuerPublicKeyOf } from '../compliance/zk/credential-issuer';
import { formatIssuerPublicKey, parseIssuerPublicKey } from '../compliance/zk/issuer-key';
import { mintStandaloneCredential, proveCredential } from '../compliance/zk/proof-generator';
import { verifyComplianceProof } from '../compliance/zk/verify-compliance-proof';
import { loadComplianceVerificationKey } from '../compliance/zk/zk-artifacts';
import { complianceConfig } from '../config/compliance.config';
import { receiptsConfig } from '../config/receipts.config';
import { CliUsageError } from './cli-usage';
import { splitCommand } from './cli-commands';
import { generateKeys, KEY_FILES, keysGenerate, parseKeysArgs } from './keys-command';
import { parseEs256PrivateKey } from '../config/es256-key';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** The env lines of an output: NAME -> value. */
function envOf(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => [match[1], match[2]]),
  );
}

describe('keys generate', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'cgk-keys-'));
    dirs.push(dir);
    return dir;
  }

  it('is a two-word command', () => {
    expect(splitCommand(['keys', 'generate', '--json'])).toEqual({
      command: 'keys generate',
      args: ['--json'],
    });
  });

  it('makes an issuer pair the service verifies proofs against, and an attester key with its address', async () => {
    const keys = await generateKeys();
    const other = await generateKeys();
    expect(other.zkIssuerPrivateKey).not.toBe(keys.zkIssuerPrivateKey);
    // A credential signed with the generated private key, proven as a holder does it...
    const credential = await mintStandaloneCredential({
      wallet: WALLET,
      issuerPrivateKey: keys.zkIssuerPrivateKey,
    });
    const proven = await proveCredential(credential, { challenge: '42' });
    const submission = {
      walletAddress: WALLET,
      proof: proven.proof,
      publicSignals: proven.publicSignals,
    };
    // ...passes the service's own verification under the generated public key, parsed as at boot,
    const verificationKey = loadComplianceVerificationKey();
    const verify = (publicKey: string) =>
      verifyComplianceProof(submission, {
        verificationKey,
        issuerPublicKey: parseIssuerPublicKey(publicKey),
      });
    await expect(verify(keys.zkIssuerPublicKey)).resolves.toMatchObject({
      ok: true,
      wallet: WALLET,
    });
    // ...and not under another issuer's.
    await expect(verify(other.zkIssuerPublicKey)).resolves.toEqual({
      ok: false,
      reason: 'PROOF_INVALID',
      message: 'the credential was not issued by the configured issuer',
    });

    expect(keys.attesterPrivateKey).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new Wallet(keys.attesterPrivateKey).address).toBe(keys.attesterAddress);
  }, 120_000);

  it('prints values a production configuration accepts as they are', async () => {
    const env = envOf(await keysGenerate([]));
    const saved = process.env;
    process.env = {
      APP_MODE: 'production',
      SIWE_DOMAIN: 'app.example.com',
      MFA_ENCRYPTION_KEY: 'm'.repeat(32),
      WEBHOOK_SECRETS_KEY: 'w'.repeat(32),
      ...env,
    };
    try {
      expect(complianceConfig()).toMatchObject({
        issuerPublicKey: env.ZK_ISSUER_PUBLIC_KEY,
        issuerPrivateKey: env.ZK_ISSUER_PRIVATE_KEY,
        attesterPrivateKey: env.ATTESTER_PRIVATE_KEY,
      });
      expect(receiptsConfig().signingKey).toMatchObject({ pkcs8: env.RECEIPT_SIGNING_KEY });
    } finally {
      process.env = saved;
    }
  });

  it('prints env lines ready to paste, with the attester address as a comment', async () => {
    const out = await keysGenerate([]);
    const env = envOf(out);
    expect(Object.keys(env)).toEqual([
      'ZK_ISSUER_PRIVATE_KEY',
      'ZK_ISSUER_PUBLIC_KEY',
      'ATTESTER_PRIVATE_KEY',
      'RECEIPT_SIGNING_KEY',
    ]);
    expect(formatIssuerPublicKey(await issuerPublicKeyOf(env.ZK_ISSUER_PRIVATE_KEY))).toBe(
      env.ZK_ISSUER_PUBLIC_KEY,
    );
    const address = new Wallet(env.ATTESTER_PRIVATE_KEY).address;
    expect(out).toContain(`# Registry attester (secp256k1), address ${address}:`);
    expect(out.split('\n').every((line) => line === '' || /^(#|[A-Z_]+=)/.test(line))).toBe(true);
  });

  it('--json: one object with the same values', async () => {
    const out = JSON.parse(await keysGenerate(['--json']));
    expect(Object.keys(out)).toEqual([
      'ZK_ISSUER_PRIVATE_KEY',
      'ZK_ISSUER_PUBLIC_KEY',
      'ATTESTER_PRIVATE_KEY',
      'attesterAddress',
      'RECEIPT_SIGNING_KEY',
      'receiptKeyId',
    ]);
    expect(new Wallet(out.ATTESTER_PRIVATE_KEY).address).toBe(out.attesterAddress);
    expect(parseEs256PrivateKey(out.RECEIPT_SIGNING_KEY)?.kid).toBe(out.receiptKeyId);
  });

  it('--out-dir: private keys in owner-only files, never on stdout; never overwritten', async () => {
    const dir = join(tempDir(), 'keys');
    for (const args of [
      ['--out-dir', dir],
      ['--json', '--out-dir', join(dir, 'json')],
    ]) {
      const out = await keysGenerate(args);
      const outDir = args[args.indexOf('--out-dir') + 1];
      const issuer = envOf(readFileSync(join(outDir, KEY_FILES.issuer), 'utf8'));
      const attester = envOf(readFileSync(join(outDir, KEY_FILES.attester), 'utf8'));
      const receipts = envOf(readFileSync(join(outDir, KEY_FILES.receipts), 'utf8'));
      for (const file of Object.values(KEY_FILES))
        expect(statSync(join(outDir, file)).mode & 0o777).toBe(0o600);
      expect(Object.keys(issuer)).toEqual(['ZK_ISSUER_PRIVATE_KEY', 'ZK_ISSUER_PUBLIC_KEY']);
      expect(Object.keys(attester)).toEqual(['ATTESTER_PRIVATE_KEY']);
      expect(Object.keys(receipts)).toEqual(['RECEIPT_SIGNING_KEY']);
      expect(out).not.toContain(receipts.RECEIPT_SIGNING_KEY);
      expect(out).toContain(parseEs256PrivateKey(receipts.RECEIPT_SIGNING_KEY)!.kid);
      expect(out).not.toContain(issuer.ZK_ISSUER_PRIVATE_KEY.slice(2));
      expect(out).not.toContain(attester.ATTESTER_PRIVATE_KEY.slice(2));
      expect(out).not.toMatch(/PRIVATE_KEY=/);
      expect(out).toContain(issuer.ZK_ISSUER_PUBLIC_KEY);
      expect(out).toContain(new Wallet(attester.ATTESTER_PRIVATE_KEY).address);
    }
    const before = readFileSync(join(dir, KEY_FILES.issuer), 'utf8');
    await expect(keysGenerate(['--out-dir', dir])).rejects.toThrow(
      /exists: keys are never overwritten/,
    );
    expect(readFileSync(join(dir, KEY_FILES.issuer), 'utf8')).toBe(before);
  });

  it.each([[['--out-dir']], [['--out-dir', '--json']], [['--bits', '256']], [['extra']]])(
    'refuses %j with a usage error',
    (args) => expect(() => parseKeysArgs(args)).toThrow(CliUsageError),
  );
});
