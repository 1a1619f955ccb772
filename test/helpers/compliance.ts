/**
 * Compliance e2e helpers: the worker's shared devnet (test/helpers/devnet.ts, reverted to its
 * pristine deployment per suite), registry reads, SIWE signing with development-mnemonic wallets,
 * the onboarding / verify calls, and the credential flow (operator CLI + challenge + real proof).
 */
import { NestFactory } from '@nestjs/core';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { devnetPrivateKeys } from '../../src/chain/devnet/devnet';
import type { DevnetDeployment } from '../../src/chain/network/network.types';
import { COMPLIANCE_REGISTRY_ABI } from '../../src/compliance/sessions/attester.service';
import { CliModule } from '../../src/cli/cli.module';
import { parseFlags, runCommand, splitCommand } from '../../src/cli/cli-commands';
import { buildSiweMessage } from '../../src/compliance/siwe';
import type { Groth16Proof } from '../../src/compliance/zk';
import { issuerPublicKeyOf } from '../../src/compliance/zk/credential-issuer';
import { parseCredentialFile, type CredentialFile } from '../../src/compliance/zk/credential-file';
import { formatIssuerPublicKey } from '../../src/compliance/zk/issuer-key';
import { proveCredential } from '../../src/compliance/zk/proof-generator';
import type { TestApp } from './app';
import { acquireDevnet } from './devnet';
import { withEnv } from './test-env';

export interface ComplianceDevnet {
  rpcUrl: string;
  /** CHAIN_RPC_URL + CHAIN_NETWORK=devnet, for createTestApp. */
  env: Record<string, string>;
  deployment: DevnetDeployment;
  provider: JsonRpcProvider;
  /** Development mnemonic accounts 0..9 (0 = deployer + attester). */
  wallets: Wallet[];
  /** The private key of account 0, the registry's attester. */
  attesterKey: string;
  activeUntil(address: string): Promise<number>;
  isActive(address: string): Promise<boolean>;
  close(): Promise<void>;
}

export async function startComplianceDevnet(): Promise<ComplianceDevnet> {
  const devnet = await acquireDevnet();
  const keys = devnetPrivateKeys(10);
  const registry = new Contract(
    devnet.network.contracts.complianceRegistry,
    COMPLIANCE_REGISTRY_ABI,
    devnet.provider,
  );
  return {
    rpcUrl: devnet.rpcUrl,
    env: devnet.env,
    deployment: devnet.deployment,
    provider: devnet.provider,
    wallets: devnet.wallets,
    attesterKey: keys[0],
    activeUntil: async (address) => Number(await registry.activeUntil(address)),
    isActive: (address) => registry.isActive(address) as Promise<boolean>,
    close: () => devnet.release(),
  };
}

type Auth = { bearer?: string; apiKey?: string };

function authed(req: request.Test, auth: Auth | string): request.Test {
  const a = typeof auth === 'string' ? { bearer: auth } : auth;
  if (a.apiKey) req.set('X-API-Key', a.apiKey);
  if (a.bearer) req.set('Authorization', `Bearer ${a.bearer}`);
  return req;
}

export const postRegister = (t: TestApp, auth: Auth | string, body: object, prefix = '') =>
  authed(request(t.server).post(`${prefix}/onboarding/register`), auth).send(body);

export const postActivateDemo = (
  t: TestApp,
  auth: Auth | string,
  walletAddress: string,
  prefix = '',
) =>
  authed(request(t.server).post(`${prefix}/onboarding/activate-session-demo`), auth).send({
    walletAddress,
  });

export const postVerify = (t: TestApp, auth: Auth | string, body: object, prefix = '') =>
  authed(request(t.server).post(`${prefix}/verify`), auth).send(body);

export const getNonce = (t: TestApp, auth: Auth | string, walletAddress?: string) =>
  authed(
    request(t.server)
      .get('/onboarding/nonce')
      .query(walletAddress ? { walletAddress } : {}),
    auth,
  );

export interface SiweOverrides {
  domain?: string;
  chainId?: number;
  /** Address written in the message (default: the signer's). */
  address?: string;
  issuedAt?: Date;
}

