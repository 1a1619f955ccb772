import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliUsageError } from './cli-usage';
import { parseDeployArgs, readDeployerKey } from './deploy-command';

const KEY = `0x${'ab'.repeat(32)}`;
const BASE = [
  '--rpc',
  'http://127.0.0.1:8545',
  '--network-file',
  'f.json',
  '--deployer-key-file',
  'k',
];

describe('deploy command', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'deploy-command-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('parses the flags', () => {
    const args = parseDeployArgs([
      ...BASE,
      '--attester',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '--token',
      '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      '--initial-price',
      '2999.5',
      '--seed-liquidity',
      '--json',
    ]);
    expect(args).toMatchObject({
      rpc: 'http://127.0.0.1:8545',
      attester: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      token: { kind: 'existing', address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
      initialPrice: '2999.5',
      seed: true,
      json: true,
    });
    expect(args.networkFile).toMatch(/\/f\.json$/);
    expect(parseDeployArgs([...BASE, '--test-token']).token).toEqual({ kind: 'test' });
    expect(parseDeployArgs(BASE)).toMatchObject({ token: undefined, seed: false, json: false });
  });

  it.each([
    [['--rpc', 'http://x'], /--network-file is required/],
    [
      [...BASE, '--test-token', '--token', '0x036CbD53842c5426634e7929541eC2318f3dCF7e'],
      /exclude each other/,
    ],
    [[...BASE, '--attester', 'alice'], /--attester must be an address/],
    [[...BASE, '--initial-price', '-3'], /--initial-price must be a positive decimal/],
    [[...BASE, '--seed-weth', '1'], /goes with --seed-liquidity/],
    [[...BASE, '--deployer-key', KEY], /Unexpected argument: --deployer-key/],
    [['--rpc', 'ws://x', '--network-file', 'f', '--deployer-key-file', 'k'], /http\(s\) URL/],
  ])('refuses %j', (args, message) => {
    expect(() => parseDeployArgs(args)).toThrow(CliUsageError);
    expect(() => parseDeployArgs(args)).toThrow(message);
  });

  it('reads a trimmed key and never puts the key in a message', () => {
    const good = join(dir, 'good');
    writeFileSync(good, `  ${KEY}\n`, { mode: 0o600 });
    const { wallet, warnings } = readDeployerKey(good);
    expect(wallet.privateKey).toBe(KEY);
    expect(warnings).toEqual([]);

    const open = join(dir, 'open');
    writeFileSync(open, KEY, { mode: 0o644 });
    expect(readDeployerKey(open).warnings).toEqual([
      expect.stringMatching(/readable by other users .* chmod 600/),
    ]);

    const bad = join(dir, 'bad');
    writeFileSync(bad, `${KEY}ff`, { mode: 0o600 });
    const error = (() => {
      try {
        readDeployerKey(bad);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/must hold one private key/);
    expect(error?.message).not.toContain('abab');
    expect(() => readDeployerKey(join(dir, 'missing'))).toThrow(
      /cannot read the deployer key file .*missing \(ENOENT\)/,
    );
  });
});
