/**
 * Sessions opened from EAS attestations on the devnet (issue 40): the devnet has EAS and its
 * SchemaRegistry at the OP-Stack predeploys, an indexer and a test attester, as Base has
 * Coinbase Verifications. One call opens a session; refusals name why.
 */
import { Contract, Wallet, ZeroAddress } from 'ethers';
import request from 'supertest';
import { ATTESTATION_INDEXER, SCHEMA_REGISTRY } from '../../src/chain/abi/eas';
import { schemaUid } from '../../src/chain/encoding/attestations';
import {
  issueTestAttestation,
  revokeTestAttestation,
  testAttesterKey,
  TestAttestation,
} from '../../src/chain/devnet/test-attester';
import type { NetworkCompliance } from '../../src/chain/network/network.types';
import { AttestationReaderService } from '../../src/compliance/attestations/attestation-reader.service';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import { DefiDevnet, postSwap, useDefiSuite } from '../helpers/defi';
import { devnetRpc } from '../helpers/devnet-mining';
import type { TestApp } from '../helpers/app';
import { pollUntil } from '../helpers/wait';

describe('AttestationActivationService: POST /onboarding/activate-session-attestation', () => {
  const suite = useDefiSuite();
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let attester: Wallet;
  let compliance: NetworkCompliance;
  beforeAll(() => {
    ({ chain, t, token } = suite);
    compliance = chain.deployment.compliance;
    attester = new Wallet(testAttesterKey(), chain.provider);
  });

  const activate = (walletAddress: string, source?: string) =>
    request(t.server)
      .post('/api/v1/onboarding/activate-session-attestation')
      .set('Authorization', `Bearer ${token}`)
      .send({ walletAddress, ...(source ? { source } : {}) });
  const attest = (a: TestAttestation, signer: Wallet = attester) =>
    issueTestAttestation(signer, compliance, a);

  async function relayConfirmed(wallet: Wallet, tx: UnsignedTx): Promise<void> {
    const signed = await wallet.signTransaction(
      await wallet.populateTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        gasLimit: BigInt(tx.gas),
      }),
    );
    const sent = await request(t.server)
      .post('/api/v1/defi/transactions')
      .set('Authorization', `Bearer ${token}`)
      .send({ signedTransaction: signed })
      .expect(202);
    await pollUntil(
      `${sent.body.txHash} confirmed`,
      async () =>
        (
          await request(t.server)
            .get(`/api/v1/defi/transactions/${sent.body.txHash}`)
            .set('Authorization', `Bearer ${token}`)
            .expect(200)
        ).body.status,
      (s) => s === 'CONFIRMED',
    );
  }

  it('opens a session with one call from a Verified Account attestation, then the wallet swaps (relayed, CONFIRMED)', async () => {
    const user = chain.wallets[2];
    const uid = await attest({ kind: 'account', wallet: user.address });
    const res = await activate(user.address).expect(200);
    expect(res.body).toMatchObject({
      walletAddress: user.address,
      source: { kind: 'attestation', name: 'verified-account', uid },
    });
    expect(res.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(res.body.activeUntilUnix).toBeGreaterThan(await chain.chainTime());

    const body = {
      tokenIn: chain.deployment.tokens.WETH,
      tokenOut: chain.deployment.tokens.tUSDC,
      amount: (10n ** 16n).toString(),
      userAddress: user.address,
    };
    const first = await postSwap(t, token, body).expect(200);
    for (const approval of first.body.approvals) await relayConfirmed(user, approval.transaction);
    const built = await postSwap(t, token, body).expect(200);
    expect(built.body.session.active).toBe(true);
    const before = await chain.balanceOf(chain.deployment.tokens.tUSDC, user.address);
    await relayConfirmed(user, built.body.transaction);
    expect(await chain.balanceOf(chain.deployment.tokens.tUSDC, user.address)).toBeGreaterThan(
      before,
    );

    // Audited and sent to webhooks as session.activated naming the source.
    const audit = await request(t.server)
      .get('/api/v1/audit-events')
      .query({ type: 'session.activated' })
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const event = audit.body.items.find(
      (e: { data: { txHash: string } }) => e.data.txHash === res.body.txHash,
    );
    expect(event.data).toMatchObject({
      via: 'attestation',
      source: { kind: 'attestation', name: 'verified-account', uid },
    });
  });

  it('never lets the session outlive the attestation', async () => {
    const user = chain.wallets[3];
    await attest({ kind: 'account', wallet: user.address, expiresIn: 600 });
    const expiration = (await chain.chainTime()) + 600;
    const res = await activate(user.address, 'verified-account').expect(200);
    // The attestation's expirationTime was its block's time + 600: at most the chain time + 600.
    expect(res.body.activeUntilUnix).toBeLessThanOrEqual(expiration);
    expect(res.body.activeUntilUnix).toBeGreaterThan(expiration - 60);
  });

  it('refuses a revoked attestation with ATTESTATION_REVOKED', async () => {
    const user = chain.wallets[4];
    const uid = await attest({ kind: 'account', wallet: user.address });
    // The check the screening watcher (issue 41) can call: one read of EAS.
    const reader = t.app.get(AttestationReaderService);
    expect(await reader.isAttestationRevoked(uid)).toBe(false);
    await revokeTestAttestation(attester, compliance, uid);
    expect(await reader.isAttestationRevoked(uid)).toBe(true);
    const res = await activate(user.address, 'verified-account').expect(403);
    expect(res.body).toMatchObject({ code: 'ATTESTATION_REVOKED', phase: 'preflight' });
    expect(res.body.details).toContainEqual(
      expect.objectContaining({ source: 'verified-account', reason: 'revoked', uid }),
    );
  });

  it('refuses an expired attestation with ATTESTATION_EXPIRED', async () => {
    const user = chain.wallets[5];
    await attest({ kind: 'account', wallet: user.address, expiresIn: 2 });
    const expiresAt = (await chain.chainTime()) + 2;
    await pollUntil(
      'the attestation to expire on the chain clock',
      async () => {
        await devnetRpc(chain.rpcUrl, 'evm_mine');
        return chain.chainTime();
      },
      (now) => now > expiresAt,
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    const res = await activate(user.address, 'verified-account').expect(403);
    expect(res.body.code).toBe('ATTESTATION_EXPIRED');
  });

  it('the twin is faithful: nobody but the source attester can attest its schema (the resolver refuses) or write the indexer (INDEXER_ROLE)', async () => {
    const user = chain.wallets[6];
    const stranger = chain.wallets[9];
    const uid = await attest({ kind: 'account', wallet: user.address });
    // The wallet itself, or anyone: EAS reverts, the schema's resolver refuses the attester.
    for (const signer of [user, stranger])
      await expect(
        attest({ kind: 'country', wallet: user.address, country: 'FR' }, signer),
      ).rejects.toThrow();
    // Nor can anyone but the resolver (INDEXER_ROLE) move the indexer's pointer.
    const indexer = new Contract(compliance.eas!.indexer!, ATTESTATION_INDEXER, stranger);
    await expect(indexer.index.staticCall(uid)).rejects.toMatchObject({
      revert: { name: 'AccessControlUnauthorizedAccount' },
    });
    expect(
      await indexer.getAttestationUid(user.address, compliance.attestationSources[0].schema),
    ).toBe(uid);
    const res = await activate(user.address, 'verified-account').expect(200);
    expect(res.body.source.uid).toBe(uid);
  });

  it('refuses an attestation of another schema: none of an accepted schema is found', async () => {
    const user = chain.wallets[7];
    const registry = new Contract(compliance.eas!.schemaRegistry, SCHEMA_REGISTRY, attester);
    await (await registry.register('bool somethingElse', ZeroAddress, true)).wait();
    const other = schemaUid('bool somethingElse', ZeroAddress, true);
    await attest({ kind: 'account', wallet: user.address, schema: other });
    const res = await activate(user.address).expect(403);
    expect(res.body.code).toBe('ATTESTATION_NOT_FOUND');
    expect(res.body.details.map((d: { reason: string }) => d.reason)).toEqual([
      'not_found',
      'not_found',
    ]);
  });

  it('refuses a source that is not accepted, and validates the body', async () => {
    const user = chain.wallets[8];
    const res = await activate(user.address, 'someone-else').expect(403);
    expect(res.body.code).toBe('ATTESTATION_SOURCE_NOT_ACCEPTED');
    await activate('0x1234').expect(400);
  });

  describe('with a compliance policy', () => {
    const setPolicy = (policy: object) =>
      request(t.server)
        .put('/api/v1/compliance/policy')
        .set('Authorization', `Bearer ${token}`)
        .send(policy);
    const evaluate = (walletAddress: string, policy?: object) =>
      request(t.server)
        .post('/api/v1/compliance/policy/evaluate')
        .set('Authorization', `Bearer ${token}`)
        .send({ walletAddress, ...(policy ? { policy } : {}) });
    afterAll(() =>
      setPolicy({ sources: { mode: 'any', names: [] }, countries: {}, minSessionSeconds: 0 }),
    );

    it('denying country XX refuses a wallet attested XX and accepts one attested YY; evaluate names the rule', async () => {
      const [xx, yy] = [chain.wallets[1], chain.wallets[0]];
      await attest({ kind: 'account', wallet: xx.address });
      await attest({ kind: 'country', wallet: xx.address, country: 'XX' });
      await attest({ kind: 'account', wallet: yy.address });
      await attest({ kind: 'country', wallet: yy.address, country: 'YY' });
      const put = await setPolicy({
        sources: { mode: 'any', names: ['verified-account'] },
        countries: { deny: ['xx'] },
        minSessionSeconds: 0,
      }).expect(200);
      expect(put.body).toMatchObject({
        countries: { deny: ['XX'] },
        updatedAt: expect.any(String),
      });

      const refused = await activate(xx.address, 'verified-account').expect(403);
      expect(refused.body).toMatchObject({ code: 'COMPLIANCE_POLICY_REFUSED', phase: 'preflight' });
      expect(refused.body.details).toContainEqual(
        expect.objectContaining({ rule: 'countries.deny', source: 'verified-country' }),
      );
      const dry = await evaluate(xx.address).expect(200);
      expect(dry.body).toMatchObject({
        allowed: false,
        decidingRule: 'countries.deny',
        source: 'verified-country',
      });
      expect(dry.body.sources).toContainEqual({
        name: 'verified-country',
        kind: 'country',
        ok: true,
        reason: 'ok',
        country: 'XX',
      });

      // Preflight shows the wallet's policy result once the account has a policy.
      const pre = await request(t.server)
        .get(`/api/v1/defi/preflight/${xx.address}`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(pre.body.policy).toMatchObject({
        allowed: false,
        decidingRule: 'countries.deny',
        source: 'verified-country',
      });

      await activate(yy.address, 'verified-account').expect(200);
      expect((await evaluate(yy.address).expect(200)).body).toMatchObject({
        allowed: true,
        decidingRule: 'sources.any',
      });

      // A draft changes nothing: allowing only FR refuses YY in the dry run, the policy stays.
      expect(
        (
          await evaluate(yy.address, {
            sources: { mode: 'any', names: [] },
            countries: { allow: ['FR'] },
            minSessionSeconds: 0,
          }).expect(200)
        ).body,
      ).toMatchObject({ allowed: false, decidingRule: 'countries.allow' });
      const kept = await request(t.server)
        .get('/api/v1/compliance/policy')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(kept.body.countries).toEqual({ deny: ['XX'], unknown: 'refuse' });

      const audit = await request(t.server)
        .get('/api/v1/audit-events')
        .query({ type: 'compliance.policy_updated' })
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(audit.body.items[0].data.to.countries).toEqual({ deny: ['XX'], unknown: 'refuse' });
    });

    it('minSessionSeconds refuses a session cut short by an attestation about to expire', async () => {
      const user = chain.wallets[8];
      await attest({ kind: 'account', wallet: user.address, expiresIn: 120 });
      await setPolicy({
        sources: { mode: 'any', names: [] },
        countries: {},
        minSessionSeconds: 3600,
      }).expect(200);
      const res = await activate(user.address).expect(403);
      expect(res.body.code).toBe('COMPLIANCE_POLICY_REFUSED');
      expect(res.body.details[0].rule).toBe('minSessionSeconds');
    });

    it('refuses an unknown source name in a policy', async () => {
      const res = await setPolicy({
        sources: { mode: 'all', names: ['nobody'] },
        countries: {},
        minSessionSeconds: 0,
      }).expect(400);
      expect(res.body.code).toBe('INVALID_PARAMS');
    });
  });
});
