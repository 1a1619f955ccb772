/**
 * Institutional wallets (issue 57), end to end on the devnet in production mode: a 2-of-3 Safe
 * created by the CLI at the address Safe's SDK predicts, bound with a Sign-In-with-Ethereum message
 * its owners sign (ERC-1271), a session opened for it, and its trades built as ONE Safe
 * transaction, signed by two owners and relayed by a third party's EOA.
 */
import Safe, { calculateSafeTransactionHash } from '@safe-global/protocol-kit';
import { OperationType } from '@safe-global/types-kit';
import { Contract, hashMessage, JsonRpcProvider, keccak256, Wallet } from 'ethers';
import request from 'supertest';
import { SAFE } from '../../src/chain/abi/safe';
import { sanctionsCommand } from '../../src/cli/sanctions-command';
import { issueTestAttestation, testAttesterKey } from '../../src/chain/devnet/test-attester';
import { safeContractsFor } from '../../src/chain/safe/safe-contracts';
import {
  batchSafeTx,
  decodeMultiSend,
  SafeTx,
  safeTxArguments,
  safeTxTypedData,
} from '../../src/chain/safe/safe-transactions';
import { DEVNET_ISSUER_PUBLIC_KEY, formatIssuerPublicKey } from '../../src/compliance/zk';
import { DEVNET_ISSUER_PRIVATE_KEY } from '../../src/compliance/zk/devnet-issuer';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  ComplianceDevnet,
  getNonce,
  openCredentialKit,
  postRegister,
  postVerify,
  startComplianceDevnet,
} from '../helpers/compliance';
import {
  createSafeWithCli,
  ownersSign,
  ownersSignHash,
  safeTxOf,
  signExec,
  transferToken,
} from '../helpers/safe';
import { DefiSuite, mintBody, relayUntilConfirmed } from '../helpers/defi';
import { pollUntil } from '../helpers/wait';
import { typeOf, verified, WebhookReceiver } from '../webhooks/receiver';
import {
  BalanceChange,
  digestOf,
  jwksOf,
  TEST_RECEIPT_SIGNING_KEY,
  verifyJws,
  waitForExecution,
} from '../helpers/receipts';
import { devnetPrivateKeys } from '../../src/chain/devnet/devnet';

const CHAIN_ID = 84532;
const PRODUCTION = {
  APP_MODE: 'production',
  JWT_SECRET: 'a-production-like-secret-of-at-least-32-characters',
  MFA_ENCRYPTION_KEY: 'a-production-mfa-key-of-at-least-32-characters',
  WEBHOOK_SECRETS_KEY: 'a-production-webhook-key-of-at-least-32-characters',
  RECEIPT_SIGNING_KEY: TEST_RECEIPT_SIGNING_KEY,
  // The devnet's hook is v3: production needs its authorizer's key (devnet account 0, the one the
  // devnet's hook accepts), though these Safes' account sets no trade rules.
  AUTHORIZER_PRIVATE_KEY: devnetPrivateKeys(1)[0],
  SIWE_DOMAIN: 'localhost',
  ZK_ISSUER_PUBLIC_KEY: formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY),
  WEBHOOK_POLL_INTERVAL_MS: '100',
  WEBHOOK_SCAN_INTERVAL_MS: '200',
  // The test's webhook receiver listens on 127.0.0.1 over http: exempt it from production's rules.
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
};
/** A relayed Safe transaction's final status, as the e2e reads it. */
interface Mined {
  txHash: string;
  status: string;
  kind: string;
  tokenId: string;
  swap: { tokenIn: string; tokenOut: string; amountIn: string; amountOut: string };
}
const ERC20_READ = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount)',
];

