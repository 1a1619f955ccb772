import { Wallet } from 'ethers';
import request from 'supertest';
import { AttesterService } from '../../src/compliance/sessions/attester.service';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { ComplianceDevnet, postActivateDemo, startComplianceDevnet } from '../helpers/compliance';
import { devnetRpc } from '../helpers/devnet-mining';
import { pollUntil } from '../helpers/wait';

interface PendingView {
  nonce: number;
  hashes: string[];
  maxFeePerGas: string;
}

/**
 * The chain stops mining (automine off) while an activation waits: the attester replaces its
 * transaction (same nonce, higher fees) every ATTESTER_REPLACE_AFTER_MS; mining resumes with a
 * higher base fee and the request is answered with the hash that landed. One transaction mined.
 */
describe(`${AttesterService.name}: a transaction not mined in time`, () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({
      env: {
        ...chain.env,
        ATTESTER_REPLACE_AFTER_MS: '300',
        ATTESTER_RECEIPT_TIMEOUT_MS: '20000',
      },
    });
    token = await login(t, await t.createAccount());
  }, 120_000);
  afterAll(async () => {
    await devnetRpc(chain.rpcUrl, 'evm_setAutomine', [true]).catch(() => undefined);
    await t?.close();
    await chain?.close();
  });

  const pendingOf = async (): Promise<PendingView[]> => {
    const res = await request(t.server).get('/health/ready').expect(200);
    return res.body.details.attester.pendingTransactions as PendingView[];
  };

  it('is replaced with the same nonce and a higher fee, and the activation completes once', async () => {
    const attester = chain.wallets[0].address;
    const nonceBefore = await chain.provider.getTransactionCount(attester, 'latest');
    const wallet = Wallet.createRandom().address;
    await devnetRpc(chain.rpcUrl, 'evm_setAutomine', [false]);

    const answer = postActivateDemo(t, token, wallet).then((r) => r);
    const first = (await pollUntil('the activation sent', pendingOf, (p) => p.length === 1))[0];
    expect(first.nonce).toBe(nonceBefore);
    // A second request for the same wallet meanwhile joins the first one's transaction.
    const again = postActivateDemo(t, token, wallet).then((r) => r);
    await pollUntil('a replacement', pendingOf, (p) => p[0]?.hashes.length >= 2);

    // Mining resumes with a base fee the first offer cannot pay: only a repriced one can land.
    const baseFee = BigInt(first.maxFeePerGas) * 4n;
    await devnetRpc(chain.rpcUrl, 'hardhat_setNextBlockBaseFeePerGas', [
      `0x${baseFee.toString(16)}`,
    ]);
    const repriced = await pollUntil(
      'a replacement paying the new base fee',
      pendingOf,
      (p) => p.length === 1 && BigInt(p[0].maxFeePerGas) >= baseFee,
      { timeoutMs: 10_000 },
    );
    await devnetRpc(chain.rpcUrl, 'evm_setAutomine', [true]);
    await devnetRpc(chain.rpcUrl, 'evm_mine');

    const [res, joined] = await Promise.all([answer, again]);
    expect(res.status).toBe(200);
    expect(joined.status).toBe(200);
    expect(joined.body.txHash).toBe(res.body.txHash);
    expect(repriced[0].hashes).toContain(res.body.txHash);
    expect(res.body.txHash).not.toBe(first.hashes[0]);

    const landed = (await chain.provider.getTransaction(res.body.txHash))!;
    expect(landed.nonce).toBe(nonceBefore);
    expect(landed.maxFeePerGas!).toBeGreaterThan(BigInt(first.maxFeePerGas));
    expect(await chain.provider.getTransactionReceipt(first.hashes[0])).toBeNull();
    // Exactly one attester transaction mined, and the session is on chain.
    expect(await chain.provider.getTransactionCount(attester, 'latest')).toBe(nonceBefore + 1);
    expect(await chain.isActive(wallet)).toBe(true);
    await postActivateDemo(t, token, wallet).expect(200, /"alreadyActive":true/);
    // The joined request answered with the same activation, which is one event, not two.
    const audit = await request(t.server)
      .get('/api/v1/audit-events')
      .query({ type: 'session.activated' })
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(
      audit.body.items.filter(
        (e: { data: { walletAddress: string } }) => e.data.walletAddress === wallet,
      ),
    ).toHaveLength(1);

    const health = await request(t.server).get('/health/ready').expect(200);
    expect(health.body.details.attester).toMatchObject({
      status: 'up',
      address: attester,
      lowBalance: false,
      pendingTransactions: [],
      pendingOnNode: 0,
    });
    expect(health.body.details.attester.replaced).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('refuses to send over ATTESTER_MAX_FEE_GWEI, and reports a low balance without going unready', async () => {
    const strict = await createTestApp({
      db: t.db,
      env: {
        ...chain.env,
        ATTESTER_MAX_FEE_GWEI: '0.000000001',
        ATTESTER_LOW_BALANCE_ETH: '1000000',
      },
    });
    try {
      const attester = chain.wallets[0].address;
      const nonceBefore = await chain.provider.getTransactionCount(attester, 'pending');
      const wallet = Wallet.createRandom().address;
      const res = await postActivateDemo(strict, token, wallet).expect(502);
      expect(res.body).toMatchObject({ code: 'BROADCAST_FAILED', phase: 'broadcast' });
      expect(res.body.hint).toContain('ATTESTER_MAX_FEE_GWEI');
      expect(res.body.message).toMatch(/above the attester's cap of 0\.000000001 gwei/);
      expect(await chain.provider.getTransactionCount(attester, 'pending')).toBe(nonceBefore);
      expect(await chain.isActive(wallet)).toBe(false);

      const ready = await request(strict.server).get('/health/ready').expect(200);
      expect(ready.body.details.attester).toMatchObject({
        status: 'up',
        lowBalance: true,
        lowBalanceThresholdEth: '1000000.0',
      });
    } finally {
      await strict.close();
    }
  });
});
