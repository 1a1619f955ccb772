/**
 * Where the running service's embedded devnet listens, for the operator CLI run beside it (issue
 * 53 item 5): the service writes DATA_DIR/devnet.json once its devnet is up (DEVNET_PORT may be 0,
 * an ephemeral port, or taken by another service's devnet) and removes it when it exits; the CLI,
 * run with the same DATA_DIR, reads it. The file names the service's pid: a file left by a
 * service that is gone is ignored.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEVNET_ENDPOINT_FILE = 'devnet.json';

export interface DevnetEndpoint {
  rpcUrl: string;
  chainId: number;
  /** The service process that runs the devnet. */
  pid: number;
  startedAt: string;
}

export function devnetEndpointPath(dataDir: string): string {
  return join(dataDir, DEVNET_ENDPOINT_FILE);
}

/** Records the devnet of this process, and removes the record when the process exits. */
export function recordDevnetEndpoint(
  dataDir: string,
  devnet: { rpcUrl: string; chainId: number },
): void {
  const path = devnetEndpointPath(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const record: DevnetEndpoint = {
    ...devnet,
    pid: process.pid,
    startedAt: new Date().toISOString(),
  };
  writeFileSync(`${path}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  process.once('exit', () => {
    if (readDevnetEndpoint(dataDir)?.pid === process.pid) rmSync(path, { force: true });
  });
}

/** The record of a running service's devnet in dataDir, or undefined (none, unreadable, or its service is gone). */
export function readDevnetEndpoint(dataDir: string): DevnetEndpoint | undefined {
  let record: DevnetEndpoint;
  try {
    record = JSON.parse(readFileSync(devnetEndpointPath(dataDir), 'utf8')) as DevnetEndpoint;
  } catch {
    return undefined;
  }
  if (typeof record?.rpcUrl !== 'string' || !Number.isInteger(record.pid)) return undefined;
  return processAlive(record.pid) ? record : undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
