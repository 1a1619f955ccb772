/**
 * Issue 58 item 1: a revocation the service owes cannot stall unseen. The attester is drained and
 * an attestation is revoked: the screening watcher owes the session's revocation, which cannot be
 * mined; cgk_compliance_revocations_pending reads 1 and the owed age grows, readiness says
 * degraded (why, without address or balance on the API port), a warn line says what is owed and
 * why it waits, and promtool fires CgkRevocationsStuck on the series observed here. Funding the
 * attester clears it all: the owed revocation is mined by the retry loop. With a funded standby
 * attester, the same revocation is mined by the standby within the screening pass that found it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, parseEther, toQuantity, Wallet } from 'ethers';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { COMPLIANCE_REGISTRY } from '../../src/chain/abi/compliance-registry';
import {
  issueTestAttestation,
  revokeTestAttestation,
  testAttesterKey,
} from '../../src/chain/devnet/test-attester';
import { ApiError } from '../../src/common/errors/api-error';
import { AttesterService } from '../../src/compliance/sessions/attester.service';
import { OwedRevocation } from '../../src/compliance/sessions/owed-revocation.entity';
import { createTestApp, TestApp } from '../helpers/app';
import { postActivateDemo } from '../helpers/compliance';
import { login } from '../helpers/auth';
import { captureStdout } from '../helpers/capture-stdout';
import { DefiDevnet, startDefiDevnet } from '../helpers/defi';
import { devnetRpc } from '../helpers/devnet-mining';
import { metricsListener } from '../helpers/metrics';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { pollUntil } from '../helpers/wait';

const ALERTS = join(__dirname, '../../deploy/prometheus/alerts.yml');
const SCREENING_MS = 1_000;

/** The app's settings: screening and retries every second, metrics on, details off (the default). */
const env = (chain: DefiDevnet, extra: Record<string, string> = {}) => ({
  CHAIN_RPC_URL: chain.rpcUrl,
  METRICS_PORT: '0',
  SCREENING_INTERVAL_MS: String(SCREENING_MS),
  REVOCATION_RETRY_MS: '1000',
  ATTESTER_BALANCE_CHECK_MS: '200',
  HEALTH_DETAILS: undefined as unknown as string,
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  ...extra,
});

/** A wallet with a session opened from a Verified Account attestation, through the API. */
async function attestedSession(chain: DefiDevnet, t: TestApp, token: string, wallet: string) {
  const attester = new Wallet(testAttesterKey(), chain.provider);
  const uid = await issueTestAttestation(attester, chain.deployment.compliance, {
    kind: 'account',
    wallet,
  });
  await request(t.server)
    .post('/api/v1/onboarding/activate-session-attestation')
    .set('Authorization', `Bearer ${token}`)
    .send({ walletAddress: wallet })
    .expect(200);
  return { uid, revoke: () => revokeTestAttestation(attester, chain.deployment.compliance, uid) };
}

const setBalance = (chain: DefiDevnet, address: string, wei: bigint) =>
  devnetRpc(chain.rpcUrl, 'hardhat_setBalance', [address, toQuantity(wei)]);

