/**
 * Issue 58 item 2: the attester's key in an HSM. SoftHSM2 (Debian's softhsm2) generates a
 * secp256k1 key pair (`attester keygen`: private, sensitive, never extractable); the registry's
 * owner allows its address and funds it; the service starts with ATTESTER_SIGNER=pkcs11 and no
 * ATTESTER_PRIVATE_KEY, activates a session and revokes it, every transaction signed by the
 * token: the chain names the token's address as their sender.
 */
import { Contract, parseEther, toQuantity } from 'ethers';
import request from 'supertest';
import { COMPLIANCE_REGISTRY } from '../../src/chain/abi/compliance-registry';
import { attesterAddressCommand, attesterKeygenCommand } from '../../src/cli/attester-key-commands';
import { AttesterService } from '../../src/compliance/sessions/attester.service';
import { ComplianceConfig } from '../../src/config/compliance.config';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { postActivateDemo } from '../helpers/compliance';
import { DefiDevnet, startDefiDevnet } from '../helpers/defi';
import { devnetRpc } from '../helpers/devnet-mining';
import { createSoftHsmToken, SoftHsmToken } from '../helpers/softhsm';

describe('The attester key in a PKCS#11 token (SoftHSM2)', () => {
  let chain: DefiDevnet;
  let hsm: SoftHsmToken;
  let t: TestApp;
  let token: string;
  let pkcs11: Record<string, string>;
  let attester: string;
  let registry: Contract;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    hsm = createSoftHsmToken('e2e-attester');
    pkcs11 = { ATTESTER_SIGNER: 'pkcs11', ...hsm.env, PKCS11_KEY_LABEL: 'attester' };
    registry = new Contract(
      chain.deployment.contracts.complianceRegistry,
      COMPLIANCE_REGISTRY,
      chain.wallets[0],
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    hsm?.remove();
    await chain?.close();
  });

  it('the token generates the key, non-extractable; attester address names it', async () => {
    const generated = JSON.parse((await attesterKeygenCommand(['--json'], pkcs11)).output);
    expect(generated).toMatchObject({
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      token: hsm.env.PKCS11_TOKEN_LABEL,
      label: 'attester',
      sensitive: true,
      extractable: false,
    });
    attester = generated.address;
    const shown = JSON.parse((await attesterAddressCommand(['--json'], pkcs11)).output);
    expect(shown).toEqual({
      primary: { address: attester, signer: `pkcs11:${hsm.env.PKCS11_TOKEN_LABEL}/attester` },
      defaulted: false,
    });
    expect((await attesterAddressCommand([], pkcs11)).output).toBe(`${attester}\n`);
    // A second key under the same label is refused, and a key in the environment beside the token.
    await expect(attesterKeygenCommand([], pkcs11)).rejects.toThrow(/already has a key labelled/);
    await expect(
      attesterAddressCommand([], { ...pkcs11, ATTESTER_PRIVATE_KEY: `0x${'12'.repeat(32)}` }),
    ).rejects.toThrow(/ATTESTER_PRIVATE_KEY must be unset with ATTESTER_SIGNER=pkcs11/);
  });

  it('activates and revokes a session with no ATTESTER_PRIVATE_KEY: the token signs both', async () => {
    // The registry's owner allows the token's address; the operator funds it.
    await (await registry.setAttester(attester, true)).wait();
    await devnetRpc(chain.rpcUrl, 'hardhat_setBalance', [attester, toQuantity(parseEther('1'))]);
    t = await createTestApp({
      env: { CHAIN_RPC_URL: chain.rpcUrl, ...pkcs11, ATTESTER_PRIVATE_KEY: undefined },
    });
    expect(t.app.get(ComplianceConfig).attesterPrivateKey).toBeUndefined();
    const service = t.app.get(AttesterService);
    expect(service.address).toBe(attester);
    token = await login(t, await t.createAccount());

    const user = chain.wallets[6].address;
    const activated = await postActivateDemo(t, token, user).expect(200);
    const activation = await chain.provider.getTransaction(activated.body.txHash);
    expect(activation!.from).toBe(attester);
    expect(await registry.isActive(user)).toBe(true);

    const revoked = await service.revoke(user, 'operator');
    expect((await chain.provider.getTransaction(revoked.txHash))!.from).toBe(attester);
    expect(revoked.from).toBe(attester);
    expect(await registry.isActive(user)).toBe(false);

    // Readiness names what signs (never key material).
    const ready = await request(t.server).get('/health/ready').expect(200);
    expect(ready.body.details.attester).toMatchObject({
      status: 'up',
      address: attester,
      signer: `pkcs11:${hsm.env.PKCS11_TOKEN_LABEL}/attester`,
      canPay: true,
    });
  });
});
