import { Wallet } from 'ethers';
import { ChainConnection } from '../../src/chain/chain-connection';
import { RegistryConnection } from '../../src/compliance/sessions/registry-connection';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { ComplianceDevnet, postActivateDemo, startComplianceDevnet } from '../helpers/compliance';

describe('Compliance sessions over the chain layer', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it('shares the chain layer provider and activates through it', async () => {
    expect(t.app.get(RegistryConnection).provider).toBe(t.app.get(ChainConnection).provider);
    const wallet = Wallet.createRandom().address;
    await postActivateDemo(t, await login(t, await t.createAccount()), wallet).expect(200);
    expect(await chain.isActive(wallet)).toBe(true);
  });
});
