/**
 * Compliance e2e helpers: the worker's shared devnet (test/helpers/devnet.ts, reverted to its
 * pristine deployment per suite), registry reads, SIWE signing with development-mnemonic wallets,
 * and the onboarding / verify calls.
 */
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import request from 'supertest';
import { devnetPrivateKeys } from '../../src/chain/devnet/devnet';
import type { DevnetDeployment } from '../../src/chain/network/network.types';
import { COMPLIANCE_REGISTRY_ABI } from '../../src/compliance/sessions/attester.service';
import { buildSiweMessage } from '../../src/compliance/siwe';
import type { TestApp } from './app';
import { acquireDevnet } from './devnet';

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
    [...COMPLIANCE_REGISTRY_ABI.fragments, 'function isActive(address wallet) view returns (bool)'],
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
