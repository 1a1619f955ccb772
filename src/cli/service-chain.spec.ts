import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devnetEndpointPath, readDevnetEndpoint } from '../chain/devnet/devnet-endpoint';
import { serviceChain, serviceChainNotice } from './service-chain';

describe('serviceChain: the chain of the service the CLI belongs to', () => {
  let DATA_DIR: string;
  beforeEach(() => (DATA_DIR = mkdtempSync(join(tmpdir(), 'cgk-service-chain-'))));
  afterEach(() => rmSync(DATA_DIR, { recursive: true, force: true }));

  const record = (pid: number, rpcUrl = 'http://127.0.0.1:40123') =>
    writeFileSync(
      devnetEndpointPath(DATA_DIR),
      JSON.stringify({ rpcUrl, chainId: 84532, pid, startedAt: new Date().toISOString() }),
    );
  /** The pid of a process that has exited. */
  const gonePid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

  it("uses the running service's devnet recorded in DATA_DIR, and says so", () => {
    record(process.pid);
    const chain = serviceChain({ DATA_DIR });
    expect(chain).toEqual({
      rpcUrl: 'http://127.0.0.1:40123',
      source: `the embedded devnet of the service running as pid ${process.pid} (${devnetEndpointPath(DATA_DIR)})`,
    });
    expect(serviceChainNotice(chain)).toBe(`chain: http://127.0.0.1:40123 (${chain.source})\n`);
  });

  it('prefers --rpc, then CHAIN_RPC_URL, to the recorded devnet', () => {
    record(process.pid);
    expect(
      serviceChain({ DATA_DIR, CHAIN_RPC_URL: 'https://a.example/v2/k, https://b' }, 'http://x:1'),
    ).toEqual({ rpcUrl: 'http://x:1', source: '--rpc' });
    expect(serviceChain({ DATA_DIR, CHAIN_RPC_URL: 'https://a.example/v2/k, https://b' })).toEqual({
      rpcUrl: 'https://a.example/v2/k',
      source: 'CHAIN_RPC_URL',
    });
    // The notice never prints a provider's key in the path.
    expect(serviceChainNotice(serviceChain({ CHAIN_RPC_URL: 'https://a.example/v2/k' }))).toBe(
      'chain: https://a.example/… (CHAIN_RPC_URL)\n',
    );
  });

  it('ignores a record left by a service that is gone, an unreadable one, and falls back to DEVNET_PORT', () => {
    record(gonePid());
    expect(readDevnetEndpoint(DATA_DIR)).toBeUndefined();
    expect(serviceChain({ DATA_DIR, DEVNET_PORT: '9545' })).toEqual({
      rpcUrl: 'http://127.0.0.1:9545',
      source: `DEVNET_PORT: no running service recorded its devnet in ${devnetEndpointPath(DATA_DIR)}`,
    });
    writeFileSync(devnetEndpointPath(DATA_DIR), '{not json');
    expect(serviceChain({ DATA_DIR }).rpcUrl).toBe('http://127.0.0.1:8545');
  });
});