const logLines = (stdout: { text: () => string }, event: string) =>
  stdout
    .text()
    .split('\n')
    .filter((line) => line.includes(`"${event}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('Owed revocations: an unfunded attester (no standby)', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let stdout: ReturnType<typeof captureStdout>;
  let registry: Contract;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    stdout = captureStdout();
    t = await createTestApp({ env: env(chain) });
    token = await login(t, await t.createAccount());
    registry = new Contract(
      chain.deployment.contracts.complianceRegistry,
      COMPLIANCE_REGISTRY,
      chain.provider,
    );
  }, 120_000);
  afterAll(async () => {
    stdout?.restore();
    await t?.close();
    await chain?.close();
  });

  it('owes the revocation (pending 1, age growing), says degraded and why, pages through promtool; funding clears everything', async () => {
    const metrics = metricsListener(t);
    const primary = chain.wallets[0].address;
    const user = chain.wallets[3].address;
    const session = await attestedSession(chain, t, token, user);
    expect(await registry.isActive(user)).toBe(true);
    expect(await metrics.metric('cgk_compliance_revocations_pending')).toBe(0);
    expect(await metrics.metric('cgk_compliance_revocations_oldest_age_seconds')).toBe(0);
    expect((await request(t.server).get('/health/ready').expect(200)).body).toEqual({
      status: 'ok',
    });

    await setBalance(chain, primary, 0n);
    await session.revoke();

    // The screening watcher finds the revoked attestation and owes the revocation; not mined.
    const pending = await pollUntil(
      'the revocation owed',
      () => metrics.metric('cgk_compliance_revocations_pending'),
      (n) => n === 1,
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(pending).toBe(1);
    const firstAge = (await metrics.metric('cgk_compliance_revocations_oldest_age_seconds'))!;
    const laterAge = await pollUntil(
      'the owed age to grow by a second',
      async () => (await metrics.metric('cgk_compliance_revocations_oldest_age_seconds'))!,
      (age) => age >= firstAge + 1,
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    expect(await registry.isActive(user)).toBe(true);

    // Readiness on the API port: degraded and why, nothing an outsider should read.
    const ready = await pollUntil(
      'readiness degraded',
      async () => (await request(t.server).get('/health/ready')).body as Record<string, unknown>,
      (body) => body.status === 'degraded',
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(Object.keys(ready).sort()).toEqual(['reason', 'status']);
    expect(ready.reason).toMatch(
      /^attester: the primary attester cannot pay for gas: activations fail and 1 owed session revocation\(s\) wait until it is funded$/,
    );
    expect(JSON.stringify(ready)).not.toMatch(/0x|127\.0\.0\.1|localhost|ETH/);
    // The details, on the metrics listener only.
    const detailed = await metrics.readiness();
    expect(detailed.status).toBe(200);
    expect(detailed.body.details.attester).toMatchObject({
      status: 'degraded',
      address: primary,
      balanceEth: '0.0',
      canPay: false,
      owedRevocations: { pending: 1 },
    });
    expect(await metrics.metric('cgk_attester_can_pay{role="primary"}')).toBe(0);

    // The warn line: what is owed (wallet, reason, since when) and why it waits.
    const owedLine = await pollUntil(
      'a compliance.revocation.owed line',
      () => logLines(stdout, 'compliance.revocation.owed'),
      (lines) => lines.length > 0,
    );
    expect(owedLine[0]).toMatchObject({
      level: 40,
      walletAddress: user,
      reason: 'attestation_revoked',
      waitingFor: expect.stringMatching(/cannot pay for gas.*attester fund/),
    });
    expect(owedLine[0].msg).toMatch(
      /revocation of the session of 0x\w+ \(attestation_revoked\) owed for \d+ s, not mined: the attester cannot pay for gas/,
    );
    expect(JSON.stringify(logLines(stdout, 'compliance.revocation.owed'))).not.toMatch(
      /no session was activated/,
    );

    // The alert rule fires on this series: the observed pending count and owed age, as
    // Prometheus would scrape them each minute from now on (promtool test rules).
    const startAge = Math.round(laterAge);
    const ageAt6m = startAge + 360; // minutes 0..6 of the test series, one scrape a minute
    const dir = mkdtempSync(join(tmpdir(), 'cgk-promtool-'));
    try {
      writeFileSync(
        join(dir, 'owed.test.yml'),
        [
          `rule_files: ['${ALERTS}']`,
          'evaluation_interval: 1m',
          'tests:',
          '  - interval: 1m',
          '    input_series:',
          `      - series: 'cgk_compliance_revocations_pending{job="cgk"}'`,
          `        values: '${pending}x10'`,
          `      - series: 'cgk_compliance_revocations_oldest_age_seconds{job="cgk"}'`,
          `        values: '${startAge}+60x10'`,
          '    alert_rule_test:',
          '      - eval_time: 3m',
          '        alertname: CgkRevocationsStuck',
          '        exp_alerts: []',
          '      - eval_time: 6m',
          '        alertname: CgkRevocationsStuck',
          '        exp_alerts:',
          '          - exp_labels: { severity: page, job: cgk }',
          '            exp_annotations:',
          "              summary: 'Session revocations are owed and not mined: wallets keep sessions they should have lost'",
          `              description: '1 revocation(s) owed, the oldest for ${Math.floor(ageAt6m / 60)}m ${ageAt6m % 60}s; the warn lines compliance.revocation.owed say why each waits.'`,
          "              runbook_url: 'docs/operators/runbooks.md#runbook-revocations-stuck'",
        ].join('\n'),
      );
      const run = spawnSync('promtool', ['test', 'rules', join(dir, 'owed.test.yml')], {
        encoding: 'utf8',
      });
      expect(run.stdout + run.stderr).toContain('SUCCESS');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // Funding the attester clears everything: the retry loop mines the owed revocation.
    await setBalance(chain, primary, parseEther('10'));
    await pollUntil(
      'the owed revocation mined',
      () => metrics.metric('cgk_compliance_revocations_pending'),
      (n) => n === 0,
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(await registry.isActive(user)).toBe(false);
    expect(await metrics.metric('cgk_compliance_revocations_oldest_age_seconds')).toBe(0);
    await pollUntil(
      'readiness ok',
      async () => (await request(t.server).get('/health/ready')).body as Record<string, unknown>,
      (body) => body.status === 'ok',
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const row = await t.app.get(DataSource).getRepository(OwedRevocation).findOneByOrFail({
      walletAddress: user,
    });
    expect(row).toMatchObject({ status: 'mined', reason: 'attestation_revoked', minedBy: primary });
    expect(row.attempts).toBeGreaterThan(0);
    expect(row.lastError).toBeNull();
    // The account's audit trail (and webhooks) say it happened, and that it was owed first.
    const audit = await request(t.server)
      .get('/api/v1/audit-events')
      .query({ type: 'session.revoked' })
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(audit.body.items[0]).toMatchObject({
      actor: { type: 'system' },
      data: {
        walletAddress: user,
        reason: 'attestation_revoked',
        txHash: row.txHash,
        owedSince: row.requestedAt.toISOString(),
      },
    });
  });
});

describe('Owed revocations: a funded standby attester', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let stdout: ReturnType<typeof captureStdout>;
  let standby: Wallet;
  let registry: Contract;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    // A second registry attester: allowed by the registry's owner (devnet account 0), funded.
    standby = Wallet.createRandom().connect(chain.provider) as unknown as Wallet;
    registry = new Contract(
      chain.deployment.contracts.complianceRegistry,
      COMPLIANCE_REGISTRY,
      chain.wallets[0],
    );
    await (await registry.setAttester(standby.address, true)).wait();
    await setBalance(chain, standby.address, parseEther('1'));
    stdout = captureStdout();
    t = await createTestApp({
      env: env(chain, { ATTESTER_STANDBY_PRIVATE_KEY: standby.privateKey }),
    });
    token = await login(t, await t.createAccount());
  }, 120_000);
  afterAll(async () => {
    stdout?.restore();
    await t?.close();
    await chain?.close();
  });

  it('mines the revocation from the standby within the screening pass that finds it; funding the primary clears the degraded state', async () => {
    const metrics = metricsListener(t);
    const primary = chain.wallets[0].address;
    const user = chain.wallets[4].address;
    const session = await attestedSession(chain, t, token, user);
    expect(await registry.isActive(user)).toBe(true);

    await setBalance(chain, primary, 0n);
    const revokedAt = Date.now();
    await session.revoke();
    await pollUntil(
      'the session revoked on chain',
      () => registry.isActive(user) as Promise<boolean>,
      (active) => !active,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    const elapsed = Date.now() - revokedAt;
    // Settled in the database right after the receipt (the chain answers first).
    const row = await pollUntil(
      'the owed revocation settled',
      () =>
        t.app.get(DataSource).getRepository(OwedRevocation).findOneByOrFail({
          walletAddress: user,
        }),
      (found) => found.status === 'mined',
    );
    // Mined at its first send, by the standby: never owed past the pass that found it.
    expect(row).toMatchObject({
      status: 'mined',
      reason: 'attestation_revoked',
      attempts: 0,
      minedBy: standby.address,
    });
    // Within one screening interval of the revocation (plus the pass's own reads and the mining).
    expect(elapsed).toBeLessThan(SCREENING_MS + 2_000);
    expect(await metrics.metric('cgk_compliance_revocations_pending')).toBe(0);
    expect(
      await metrics.metric(
        'cgk_attester_failovers_total{reason="insufficient_funds",operation="revocation"}',
      ),
    ).toBe(1);
    const [failover] = logLines(stdout, 'attester.failover');
    expect(failover).toMatchObject({
      level: 40,
      operation: 'revocation',
      reason: 'insufficient_funds',
      from: primary,
      to: standby.address,
    });

    // The primary still cannot pay: degraded, and the standby is said to sign meanwhile.
    const degraded = await pollUntil(
      'readiness degraded',
      async () => (await request(t.server).get('/health/ready')).body as Record<string, unknown>,
      (body) => body.status === 'degraded',
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(degraded.reason).toBe(
      'attester: the primary attester cannot pay for gas: the standby attester signs meanwhile',
    );
    const detailed = await metrics.readiness();
    expect(detailed.body.details.attester.standby).toMatchObject({
      address: standby.address,
      signer: 'key',
      canPay: true,
    });

    await setBalance(chain, primary, parseEther('10'));
    await pollUntil(
      'readiness ok once the primary is funded',
      async () => (await request(t.server).get('/health/ready')).body as Record<string, unknown>,
      (body) => body.status === 'ok',
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    await pollUntil(
      'cgk_attester_can_pay{role="primary"} back at 1',
      () => metrics.metric('cgk_attester_can_pay{role="primary"}'),
      (v) => v === 1,
    );
  });

  it('signs with the standby while the registry refuses the primary (NotAttester); allowed again, readiness is ok', async () => {
    const metrics = metricsListener(t);
    const primary = chain.wallets[0];
    const user = chain.wallets[5].address;
    // The registry's owner (devnet account 0, also the primary attester) disallows the primary.
    await (
      await registry.connect(primary).getFunction('setAttester')(primary.address, false)
    ).wait();
    const activated = await postActivateDemo(t, token, user).expect(200);
    expect((await chain.provider.getTransaction(activated.body.txHash))!.from).toBe(
      standby.address,
    );
    expect(
      await metrics.metric('cgk_attester_failovers_total{reason="refused",operation="activation"}'),
    ).toBe(1);
    const degraded = (await request(t.server).get('/health/ready').expect(200)).body;
    expect(degraded).toEqual({
      status: 'degraded',
      reason:
        'attester: the registry refuses the primary attester (is its key still a registry attester?): the standby attester signs meanwhile',
    });
    await (
      await registry.connect(primary).getFunction('setAttester')(primary.address, true)
    ).wait();
    expect((await request(t.server).get('/health/ready').expect(200)).body).toEqual({
      status: 'ok',
    });
  });
});

describe('Owed revocations: durable across a restart', () => {
  let chain: DefiDevnet;
  let db: TestDatabase;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    db = await createTestDatabase();
  }, 120_000);
  afterAll(async () => {
    await db?.drop();
    await chain?.close();
  });

  it("an operator's revocation that could not be mined is sent by the next instance to start, once the attester can pay", async () => {
    const primary = chain.wallets[0].address;
    const user = chain.wallets[5].address;
    await chain.activate(user);
    const registry = new Contract(
      chain.deployment.contracts.complianceRegistry,
      COMPLIANCE_REGISTRY,
      chain.provider,
    );
    const first = await createTestApp({
      db,
      env: env(chain, { REVOCATION_RETRY_MS: '3600000', LOG_LEVEL: 'error' }),
    });
    await setBalance(chain, primary, 0n);
    const refusal = await first.app
      .get(AttesterService)
      .revoke(user, 'operator')
      .catch((error: unknown) => error as ApiError);
    await first.close();
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      code: 'BROADCAST_FAILED',
      options: { extra: { reason: 'insufficient_funds', revocationId: expect.any(String) } },
    });
    expect((refusal as ApiError).message).toMatch(
      /^The revocation of the session of 0x\w{40} was not mined: the attester cannot pay for gas .* It is owed \(since .*\) and the service sends it again every REVOCATION_RETRY_MS until it is mined$/,
    );
    expect(await registry.isActive(user)).toBe(true);

    await setBalance(chain, primary, parseEther('10'));
    const second = await createTestApp({ db, env: env(chain, { LOG_LEVEL: 'error' }) });
    try {
      await pollUntil(
        'the owed revocation mined by the new instance',
        () => registry.isActive(user) as Promise<boolean>,
        (active) => !active,
        { timeoutMs: 10_000, intervalMs: 100 },
      );
      const row = await pollUntil(
        'the owed revocation settled',
        () =>
          second.app.get(DataSource).getRepository(OwedRevocation).findOneByOrFail({
            walletAddress: user,
          }),
        (found) => found.status === 'mined',
      );
      expect(row).toMatchObject({ status: 'mined', reason: 'operator', attempts: 1 });
      expect(await metricsListener(second).metric('cgk_compliance_revocations_pending')).toBe(0);
    } finally {
      await second.close();
    }
  });
});
