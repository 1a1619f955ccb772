/**
 * DeFi e2e helpers: the worker devnet (ephemeral port), ethers Wallets of the development
 * mnemonic, session activation/revocation through the registry with the attester (account 0),
 * and the devnet's JSON-RPC call counter.
 *
 * Built on the chain layer's acquireDevnet() (one devnet per jest worker, snapshot-reverted per suite).
 */
import {
  Contract,
  Interface,
  InterfaceAbi,
  JsonRpcProvider,
  TransactionReceipt,
  Wallet,
} from 'ethers';
import hookArtifact from '../../contracts/artifacts/ComplianceHook.json';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { DevnetDeployment } from '../../src/chain/network/network.types';
import { Wallet as WalletBinding } from '../../src/compliance/wallets/wallet.entity';
import { COMPLIANCE_REGISTRY } from '../../src/chain/abi/compliance-registry';
import { ERC20 } from '../../src/chain/abi/erc20';
import { POSITION_MANAGER } from '../../src/chain/abi/uniswap-v4';
import { revertDataOf } from '../../src/chain/encoding/revert-decoder';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import { createTestApp, TestApp } from './app';
import { login } from './auth';
import { acquireDevnet, DevnetHandle } from './devnet';
import { pollUntil } from './wait';

/** The ComplianceHook's errors, and the PoolManager's WrappedError around a hook's revert. */
export const HOOK_ERRORS = new Interface([
  ...(hookArtifact.abi as unknown as InterfaceAbi as unknown[]).filter(
    (f) => (f as { type: string }).type === 'error',
  ),
  'error WrappedError(address target, bytes4 selector, bytes reason, bytes details)',
] as InterfaceAbi);

export interface DefiDevnet {
  rpcUrl: string;
  deployment: DevnetDeployment;
  provider: JsonRpcProvider;
  /** Development mnemonic accounts 0..9 (0 = deployer + attester). */
  wallets: Wallet[];
  /** Opens a session for `address` lasting `seconds` (chain clock). */
  activate(address: string, seconds?: number): Promise<void>;
  revoke(address: string): Promise<void>;
  /** eth_call count (etc.) served since the last reset. */
  rpcStats(): Promise<Record<string, number>>;
  resetRpcStats(): Promise<void>;
  send(wallet: Wallet, tx: UnsignedTx): Promise<TransactionReceipt>;
  /** Broadcasts a transaction that must fail; returns its revert data and whether it was mined (status 0). */
  sendExpectingRevert(
    wallet: Wallet,
    tx: UnsignedTx,
  ): Promise<{ revertData: string; mined: boolean }>;
  balanceOf(token: string, owner: string): Promise<bigint>;
  positionManager: Contract;
  chainTime(): Promise<number>;
  close(): Promise<void>;
}

export async function startDefiDevnet(): Promise<DefiDevnet> {
  // The chain layer's per-worker devnet, reverted to its post-deployment snapshot for this suite.
  const handle: DevnetHandle = await acquireDevnet();
  const { provider, wallets, chainTime } = handle;
  const registry = new Contract(
    handle.network.contracts.complianceRegistry,
    COMPLIANCE_REGISTRY,
    wallets[0],
  );
  const send = async (wallet: Wallet, tx: UnsignedTx): Promise<TransactionReceipt> => {
    const response = await wallet.sendTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gasLimit: BigInt(tx.gas),
    });
    return (await response.wait())!;
  };
  return {
    rpcUrl: handle.rpcUrl,
    deployment: handle.deployment,
    provider,
    wallets,
    activate: (address, seconds = 3600) => handle.activateSession(address, seconds),
    async revoke(address) {
      await (await registry.revoke(address)).wait();
    },
    rpcStats: () => handle.rpcStats(),
    resetRpcStats: () => handle.resetRpcCount(),
    send,
    async sendExpectingRevert(wallet, tx) {
      const nonce = await wallet.getNonce();
      try {
        await send(wallet, tx);
      } catch (err) {
        const revertData = revertDataOf(err);
        if (!revertData) throw err;
        // Automine: a failing transaction is still mined; find it by the sender's nonce, in one
        // of the last blocks (a watcher of the app may have mined its own transaction since).
        const head = await provider.getBlockNumber();
        let minedTx;
        for (let n = head; !minedTx && n >= Math.max(0, head - 5); n -= 1)
          minedTx = (await provider.getBlock(n, true))!.prefetchedTransactions.find(
            (t) => t.from === wallet.address && t.nonce === nonce,
          );
        const receipt = minedTx ? await provider.getTransactionReceipt(minedTx.hash) : null;
        return { revertData, mined: receipt?.status === 0 };
      }
      throw new Error('transaction did not revert');
    },
    balanceOf: (token, owner) =>
      new Contract(token, ERC20, provider).balanceOf(owner) as Promise<bigint>,
    positionManager: new Contract(
      handle.network.contracts.positionManager,
      POSITION_MANAGER,
      provider,
    ),
    chainTime,
    close: () => handle.release(),
  };
}

