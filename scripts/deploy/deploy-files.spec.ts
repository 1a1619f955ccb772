import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { complianceConfig } from '../../src/config/compliance.config';
import { checkHaproxyConfig } from '../../test/helpers/haproxy';
import { withOnlyEnv } from '../../test/helpers/test-env';

/**
 * The image and the balancer's file (docs/operators/going-live.md "The image"). The image is not built on this
 * machine: Debian's podman runs containers here (with runc, cgroupfs and no default ulimits) and
 * a stand-in for node:24-bookworm-slim can be made from Debian packages and the npm registry, but
 * no container registry is reachable to pull the real base, and inside a container `npm ci` cannot
 * reach the npm registry (the machine reaches it through a TLS-intercepting proxy whose CA only the
 * host's Node is given: SELF_SIGNED_CERT_IN_CHAIN). So the Dockerfile is linted here for what
 * matters, and its deps and runtime stages' recipe is run for real, without a container, by
 * test/process/image-runtime.process-spec.ts.
 */
const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(): { stage: string; keyword: string; args: string }[] {
  const joined = read('Dockerfile').replace(/\\\n\s*/g, ' ');
  const out: { stage: string; keyword: string; args: string }[] = [];
  let stage = '';
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m || line.trim().startsWith('#')) continue;
    if (m[1] === 'FROM') stage = /\bAS\s+(\S+)/i.exec(m[2])?.[1] ?? m[2];
    out.push({ stage, keyword: m[1], args: m[2].trim() });
  }
  return out;
}

describe('Dockerfile', () => {
  const all = instructions();
  const runtime = all.filter((i) => i.stage === 'runtime');

  it('builds in one stage, installs production dependencies in a second, runs from a third on Node 24 (bookworm-slim)', () => {
    const froms = all.filter((i) => i.keyword === 'FROM').map((i) => i.args);
    expect(froms).toEqual(['${NODE_IMAGE} AS build', 'build AS deps', '${NODE_IMAGE} AS runtime']);
    expect(read('Dockerfile')).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    expect(all.filter((i) => i.stage === 'build').map((i) => i.args)).toContain('npm run build');
    // The runtime stage takes dist/ from the build stage, not from the build context.
    expect(runtime).toContainEqual(
      expect.objectContaining({ keyword: 'COPY', args: '--from=build /app/dist/ dist/' }),
    );
  });

  it('runs with production dependencies only, compiled in the deps stage: no compiler and no build in the runtime stage', () => {
    const deps = all.filter((i) => i.stage === 'deps' && i.keyword === 'RUN').map((i) => i.args);
    expect(deps).toEqual([expect.stringMatching(/^rm -rf node_modules && npm ci --omit=dev\b/)]);
    expect(runtime).toContainEqual(
      expect.objectContaining({
        keyword: 'COPY',
        args: '--from=deps /app/node_modules/ node_modules/',
      }),
    );
    const runs = runtime.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /\bnpm\b|apt-get|g\+\+/.test(r))).toBe(false);
    // The compiler pkcs11js needs is in the build stage only (node-gyp, the machine's g++).
    expect(all.filter((i) => i.stage === 'build' && i.keyword === 'RUN')[0].args).toMatch(
      /apt-get install -y --no-install-recommends g\+\+ make python3/,
    );
  });

  it('runs as a non-root user, with a HEALTHCHECK on readiness and the server as its command', () => {
    const users = runtime.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users).toEqual(['node']);
    const health = runtime.find((i) => i.keyword === 'HEALTHCHECK');
    expect(health?.args).toMatch(/\/health\/(ready|live)/);
    expect(runtime.at(-1)).toMatchObject({ keyword: 'CMD' });
    expect(runtime.at(-1)!.args).toContain('dist/main.js');
  });

  it('copies no secret, env file or network file into the image', () => {
    const copied = all
      .filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')
      .map((i) => i.args);
    expect(all.filter((i) => i.keyword === 'ADD')).toEqual([]);
    for (const args of copied) {
      expect(args).not.toMatch(/\.env|secrets|live\/|\.key\b|^\. |network\.json/);
    }
    // Settings come from the environment at run time: none of the secrets is set in the file.
    const env = all.filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG').map((i) => i.args);
    expect(env.join(' ')).not.toMatch(/SECRET|PRIVATE_KEY|ENCRYPTION_KEY|NETWORK_FILE/);
  });

  it('.dockerignore keeps dependencies, data, deployments and secrets out of the context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    expect(ignored).toEqual(
      expect.arrayContaining(['node_modules', 'dist', 'data', 'live', 'secrets', '.env', '.env.*']),
    );
  });
});

