/**
 * Production mode's SSRF rules at registration (issue 32): https only, and no name or literal
 * that resolves to loopback, private or link-local addresses.
 */
import request from 'supertest';
import { DEVNET_ISSUER_PUBLIC_KEY, formatIssuerPublicKey } from '../../src/compliance/zk';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { TEST_RECEIPT_SIGNING_KEY } from '../helpers/receipts';

describe('Webhooks in production mode', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({
      env: {
        APP_MODE: 'production',
        ...chain.env,
        JWT_SECRET: 'a-production-like-secret-of-at-least-32-characters',
        MFA_ENCRYPTION_KEY: 'a-production-mfa-key-of-at-least-32-characters',
        WEBHOOK_SECRETS_KEY: 'a-production-webhook-key-of-at-least-32-characters',
        RECEIPT_SIGNING_KEY: TEST_RECEIPT_SIGNING_KEY,
        SIWE_DOMAIN: 'localhost',
        ATTESTER_PRIVATE_KEY: chain.attesterKey,
        // The devnet's hook is v3: production names the key its authorizations are signed with.
        AUTHORIZER_PRIVATE_KEY: chain.attesterKey,
        ZK_ISSUER_PUBLIC_KEY: formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY),
      },
    });
    token = await login(t, await t.createAccount());
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  const register = (url: string) =>
    request(t.server)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url, events: ['session.activated'] });

  it.each([
    ['http://127.0.0.1:8080/hooks', 'https only'],
    ['https://10.0.0.1/hooks', '10.0.0.1, a private address'],
    ['https://localhost/hooks', 'a loopback address'],
    ['https://169.254.169.254/latest/meta-data', 'a metadata address'],
    ['https://[::ffff:127.0.0.1]/hooks', 'a loopback address'],
  ])('refuses %s (400 WEBHOOK_URL_NOT_ALLOWED)', async (url, why) => {
    const res = await register(url).expect(400);
    expect(res.body).toMatchObject({
      code: 'WEBHOOK_URL_NOT_ALLOWED',
      phase: 'validation',
      message: expect.stringContaining(why),
    });
    expect(res.body.details).toEqual([
      expect.objectContaining({ field: 'url', reason: 'WEBHOOK_URL_NOT_ALLOWED' }),
    ]);
  });

  it('registered nothing for the refused URLs', async () => {
    const list = await request(t.server)
      .get('/api/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(list.body.webhooks).toEqual([]);
  });
});