/** Binds a wallet to an account directly (the onboarding endpoints belong to another module). */
export async function bindWallet(t: TestApp, address: string, accountId: string): Promise<void> {
  await t.app.get(DataSource).getRepository(WalletBinding).save({ address, accountId });
}

export function postSwap(t: TestApp, token: string, body: object, query = '') {
  return request(t.server)
    .post(`/api/v1/defi/swap${query}`)
    .set('Authorization', `Bearer ${token}`)
    .send(body);
}

export function postLiquidity(t: TestApp, token: string, body: object, query = '') {
  return request(t.server)
    .post(`/api/v1/defi/liquidity${query}`)
    .set('Authorization', `Bearer ${token}`)
    .send(body);
}

export interface DefiSuite {
  chain: DefiDevnet;
  t: TestApp;
  /** Access token of a fresh account (JWT). */
  token: string;
  WETH: string;
  TUSDC: string;
}

/**
 * Registers the beforeAll/afterAll of a DeFi e2e suite: the worker devnet, the app reading it,
 * and a logged-in account. The returned object is filled in once beforeAll has run.
 */
export function useDefiSuite(): DefiSuite {
  const suite = {} as DefiSuite;
  beforeAll(async () => {
    suite.chain = await startDefiDevnet();
    suite.t = await createTestApp({ env: { CHAIN_RPC_URL: suite.chain.rpcUrl } });
    suite.token = await login(suite.t, await suite.t.createAccount());
    ({ WETH: suite.WETH, tUSDC: suite.TUSDC } = suite.chain.deployment.tokens);
  }, 120_000);
  afterAll(async () => {
    await suite.t?.close();
    await suite.chain?.close();
  });
  return suite;
}

/** A full-range mint body of 1 WETH + 3,000 tUSDC for `user`, with overrides. */
export function mintBody(suite: DefiSuite, user: string, over: object = {}) {
  return {
    token0: suite.WETH,
    token1: suite.TUSDC,
    amount0: (10n ** 18n).toString(),
    amount1: (3000n * 10n ** 6n).toString(),
    tickLower: -887220,
    tickUpper: 887220,
    userAddress: user,
    ...over,
  };
}

/** Signs a built transaction as a wallet would: its nonce, the chain's fees, the build's gas. */
export async function signBuilt(wallet: Wallet, tx: UnsignedTx): Promise<string> {
  const populated = await wallet.populateTransaction({
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    gasLimit: BigInt(tx.gas),
  });
  return wallet.signTransaction(populated);
}

/**
 * Relays a signed transaction through POST /api/v1/defi/transactions (202) and polls its status
 * until it is CONFIRMED; returns the final status body.
 */
export async function relayUntilConfirmed(
  t: TestApp,
  token: string,
  signedTransaction: string,
): Promise<Record<string, unknown> & { txHash: string; kind: string; status: string }> {
  const sent = await request(t.server)
    .post('/api/v1/defi/transactions')
    .set('Authorization', `Bearer ${token}`)
    .send({ signedTransaction })
    .expect(202);
  const done = await pollUntil(
    `${sent.body.kind} ${sent.body.txHash} confirmed`,
    async () =>
      (
        await request(t.server)
          .get(`/api/v1/defi/transactions/${sent.body.txHash}`)
          .set('Authorization', `Bearer ${token}`)
          .expect(200)
      ).body,
    (body) => body.status !== 'PENDING',
  );
  expect(done).toMatchObject({ status: 'CONFIRMED', kind: sent.body.kind });
  return done;
}

export function postQuote(t: TestApp, token: string, body: object) {
  return request(t.server)
    .post('/api/v1/defi/quote')
    .set('Authorization', `Bearer ${token}`)
    .send(body);
}
