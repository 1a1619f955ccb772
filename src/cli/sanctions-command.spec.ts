import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliUsageError } from './cli-usage';
import { parseSanctionsArgs } from './sanctions-command';

describe('sanctions add|remove|list: arguments', () => {
  const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

  // A DATA_DIR where no service recorded its devnet.
  const DATA_DIR = mkdtempSync(join(tmpdir(), 'cgk-sanctions-args-'));
  afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

  it('takes the address, and defaults to the embedded devnet RPC and the shipped devnet file', () => {
    expect(parseSanctionsArgs('add', [wallet.toLowerCase()], { DATA_DIR })).toEqual({
      verb: 'add',
      address: wallet,
      rpc: 'http://127.0.0.1:8545',
      rpcSource: expect.stringContaining('the embedded devnet default port'),
      networkFile: undefined,
    });
    expect(parseSanctionsArgs('list', [], { DATA_DIR, DEVNET_PORT: '9545' }).rpc).toBe(
      'http://127.0.0.1:9545',
    );
    expect(
      parseSanctionsArgs('remove', [wallet, '--rpc', 'http://127.0.0.1:1/'], {
        CHAIN_RPC_URL: 'http://a,http://b',
      }).rpc,
    ).toBe('http://127.0.0.1:1/');
    expect(parseSanctionsArgs('list', [], { CHAIN_RPC_URL: 'http://a,http://b' }).rpc).toBe(
      'http://a',
    );
  });

  it('refuses a missing or malformed address and unknown flags', () => {
    expect(() => parseSanctionsArgs('add', [], {})).toThrow(CliUsageError);
    expect(() => parseSanctionsArgs('add', ['0x1234'], {})).toThrow(/not an address/);
    expect(() => parseSanctionsArgs('list', ['--force'], {})).toThrow(/Unexpected argument/);
  });
});