describe('Safe multisig accounts (production mode, devnet)', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let token: string;
  let strangerToken: string;
  let receiver: WebhookReceiver;
  let webhookSecret: string;
  let owners: Wallet[];
  let relayer: Wallet;
  let safe: string;
  let tokens: Record<string, string>;
  const multiSendCallOnly = safeContractsFor(CHAIN_ID)!.multiSendCallOnly;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({
      env: { ...chain.env, ...PRODUCTION, ATTESTER_PRIVATE_KEY: chain.attesterKey },
    });
    token = await login(t, await t.createAccount());
    strangerToken = await login(t, await t.createAccount());
    owners = [chain.wallets[1], chain.wallets[2], chain.wallets[3]];
    relayer = chain.wallets[5];
    tokens = chain.deployment.tokens;
    receiver = await WebhookReceiver.start();
    webhookSecret = (
      await request(t.server)
        .post('/api/v1/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .send({ url: receiver.url, events: ['transaction.confirmed', 'transaction.reverted'] })
        .expect(201)
    ).body.secret;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await chain?.close();
  });

  const api = (path: string, bearer = token) => ({
    post: (body: object) =>
      request(t.server).post(path).set('Authorization', `Bearer ${bearer}`).send(body),
    get: () => request(t.server).get(path).set('Authorization', `Bearer ${bearer}`),
  });
  const relay = (signedTransaction: string, bearer = token) =>
    api('/api/v1/defi/transactions', bearer).post({ signedTransaction });
  const status = async (txHash: string) =>
    (await api(`/api/v1/defi/transactions/${txHash}`).get().expect(200)).body;
  const balanceOf = (symbol: string, who: string) =>
    new Contract(tokens[symbol], ERC20_READ, chain.provider).balanceOf(who) as Promise<bigint>;
  const safeContract = () => new Contract(safe, SAFE, chain.provider);
  /** A WETH -> tUSDC swap built for the Safe (query: buildOnly, callsFormat). */
  const buildWethSwap = (amount: string, query = '') =>
    api(`/api/v1/defi/swap${query}`).post({
      tokenIn: tokens.WETH,
      tokenOut: tokens.tUSDC,
      amount,
      userAddress: safe,
    });

  /** Relayed and CONFIRMED: sent by the relayer to the Safe. */
  async function relayUntilMined(signed: string) {
    const done = await relayUntilConfirmed(t, token, signed);
    expect(done).toMatchObject({ from: relayer.address, to: safe });
    return done as unknown as Mined;
  }

  /** Two owners sign the build's safeTransaction; the relayer (no owner) signs execTransaction. */
  async function signBuilt(built: { safeTransaction: Record<string, unknown> }, gasLimit?: bigint) {
    const signatures = await ownersSign(
      [owners[0], owners[2]],
      built.safeTransaction.typedData as never,
    );
    return signExec(relayer, safe, safeTxOf(built.safeTransaction), signatures, gasLimit);
  }

  /** The build's safeTxHash is the Safe contract's getTransactionHash and protocol-kit's. */
  async function expectSafeTxHash(view: Record<string, string | number>) {
    const tx = safeTxOf(view);
    const onChain = (await safeContract().getTransactionHash(
      ...safeTxArguments(tx),
      tx.nonce,
    )) as string;
    expect(view.safeTxHash).toBe(onChain);
    expect(
      calculateSafeTransactionHash(
        safe,
        {
          to: tx.to,
          value: tx.value.toString(),
          data: tx.data,
          operation: tx.operation === 1 ? OperationType.DelegateCall : OperationType.Call,
          safeTxGas: tx.safeTxGas.toString(),
          baseGas: tx.baseGas.toString(),
          gasPrice: tx.gasPrice.toString(),
          gasToken: tx.gasToken,
          refundReceiver: tx.refundReceiver,
          nonce: Number(tx.nonce),
        },
        '1.4.1',
        BigInt(CHAIN_ID),
      ),
    ).toBe(onChain);
  }

  /**
   * The build's receipt got the relayed transaction's execution (issue 56), signed and chained
   * to the receipt: the Safe's own balance changes (`changes`, read on chain), not the relayer's.
   */
  async function expectSafeExecution(receiptId: string, txHash: string, changes: BalanceChange[]) {
    const body = await waitForExecution(t, token, receiptId);
    expect(body.receipt.wallet).toBe(safe);
    expect(body.receipt.execution).toMatchObject({
      txHash,
      status: 'success',
      relayed: true,
      withinSlippage: true,
      deviations: [],
    });
    const byToken = (a: BalanceChange, b: BalanceChange) =>
      a.token.toLowerCase() < b.token.toLowerCase() ? -1 : 1;
    expect(body.receipt.execution.balanceChanges).toEqual([...changes].sort(byToken));
    const signed = await verifyJws(body.executionJws!, await jwksOf(t));
    expect(signed.payload).toMatchObject({ receiptId, receiptDigest: digestOf(body.jws) });
    expect(signed.payload.execution).toEqual(body.receipt.execution);
  }

  it('creates a 2-of-3 Safe with the CLI at the address Safe’s own SDK predicts', async () => {
    const addresses = owners.map((o) => o.address);
    const created = await createSafeWithCli(chain.rpcUrl, addresses, 2);
    expect(created.created).toBe(true);
    safe = created.address;
    const kit = await Safe.init({
      provider: chain.rpcUrl,
      predictedSafe: { safeAccountConfig: { owners: addresses, threshold: 2 } },
    });
    expect(await kit.getAddress()).toBe(safe);
    expect(await kit.isSafeDeployed()).toBe(true);
    expect((await safeContract().getOwners()) as string[]).toEqual(addresses);
    expect(await safeContract().getThreshold()).toBe(2n);
    expect(await safeContract().masterCopy()).toBe(safeContractsFor(CHAIN_ID)!.safeL2Singleton);
    // The same command again answers the same Safe.
    expect(await createSafeWithCli(chain.rpcUrl, addresses, 2)).toMatchObject({
      address: safe,
      created: false,
      txHash: null,
    });
  });

  it("binds it with a SIWE message two owners sign (ERC-1271); one owner's signature, or an owner's personal_sign, is refused", async () => {
    const issued = (await getNonce(t, token, safe).expect(200)).body;
    expect(issued.message).toContain(safe);
    const register = (signature: string) =>
      postRegister(t, token, { walletAddress: safe, message: issued.message, signature });

    for (const signature of [
      await ownersSignHash([owners[0]], CHAIN_ID, safe, hashMessage(issued.message)),
      await owners[0].signMessage(issued.message),
    ]) {
      const refused = await register(signature).expect(400);
      expect(refused.body).toMatchObject({
        code: 'SIWE_INVALID',
        phase: 'validation',
        details: [{ reason: 'SIWE_SIGNER' }],
      });
    }
    const bound = await register(
      await ownersSignHash([owners[1], owners[2]], CHAIN_ID, safe, hashMessage(issued.message)),
    ).expect(200);
    expect(bound.body).toMatchObject({ walletAddress: safe, bound: true, rebound: false });
  });

  it("the Safe's trade without a session reverts at the hook: the relay refuses it (412), sent directly it reverts", async () => {
    await transferToken(owners[0], tokens.WETH, safe, 3n * 10n ** 18n);
    await transferToken(owners[0], tokens.tUSDC, safe, 6_000n * 10n ** 6n);
    await transferToken(owners[0], tokens.tWBTC, safe, 10n ** 8n);
    const built = await buildWethSwap((10n ** 17n).toString(), '?buildOnly=true').expect(200);
    expect(built.body.session.active).toBe(false);
    const signed = await signBuilt(built.body, 2_000_000n);

    const refused = await relay(signed).expect(412);
    expect(refused.body).toMatchObject({ code: 'SESSION_NOT_ACTIVE', phase: 'broadcast' });
    expect(refused.body.message).toContain(safe);

    // Sent straight to the chain, the owners' own transaction reverts (the Safe's GS013), and
    // the status replays the batch in the Safe's context: the hook refused the Safe.
    const hash = keccak256(signed);
    await (chain.provider as JsonRpcProvider)
      .send('eth_sendRawTransaction', [signed])
      .catch(() => undefined);
    const receipt = await chain.provider.getTransactionReceipt(hash);
    expect(receipt?.status).toBe(0);
    expect(await status(hash)).toMatchObject({
      status: 'REVERTED',
      kind: 'swap',
      to: safe,
      revert: { code: 'SESSION_NOT_ACTIVE' },
    });
    expect((await status(hash)).revert.message).toContain(safe);
    expect(await safeContract().nonce()).toBe(0n);
  });

  it('opens a compliance session for the Safe (an attestation of the Safe, production mode)', async () => {
    const attester = new Wallet(testAttesterKey(), chain.provider);
    await issueTestAttestation(attester, chain.deployment.compliance, {
      kind: 'account',
      wallet: safe,
    });
    const opened = await api('/api/v1/onboarding/activate-session-attestation')
      .post({ walletAddress: safe })
      .expect(200);
    expect(opened.body).toMatchObject({ walletAddress: safe, source: { kind: 'attestation' } });
    expect(await chain.isActive(safe)).toBe(true);
  });

  it('a zero-knowledge credential for the Safe opens its session too (POST /verify)', async () => {
    const kit = await openCredentialKit(t, chain, {
      ...PRODUCTION,
      ATTESTER_PRIVATE_KEY: chain.attesterKey,
      ZK_ISSUER_PRIVATE_KEY: DEVNET_ISSUER_PRIVATE_KEY,
    });
    try {
      const verified = await postVerify(
        t,
        token,
        await kit.prove(token, await kit.issue(safe)),
      ).expect(200);
      expect(verified.body).toMatchObject({ verified: true, walletAddress: safe });
      expect(await chain.activeUntil(safe)).toBe(verified.body.activeUntilUnix);
    } finally {
      await kit.close();
    }
  });

  it('WETH -> tUSDC: one Safe transaction (safeTxHash = the contract’s and protocol-kit’s), two owners sign, a third party relays, CONFIRMED', async () => {
    const built = await buildWethSwap((10n ** 17n).toString()).expect(200);
    const body = built.body;
    expect(body.permitData).toBeUndefined();
    expect(body.calls).toHaveLength(3); // ERC-20 approve(Permit2), Permit2 approve(router), swap
    const view = body.safeTransaction;
    expect(view).toMatchObject({
      to: multiSendCallOnly,
      value: '0',
      operation: 1,
      safeTxGas: '0',
      baseGas: '0',
      gasPrice: '0',
      nonce: '0',
    });
    expect(
      decodeMultiSend(view.data).map((c) => ({
        to: c.to,
        data: c.data,
        value: c.value.toString(),
      })),
    ).toEqual(body.calls);
    await expectSafeTxHash(view);
    expect(view.typedData).toMatchObject({
      primaryType: 'SafeTx',
      domain: { chainId: CHAIN_ID, verifyingContract: safe },
    });
    // For a wallet that batches natively (Safe{Wallet} does through EIP-5792): the same calls.
    // (Another amount: the same calls would be another build of the same transaction, and the
    // relay gives a transaction to the latest receipt of its calls.)
    const sendCalls = await buildWethSwap(
      (10n ** 17n + 1n).toString(),
      '?callsFormat=eip5792',
    ).expect(200);
    expect(sendCalls.body).toMatchObject({ version: '2.0.0', from: safe, atomicRequired: true });
    expect(sendCalls.body.calls.map((c: { to: string }) => c.to)).toEqual(
      body.calls.map((c: { to: string }) => c.to),
    );
    expect(sendCalls.headers['x-receipt-id']).toMatch(/^[0-9a-f-]{36}$/);

    const tusdcBefore = await balanceOf('tUSDC', safe);
    const wethBefore = await balanceOf('WETH', safe);
    const relayerNonce = await relayer.getNonce();
    const done = await relayUntilMined(await signBuilt(body));
    expect(done).toMatchObject({
      status: 'CONFIRMED',
      kind: 'swap',
      from: relayer.address,
      to: safe,
    });
    expect(BigInt(done.swap.amountOut)).toBeGreaterThanOrEqual(BigInt(body.minAmountOut));
    expect(done.swap).toMatchObject({ tokenIn: tokens.WETH, tokenOut: tokens.tUSDC });
    const received = (await balanceOf('tUSDC', safe)) - tusdcBefore;
    expect(received).toBe(BigInt(done.swap.amountOut));
    expect(await balanceOf('WETH', safe)).toBe(wethBefore - 10n ** 17n);
    expect(await safeContract().nonce()).toBe(1n);
    expect(await relayer.getNonce()).toBe(relayerNonce + 1);

    // The webhook follows it as any relayed transaction: the Safe's swap, sent by the relayer,
    // naming the build's receipt, which by then holds what the swap did to the Safe.
    const [hook] = await receiver.waitFor((h) => h.body.includes(done.txHash));
    expect(typeOf(hook)).toBe('transaction.confirmed');
    expect(verified(webhookSecret, hook).data).toMatchObject({
      txHash: done.txHash,
      kind: 'swap',
      from: relayer.address,
      to: safe,
      swap: { amountOut: done.swap.amountOut },
      receiptId: body.receiptId,
    });
    await expectSafeExecution(body.receiptId, done.txHash, [
      { token: tokens.WETH, delta: (-(10n ** 17n)).toString() },
      { token: tokens.tUSDC, delta: received.toString() },
    ]);
  });

  it('refuses an execTransaction whose calls are not the builders’ shapes, its refunds, one owner’s signature and another account’s Safe', async () => {
    const nonce = BigInt(await safeContract().nonce());
    const transfer = {
      to: tokens.tUSDC,
      value: 0n,
      data: new Contract(tokens.tUSDC, ERC20_READ).interface.encodeFunctionData('transfer', [
        relayer.address,
        10n ** 6n,
      ]),
    };
    const signedBatch = async (safeTx: SafeTx, signers = [owners[0], owners[1]]) => {
      const typed = safeTxTypedData(CHAIN_ID, safe, safeTx);
      return signExec(relayer, safe, safeTx, await ownersSign(signers, typed), 1_000_000n);
    };
    const relayerNonce = await relayer.getNonce();
    const before = await balanceOf('tUSDC', safe);

    const foreign = await relay(
      await signedBatch(batchSafeTx(multiSendCallOnly, [transfer], nonce)),
    ).expect(400);
    expect(foreign.body).toMatchObject({
      code: 'BROADCAST_TARGET_NOT_ALLOWED',
      phase: 'validation',
      details: [{ safeCall: 0, innerTo: tokens.tUSDC }],
    });
    const refund = await relay(
      await signedBatch({
        ...batchSafeTx(multiSendCallOnly, [], nonce),
        gasPrice: 1n,
        refundReceiver: relayer.address,
      }),
    ).expect(400);
    expect(refund.body.details[0].reason).toMatch(/refund/);
    const direct = await relay(
      await signedBatch({
        ...batchSafeTx(multiSendCallOnly, [], nonce),
        to: tokens.tUSDC,
        operation: 0,
        data: transfer.data,
      }),
    ).expect(400);
    expect(direct.body.code).toBe('BROADCAST_TARGET_NOT_ALLOWED');
    const delegate = await relay(
      await signedBatch({ ...batchSafeTx(multiSendCallOnly, [transfer], nonce), to: tokens.tUSDC }),
    ).expect(400);
    expect(delegate.body.details[0].reason).toMatch(/delegatecalls/);

    // Our shapes, but one owner of two: the Safe refuses (GS020), nothing is sent.
    const built = await buildWethSwap('1000000000000000').expect(200);
    const lone = await ownersSign([owners[1]], built.body.safeTransaction.typedData);
    const oneOwner = await relay(
      await signExec(relayer, safe, safeTxOf(built.body.safeTransaction), lone, 1_000_000n),
    ).expect(400);
    expect(oneOwner.body).toMatchObject({
      code: 'SIMULATION_REVERTED',
      phase: 'broadcast',
      details: [{ revertCode: 'SAFE_SIGNATURES_INVALID' }],
    });
    // Another account may not relay this Safe's transactions (it is bound to ours).
    const elsewhere = await relay(await signBuilt(built.body), strangerToken).expect(403);
    expect(elsewhere.body.code).toBe('INSTITUTION_OWNERSHIP_MISMATCH');

    expect(await relayer.getNonce()).toBe(relayerNonce);
    expect(await balanceOf('tUSDC', safe)).toBe(before);

    // Usage meters the Safe's relays as any: four shape refusals, one simulation refusal.
    const byCode = await pollUntil(
      'usage rows of the refused Safe transactions',
      async () => (await api('/api/v1/usage/stats').get().expect(200)).body.byCode,
      (codes: Record<string, number>) =>
        codes.BROADCAST_TARGET_NOT_ALLOWED === 4 && codes.SIMULATION_REVERTED === 1,
    );
    expect(byCode.SESSION_NOT_ACTIVE).toBe(1); // the trade without a session, earlier
  });

  it('a two-hop swap (tWBTC -> tUSDC through WETH) from the Safe, relayed, CONFIRMED', async () => {
    const built = await api('/api/v1/defi/swap')
      .post({
        tokenIn: tokens.tWBTC,
        tokenOut: tokens.tUSDC,
        amount: (10n ** 6n).toString(), // 0.01 tWBTC
        userAddress: safe,
      })
      .expect(200);
    expect(built.body.route.hops).toHaveLength(2);
    expect(built.body.safeTransaction.nonce).toBe('1');
    await expectSafeTxHash(built.body.safeTransaction);
    const before = await balanceOf('tUSDC', safe);
    const wbtcBefore = await balanceOf('tWBTC', safe);
    const done = await relayUntilMined(await signBuilt(built.body));
    expect(done).toMatchObject({ status: 'CONFIRMED', kind: 'swap', to: safe });
    expect(done.swap).toMatchObject({ tokenIn: tokens.tWBTC, tokenOut: tokens.tUSDC });
    expect(BigInt(done.swap.amountOut)).toBeGreaterThanOrEqual(BigInt(built.body.minAmountOut));
    const received = (await balanceOf('tUSDC', safe)) - before;
    expect(received).toBe(BigInt(done.swap.amountOut));
    expect(await balanceOf('tWBTC', safe)).toBe(wbtcBefore - 10n ** 6n);
    await expectSafeExecution(built.body.receiptId, done.txHash, [
      { token: tokens.tWBTC, delta: (-(10n ** 6n)).toString() },
      { token: tokens.tUSDC, delta: received.toString() },
    ]);
  });

  it('a mint from the Safe: the position NFT is the Safe’s', async () => {
    const pair = { WETH: tokens.WETH, TUSDC: tokens.tUSDC } as DefiSuite;
    const built = await api('/api/v1/defi/liquidity')
      .post(
        mintBody(pair, safe, {
          amount0: (10n ** 17n).toString(),
          amount1: (300n * 10n ** 6n).toString(),
        }),
      )
      .expect(200);
    expect(built.body.owner).toBe(safe);
    await expectSafeTxHash(built.body.safeTransaction);
    const done = await relayUntilMined(await signBuilt(built.body));
    expect(done).toMatchObject({ status: 'CONFIRMED', kind: 'mint', to: safe });
    const positionManager = new Contract(
      chain.deployment.contracts.positionManager,
      ['function ownerOf(uint256) view returns (address)'],
      chain.provider,
    );
    expect(await positionManager.ownerOf(done.tokenId)).toBe(safe);
  });

  it('a listed Safe, or a listed sender of its execTransaction: the relay refuses it, approvals included (403 WALLET_SANCTIONED, broadcast), nothing sent (issue 52)', async () => {
    // tEURC's approvals are still to be made: the batch is approve(Permit2), Permit2 approve, swap.
    await transferToken(owners[0], tokens.tEURC, safe, 100n * 10n ** 6n);
    const built = await api('/api/v1/defi/swap')
      .post({ tokenIn: tokens.tEURC, tokenOut: tokens.tUSDC, amount: '1000000', userAddress: safe })
      .expect(200);
    expect(built.body.calls).toHaveLength(3);
    const signed = await signBuilt(built.body);
    const sanctions = (verb: 'add' | 'remove', address: string) =>
      sanctionsCommand(verb, [address, '--rpc', chain.rpcUrl], {});
    const nonce = await relayer.getNonce();
    for (const listed of [safe, relayer.address]) {
      await sanctions('add', listed);
      try {
        const refused = await relay(signed).expect(403);
        expect(refused.body).toMatchObject({ code: 'WALLET_SANCTIONED', phase: 'broadcast' });
        expect(refused.body.details).toContainEqual(
          expect.objectContaining({ walletAddress: listed }),
        );
      } finally {
        await sanctions('remove', listed);
      }
    }
    expect(await relayer.getNonce()).toBe(nonce);
    expect(await relayUntilMined(signed)).toMatchObject({ status: 'CONFIRMED', kind: 'swap' });
  });
});
