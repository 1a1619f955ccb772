/**
 * transaction.confirmed for a swap relayed through the service (issue 32), delivered to a real
 * receiver and verified with standardwebhooks.
 */
import { keccak256, Wallet } from 'ethers';
import request from 'supertest';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { DefiDevnet, postSwap, startDefiDevnet } from '../helpers/defi';
import { typeOf, verified, WebhookReceiver } from './receiver';

describe('Webhooks: transaction.confirmed for relayed transactions', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({
      env: {
        CHAIN_RPC_URL: chain.rpcUrl,
        WEBHOOK_POLL_INTERVAL_MS: '100',
        WEBHOOK_SCAN_INTERVAL_MS: '200',
      },
    });
    token = await login(t, await t.createAccount());
    receiver = await WebhookReceiver.start();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await chain?.close();
  });

  const relay = (signedTransaction: string) =>
    request(t.server)
      .post('/api/v1/defi/transactions')
      .set('Authorization', `Bearer ${token}`)
      .send({ signedTransaction })
      .expect(202);

  async function sign(wallet: Wallet, tx: UnsignedTx) {
    return wallet.signTransaction(
      await wallet.populateTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        gasLimit: BigInt(tx.gas),
      }),
    );
  }

  it('a relayed swap produces one transaction.confirmed with what it paid and received', async () => {
    const created = await request(t.server)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url, events: ['transaction.confirmed', 'transaction.reverted'] })
      .expect(201);
    const { WETH, tUSDC } = chain.deployment.tokens;
    const user = chain.wallets[2];
    await chain.activate(user.address);
    const body = {
      tokenIn: WETH,
      tokenOut: tUSDC,
      amount: (10n ** 16n).toString(),
      userAddress: user.address,
    };

    const first = await postSwap(t, token, body).expect(200);
    for (const approval of first.body.approvals as Array<{ transaction: UnsignedTx }>) {
      const sent = await relay(await sign(user, approval.transaction));
      const [hook] = await receiver.waitFor((h) => h.body.includes(sent.body.txHash));
      // An approval is no build's transaction: no receipt.
      expect(verified(created.body.secret, hook).data.receiptId).toBeNull();
    }
    const built = await postSwap(t, token, body).expect(200);
    const signed = await sign(user, built.body.transaction);
    const sent = await relay(signed);
    expect(sent.body.txHash).toBe(keccak256(signed));

    const [hook] = await receiver.waitFor((h) => h.body.includes(sent.body.txHash));
    expect(typeOf(hook)).toBe('transaction.confirmed');
    const event = verified(created.body.secret, hook);
    expect(event.data).toMatchObject({
      txHash: sent.body.txHash,
      status: 'CONFIRMED',
      kind: 'swap',
      from: user.address,
      swap: { tokenIn: WETH, amountIn: (10n ** 16n).toString(), tokenOut: tUSDC },
      // The compliance receipt of the build it is (issue 56); by then it holds the execution.
      receiptId: built.body.receiptId,
    });
    const receipt = await request(t.server)
      .get(`/api/v1/compliance/receipts/${built.body.receiptId}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(receipt.body.receipt.execution).toMatchObject({
      txHash: sent.body.txHash,
      relayed: true,
    });
    // Once: the watcher's later passes record nothing more for it.
    const again = await request(t.server)
      .post('/api/v1/defi/transactions')
      .set('Authorization', `Bearer ${token}`)
      .send({ signedTransaction: signed })
      .expect(202);
    expect(again.body.status).toBe('CONFIRMED');
    const deliveries = await request(t.server)
      .get(`/api/v1/webhooks/${created.body.id}/deliveries`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const forSwap = deliveries.body.deliveries.filter(
      (d: { payload: { data: { txHash: string } } }) => d.payload.data.txHash === sent.body.txHash,
    );
    expect(forSwap).toHaveLength(1);
  });
});