/** A signed ERC-4361 message for `nonce`, with the service's defaults (domain localhost, chain 84532). */
export async function signSiwe(
  wallet: Wallet,
  nonce: string,
  o: SiweOverrides = {},
): Promise<{ message: string; signature: string }> {
  const message = buildSiweMessage({
    domain: o.domain ?? 'localhost',
    address: o.address ?? wallet.address,
    uri: 'https://localhost',
    chainId: o.chainId ?? 84532,
    nonce,
    issuedAt: o.issuedAt ?? new Date(),
  });
  return { message, signature: await wallet.signMessage(message) };
}

export const getChallenge = (
  t: TestApp,
  auth: Auth | string,
  walletAddress: string | undefined,
  prefix = '',
) =>
  authed(
    request(t.server)
      .get(`${prefix}/verify/challenge`)
      .query(walletAddress ? { walletAddress } : {}),
    auth,
  );

export type VerifyBody = { walletAddress: string; proof: Groth16Proof; publicSignals: string[] };

/**
 * The issuer's and the holder's side of the credential flow against one test app: the operator
 * CLI on the app's database and chain (`credentials issue|revoke`, `revoke-session`), and
 * challenge -> proof, as an integrator's client does it.
 */
/** A fresh Baby Jubjub issuer key: its key file (as `keys generate --out-dir` writes it). */
export type IssuerKey = { privateKey: string; publicKey: string; file: string };

export interface CredentialKit {
  cli(line: string): Promise<Record<string, unknown>>;
  /**
   * `credentials issue --wallet W [--expires-in S] [--issuer-key-file F] --out FILE`, then the
   * file as the holder reads it (signed by the devnet issuer unless `issuer` is given).
   */
  issue(wallet: string, expiresInSeconds?: number, issuer?: IssuerKey): Promise<CredentialFile>;
  /** A new issuer key (not registered: `issuers add --name N --public-key <publicKey>`). */
  newIssuerKey(): Promise<IssuerKey>;
  /** GET /verify/challenge for the credential's wallet, then a real proof for it. */
  prove(auth: Auth | string, credential: CredentialFile): Promise<VerifyBody>;
  close(): Promise<void>;
}

export async function openCredentialKit(
  t: TestApp,
  chain: ComplianceDevnet,
  env: Record<string, string> = {},
): Promise<CredentialKit> {
  const dir = mkdtempSync(join(tmpdir(), 'cgk-credentials-'));
  const context = await withEnv({ LOG_LEVEL: 'silent', ...t.db.env, ...chain.env, ...env }, () =>
    NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false }),
  );
  let files = 0;
  const cli = (line: string) => {
    const { command, args } = splitCommand(line.split(/\s+/));
    return runCommand(context, command, parseFlags(args));
  };
  return {
    cli,
    async issue(wallet, expiresInSeconds, issuer) {
      const out = join(dir, `credential-${++files}.json`);
      const expiry = expiresInSeconds === undefined ? '' : ` --expires-in ${expiresInSeconds}`;
      const key = issuer ? ` --issuer-key-file ${issuer.file}` : '';
      await cli(`credentials issue --wallet ${wallet}${expiry}${key} --out ${out}`);
      return parseCredentialFile(JSON.parse(readFileSync(out, 'utf8')));
    },
    async newIssuerKey() {
      const privateKey = `0x${randomBytes(32).toString('hex')}`;
      const file = join(dir, `issuer-${++files}.env`);
      writeFileSync(file, `ZK_ISSUER_PRIVATE_KEY=${privateKey}\n`, { mode: 0o600 });
      return {
        privateKey,
        file,
        publicKey: formatIssuerPublicKey(await issuerPublicKeyOf(privateKey)),
      };
    },
    async prove(auth, credential) {
      const res = await getChallenge(t, auth, credential.wallet).expect(200);
      const proof = await proveCredential(credential, { challenge: res.body.challenge });
      return {
        walletAddress: credential.wallet,
        proof: proof.proof,
        publicSignals: proof.publicSignals,
      };
    },
    async close() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
