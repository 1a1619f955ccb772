import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPort } from './ports';
import { pollUntil } from './wait';

const HAPROXY = '/usr/sbin/haproxy';
/** The configuration the operators' docs show (docs/operators/running-and-scaling.md "Replicas"). */
export const HAPROXY_CFG = join(__dirname, '..', '..', 'deploy', 'haproxy.cfg');

/**
 * `haproxy -c` on deploy/haproxy.cfg with `edit` applied (the stats socket always moved to a temp
 * dir); returns HAProxy's output, throws when it finds the file invalid.
 */
export function checkHaproxyConfig(edit: (cfg: string) => string = (cfg) => cfg): string {
  const dir = mkdtempSync(join(tmpdir(), 'cgk-haproxy-check-'));
  try {
    const cfg = edit(readFileSync(HAPROXY_CFG, 'utf8')).replace(
      /stats socket \S+/,
      `stats socket ${join(dir, 'admin.sock')}`,
    );
    writeFileSync(join(dir, 'haproxy.cfg'), cfg);
    return execFileSync(HAPROXY, ['-c', '-f', join(dir, 'haproxy.cfg')], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface HaproxyServerStat {
  name: string;
  /** UP, DOWN, "UP 1/2" (going down), "DOWN 1/3" (coming up), MAINT, ... */
  status: string;
  /** Failed health checks since start. */
  checkFailures: number;
  /** Times the server went from UP to DOWN. */
  downTransitions: number;
  /** The last check's result, e.g. L7OK, L7STS (bad status), L4TOUT. */
  checkStatus: string;
}

export interface Haproxy {
  port: number;
  url: string;
  stats(): Promise<HaproxyServerStat[]>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs Debian's HAProxy with deploy/haproxy.cfg as the docs show it, replacing only what a test
 * must: the bind address (a free loopback port), the stats socket (a temp dir) and the server
 * lines (the given loopback ports). Resolves once every server is UP. HAProxy missing is an
 * error, not a skip: CI installs it (.ci/run).
 */
export async function startHaproxy(serverPorts: number[]): Promise<Haproxy> {
  if (!existsSync(HAPROXY))
    throw new Error(
      `${HAPROXY} is missing: the replicas test needs Debian's HAProxy (apt-get install -y haproxy; .ci/run installs it)`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'cgk-haproxy-'));
  const socket = join(dir, 'admin.sock');
  const port = await closedPort();
  const template = readFileSync(HAPROXY_CFG, 'utf8');
  const servers = serverPorts.map((p, i) => `  server api${i + 1} 127.0.0.1:${p} check`);
  const cfg = replaceOnce(
    replaceOnce(
      replaceOnce(template, /^\s*stats socket \S+/m, `  stats socket ${socket}`),
      /^\s*bind :8080$/m,
      `  bind 127.0.0.1:${port}`,
    ),
    /(^\s*server api\d+ .*\n?)+/m,
    `${servers.join('\n')}\n`,
  );
  const cfgFile = join(dir, 'haproxy.cfg');
  writeFileSync(cfgFile, cfg);

  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', cfgFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => (output += '\n[haproxy exited]'));

  const stats = () => showStat(socket);
  await pollUntil(
    `HAProxy to mark ${serverPorts.length} servers UP`,
    () => stats().catch(() => [] as HaproxyServerStat[]),
    (list) => list.length === serverPorts.length && list.every((s) => s.status === 'UP'),
    { timeoutMs: 20_000, intervalMs: 100 },
  ).catch((err: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${output}`);
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stats,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function replaceOnce(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`${HAPROXY_CFG} no longer matches ${pattern}`);
  return text.replace(pattern, replacement);
}

/** `show stat` on the admin socket: the backend's servers, from HAProxy's CSV. */
async function showStat(socketPath: string): Promise<HaproxyServerStat[]> {
  const csv = await new Promise<string>((resolve, reject) => {
    let text = '';
    const socket = connect(socketPath, () => socket.write('show stat\n'));
    socket.on('data', (c: Buffer) => (text += c.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const [header, ...lines] = csv.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const col = (name: string) => columns.indexOf(name);
  return lines
    .map((line) => line.split(','))
    .filter((f) => f[col('pxname')] === 'replicas' && !['BACKEND', 'FRONTEND'].includes(f[1]))
    .map((f) => ({
      name: f[col('svname')],
      status: f[col('status')],
      checkFailures: Number(f[col('chkfail')]),
      downTransitions: Number(f[col('chkdown')]),
      checkStatus: f[col('check_status')],
    }));
}
