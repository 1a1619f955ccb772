/**
 * Issue 52 item 1: nobody but a source's attester can change what the source says about a wallet.
 *
 * On the devnet's twin of Base (schemas guarded by a resolver that allows only the test
 * attester, an indexer only an INDEXER_ROLE may write) a wallet can neither attest its own country
 * nor move the pointer. And the service does not depend on that: with an indexer whose role a
 * hostile party holds, or sources whose schemas nobody guards (another network file), it still
 * finds the accepted attester's latest attestation (its own index of EAS Attested events), so a
 * deny rule cannot be lifted and a valid attestation cannot be shadowed; verify-network warns
 * about the unguarded schemas. A wallet whose country cannot be established is refused where the
 * policy lists countries, unless it says countries.unknown "allow".
 */
import { Contract, Wallet, ZeroAddress } from 'ethers';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ATTESTATION_INDEXER, SCHEMA_REGISTRY } from '../../src/chain/abi/eas';
import { INDEXER_ROLE } from '../../src/chain/devnet/devnet-eas';
import {
  issueTestAttestation,
  testAttesterKey,
  TestAttestation,
} from '../../src/chain/devnet/test-attester';
import { schemaUid } from '../../src/chain/encoding/attestations';
import { devnetNetworkFile } from '../../src/chain/network/network-definition';
import type { NetworkCompliance } from '../../src/chain/network/network.types';
import { verifyNetworkCommand } from '../../src/cli/verify-network-command';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';