describe('.gitignore', () => {
  it('covers the deployment keys under live/secrets/ (and keeps live/ network files visible)', () => {
    const check = (path: string) =>
      execFileSync('git', ['check-ignore', '--no-index', '-q', path], { cwd: ROOT, stdio: 'pipe' });
    expect(() => check('live/secrets/deployer.key')).not.toThrow();
    expect(() => check('live/secrets/attester.env')).not.toThrow();
    expect(() => check('live/base-sepolia.json')).toThrow(); // exit 1: not ignored
  });
});

describe('deploy/haproxy.cfg', () => {
  const cfg = read('deploy/haproxy.cfg');

  it('is valid and starts while no replica name resolves (resolvers, init-addr none)', () => {
    // As shipped: api1/api2 do not resolve on this machine.
    expect(checkHaproxyConfig()).toContain('Configuration file is valid');
    expect(cfg).toMatch(/^resolvers docker\n\s+nameserver \S+ 127\.0\.0\.11:53$/m);
    expect(cfg).toMatch(/^\s+default-server .*resolvers docker init-addr last,libc,none$/m);
  });

  it('waits for the server longer than the service waits for an activation to be mined', () => {
    const seconds = (name: string) => Number(new RegExp(`timeout ${name} (\\d+)s`).exec(cfg)?.[1]);
    const receiptMs = withOnlyEnv({}, () => complianceConfig().attesterReceiptTimeoutMs);
    expect(receiptMs).toBe(30_000);
    expect(seconds('server') * 1000).toBeGreaterThan(receiptMs);
    expect(cfg).toMatch(/TLS/);
  });
});

describe('docs/operators/runbooks.md', () => {
  const operators = read('docs/operators/runbooks.md');
  /** Anchor (what the alert rules link to) -> the metric its alert is on. */
  const RUNBOOKS: Record<string, [heading: string, metric: string]> = {
    'runbook-http-errors': ['Runbook: HTTP errors', 'cgk_http_requests_total'],
    'runbook-attester-funds': ['Runbook: attester funds', 'cgk_attester_balance_wei'],
    'runbook-webhook-backlog': ['Runbook: webhook backlog', 'cgk_webhook_oldest_due_age_seconds'],
    'runbook-chain-head': ['Runbook: chain head', 'cgk_chain_head_age_seconds'],
    'runbook-redis-fail-open': ['Runbook: Redis fail-open', 'cgk_redis_fail_open'],
    'runbook-revocations-stuck': [
      'Runbook: revocations stuck',
      'cgk_compliance_revocations_oldest_age_seconds',
    ],
    'runbook-screening-stale': [
      'Runbook: screening stale',
      'cgk_screening_last_success_timestamp_seconds',
    ],
    'runbook-target-down': ['Runbook: target down', 'up{job="cgk"}'],
  };

  it.each(Object.entries(RUNBOOKS))(
    '#%s names its alert, a first command and how recovery shows',
    (anchor, [heading, metric]) => {
      // GitHub's anchor of the heading: lower case, the colon dropped, spaces to hyphens.
      expect(heading.toLowerCase().replace(/:/g, '').replace(/ /g, '-')).toBe(anchor);
      const start = operators.indexOf(`\n## ${heading}\n`);
      expect(start).toBeGreaterThan(0);
      const body = operators.slice(start + 1).split('\n## ')[0];
      expect(body).toContain(metric);
      expect(body).toMatch(/\*\*Alert:\*\*[\s\S]*\*\*First:\*\*[\s\S]*\*\*Over when:\*\*/);
    },
  );
});
