/**
 * Issue 43 item 4: an attester with 0 ETH is reported before activations fail: by `verify-network`
 * (a warning, exit code unchanged), by the start (an attester.balance.low line before the app
 * serves), and `npm run cli -- attester fund` funds it from another key.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devnetPrivateKeys } from '../../src/chain/devnet/devnet';
import { devnetNetworkFile } from '../../src/chain/network/network-definition';
import { attesterFundCommand } from '../../src/cli/attester-fund-command';
import { verifyNetworkCommand } from '../../src/cli/verify-network-command';
import { createTestApp } from '../helpers/app';
import { captureStdout } from '../helpers/capture-stdout';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { devnetRpc } from '../helpers/devnet-mining';

describe('The attester out of funds', () => {
  let chain: DevnetHandle;
  let dir: string;
  let networkFile: string;
  let funderKeyFile: string;
  let attester: string;
  const [attesterKey, funderKey] = devnetPrivateKeys(2);

  beforeAll(async () => {
    chain = await acquireDevnet();
    attester = chain.wallets[0].address;
    dir = mkdtempSync(join(tmpdir(), 'cgk-attester-funds-'));
    networkFile = join(dir, 'devnet.json');
    writeFileSync(networkFile, JSON.stringify(devnetNetworkFile(chain.deployment)));
    funderKeyFile = join(dir, 'funder.key');
    writeFileSync(funderKeyFile, `${funderKey}\n`);
    chmodSync(funderKeyFile, 0o600);
    await devnetRpc(chain.rpcUrl, 'hardhat_setBalance', [attester, '0x0']);
  }, 120_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await chain?.release();
  });

  const verify = (json = false) =>
    verifyNetworkCommand(
      ['--rpc', chain.rpcUrl, '--network-file', networkFile, ...(json ? ['--json'] : [])],
      { ATTESTER_PRIVATE_KEY: attesterKey },
    );

  it('verify-network warns (exit 0: the file is right), naming the fund command', async () => {
    const run = await verify();
    expect(run.exitCode).toBe(0);
    expect(run.output).toMatch(/^OK: /);
    expect(run.output).toContain(
      `WARNING: the attester ${attester} holds 0.0 ETH, below ATTESTER_LOW_BALANCE_ETH (0.01)`,
    );
    expect(run.output).toContain('npm run cli -- attester fund --rpc');
    const json = JSON.parse((await verify(true)).output);
    expect(json.attesterFunds).toEqual({ balanceEth: '0.0', thresholdEth: '0.01', low: true });
  });

  it('the start logs attester.balance.low before the app serves', async () => {
    const stdout = captureStdout();
    try {
      const t = await createTestApp({
        env: {
          ...chain.env,
          LOG_LEVEL: 'warn',
          LOG_FORMAT: 'json',
          ATTESTER_BALANCE_CHECK_MS: '0',
        },
      });
      // createTestApp resolves after the bootstrap hooks: the start's check has run by now.
      await t.close();
    } finally {
      stdout.restore();
    }
    const low = stdout
      .text()
      .split('\n')
      .filter((line) => line.includes('"attester.balance.low"'))
      .map((line) => JSON.parse(line));
    expect(low).toEqual([
      expect.objectContaining({
        level: 40,
        address: attester,
        balanceEth: '0.0',
        thresholdEth: '0.01',
      }),
    ]);
  });

  it('attester fund sends ETH from another key to the attester; verify-network then stays quiet', async () => {
    const run = await attesterFundCommand(
      ['--rpc', chain.rpcUrl, '--from-key-file', funderKeyFile, '--amount-eth', '0.5', '--json'],
      { ATTESTER_PRIVATE_KEY: attesterKey },
    );
    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.output);
    expect(result).toMatchObject({ to: attester, amountEth: '0.5', balanceEth: '0.5' });
    expect(await chain.provider.getBalance(attester)).toBe(500_000_000_000_000_000n);
    const after = await verify();
    expect(after.exitCode).toBe(0);
    expect(after.output).not.toContain('WARNING');
  });
});