describe('Attestation sources cannot be spoofed or shadowed (issue 52 item 1)', () => {
  let chain: ComplianceDevnet;
  let attester: Wallet;
  let guarded: TestApp;
  let open: TestApp;
  let dir: string;
  let openFile: string;
  /** The sources of the second network file: the same attester, schemas without a resolver. */
  let openCompliance: NetworkCompliance;

  const deny = {
    sources: { mode: 'any', names: [] },
    countries: { deny: ['KP'] },
    minSessionSeconds: 0,
  };

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    attester = new Wallet(testAttesterKey(), chain.provider);
    guarded = await createTestApp({ env: { ...chain.env, SCREENING_INTERVAL_MS: '0' } });

    // The same schemas registered without a resolver (as the devnet had them before this issue).
    const compliance = chain.deployment.compliance;
    const registry = new Contract(compliance.eas!.schemaRegistry, SCHEMA_REGISTRY, attester);
    const schemas = { account: 'bool verifiedAccount', country: 'string verifiedCountry' };
    for (const schema of Object.values(schemas))
      await (await registry.register(schema, ZeroAddress, true)).wait();
    openCompliance = {
      eas: compliance.eas,
      attestationSources: compliance.attestationSources.map((s) => ({
        ...s,
        schema: schemaUid(schemas[s.kind], ZeroAddress, true),
      })),
    };
    const file = devnetNetworkFile(chain.deployment);
    file.compliance = { ...file.compliance, ...openCompliance };
    dir = mkdtempSync(join(tmpdir(), 'cgk-spoofing-'));
    openFile = join(dir, 'open-sources.json');
    writeFileSync(openFile, JSON.stringify(file, null, 2));
    open = await createTestApp({
      env: {
        CHAIN_RPC_URL: chain.rpcUrl,
        CHAIN_NETWORK_FILE: openFile,
        SCREENING_INTERVAL_MS: '0',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await guarded?.close();
    await open?.close();
    await chain?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const tokenOf = async (t: TestApp, policy?: object) => {
    const token = await login(t, await t.createAccount());
    if (policy)
      await request(t.server)
        .put('/api/v1/compliance/policy')
        .set('Authorization', `Bearer ${token}`)
        .send(policy)
        .expect(200);
    return token;
  };
  const activate = (t: TestApp, token: string, walletAddress: string) =>
    request(t.server)
      .post('/api/v1/onboarding/activate-session-attestation')
      .set('Authorization', `Bearer ${token}`)
      .send({ walletAddress });
  const evaluate = (t: TestApp, token: string, walletAddress: string) =>
    request(t.server)
      .post('/api/v1/compliance/policy/evaluate')
      .set('Authorization', `Bearer ${token}`)
      .send({ walletAddress })
      .expect(200);
  const indexer = (signer: Wallet) =>
    new Contract(chain.deployment.compliance.eas!.indexer!, ATTESTATION_INDEXER, signer);
  /** A funded signer that is not the attester (development accounts 1..9). */
  const funded = (i: number) => chain.wallets[i];
  /** An indexer that is not faithful: its admin hands INDEXER_ROLE to someone hostile. */
  const letIndex = async (who: string) =>
    (await (await indexer(attester).grantRole(INDEXER_ROLE, who)).wait()) as unknown;
  const attestOn = (compliance: NetworkCompliance, a: TestAttestation, signer = attester) =>
    issueTestAttestation(signer, compliance, a);

  it('on the twin a wallet attested KP can neither attest another country nor move the pointer: the deny rule holds', async () => {
    const token = await tokenOf(guarded, deny);
    const wallet = funded(1);
    const compliance = chain.deployment.compliance;
    await attestOn(compliance, { kind: 'account', wallet: wallet.address });
    const kp = await attestOn(compliance, {
      kind: 'country',
      wallet: wallet.address,
      country: 'KP',
    });
    await expect(
      attestOn(compliance, { kind: 'country', wallet: wallet.address, country: 'FR' }, wallet),
    ).rejects.toThrow();
    await expect(indexer(wallet).index.staticCall(kp)).rejects.toMatchObject({
      revert: { name: 'AccessControlUnauthorizedAccount' },
    });
    const refused = await activate(guarded, token, wallet.address).expect(403);
    expect(refused.body.details).toContainEqual(
      expect.objectContaining({ rule: 'countries.deny', source: 'verified-country' }),
    );
  });

  it("an indexer role in hostile hands points back to the attester's older FR attestation: the service reads the latest, KP, and refuses", async () => {
    const token = await tokenOf(guarded, deny);
    const wallet = funded(2);
    const hostile = funded(3);
    const compliance = chain.deployment.compliance;
    await attestOn(compliance, { kind: 'account', wallet: wallet.address });
    const fr = await attestOn(compliance, {
      kind: 'country',
      wallet: wallet.address,
      country: 'FR',
    });
    await attestOn(compliance, { kind: 'country', wallet: wallet.address, country: 'KP' });
    await letIndex(hostile.address);
    await (await indexer(hostile).index(fr)).wait();
    expect(
      await indexer(hostile).getAttestationUid(
        wallet.address,
        compliance.attestationSources[1].schema,
      ),
    ).toBe(fr);

    const refused = await activate(guarded, token, wallet.address).expect(403);
    expect(refused.body).toMatchObject({ code: 'COMPLIANCE_POLICY_REFUSED' });
    expect(refused.body.details).toContainEqual(
      expect.objectContaining({ rule: 'countries.deny' }),
    );
    const dry = await evaluate(guarded, token, wallet.address);
    expect(dry.body.sources).toContainEqual(
      expect.objectContaining({ name: 'verified-country', country: 'KP' }),
    );
  });

  it('sources nobody guards: a wallet attests FR for itself and indexes it; the service still finds the attester KP and refuses (countries.deny)', async () => {
    const token = await tokenOf(open, deny);
    const wallet = funded(4);
    await attestOn(openCompliance, { kind: 'account', wallet: wallet.address });
    await attestOn(openCompliance, { kind: 'country', wallet: wallet.address, country: 'KP' });
    // The wallet's own "Verified Country": the schema has no resolver, EAS takes it.
    const own = await attestOn(
      openCompliance,
      { kind: 'country', wallet: wallet.address, country: 'FR' },
      wallet,
    );
    await letIndex(wallet.address);
    await (await indexer(wallet).index(own)).wait();

    const refused = await activate(open, token, wallet.address).expect(403);
    expect(refused.body.code).toBe('COMPLIANCE_POLICY_REFUSED');
    expect(refused.body.details).toContainEqual(
      expect.objectContaining({ rule: 'countries.deny', source: 'verified-country' }),
    );
    expect((await evaluate(open, token, wallet.address)).body).toMatchObject({
      allowed: false,
      decidingRule: 'countries.deny',
    });
  });

  it("sources nobody guards: a third party shadows a wallet's valid attestation; the wallet's activation still uses the attester's", async () => {
    const token = await tokenOf(open);
    const wallet = funded(5);
    const third = funded(6);
    const valid = await attestOn(openCompliance, { kind: 'account', wallet: wallet.address });
    const shadow = await attestOn(
      openCompliance,
      { kind: 'account', wallet: wallet.address },
      third,
    );
    await letIndex(third.address);
    await (await indexer(third).index(shadow)).wait();

    const opened = await activate(open, token, wallet.address).expect(200);
    expect(opened.body.source).toEqual({
      kind: 'attestation',
      name: 'verified-account',
      uid: valid,
    });
  });

  it('verify-network warns about each source whose schema nobody guards (exit 0), and not on the twin', async () => {
    const warned = await verifyNetworkCommand(
      ['--rpc', chain.rpcUrl, '--network-file', openFile],
      {},
    );
    expect(warned.exitCode).toBe(0);
    const warnings = warned.output.split('\n').filter((l) => l.startsWith('WARNING: '));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^WARNING: compliance\.attestationSources\[0\]\.schema: verified-account: the schema is not guarded/,
      ),
      expect.stringMatching(
        /^WARNING: compliance\.attestationSources\[1\]\.schema: verified-country: the schema is not guarded/,
      ),
    ]);
    const twin = join(dir, 'twin.json');
    writeFileSync(twin, JSON.stringify(devnetNetworkFile(chain.deployment)));
    const clean = await verifyNetworkCommand(['--rpc', chain.rpcUrl, '--network-file', twin], {});
    expect(clean.exitCode).toBe(0);
    expect(clean.output).not.toContain('WARNING');
  });

  it('a wallet whose country no source establishes is refused where the policy denies a country (countries.unknown), unless unknown is "allow"', async () => {
    const wallet = funded(7);
    await attestOn(chain.deployment.compliance, { kind: 'account', wallet: wallet.address });
    const strict = await tokenOf(guarded, deny);
    const refused = await activate(guarded, strict, wallet.address).expect(403);
    expect(refused.body.details).toContainEqual(
      expect.objectContaining({ rule: 'countries.unknown', source: 'verified-country' }),
    );
    const lenient = await tokenOf(guarded, {
      ...deny,
      countries: { deny: ['KP'], unknown: 'allow' },
    });
    await activate(guarded, lenient, wallet.address).expect(200);
  });
});
