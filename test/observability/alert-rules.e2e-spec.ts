/**
 * Issue 43 item 1: deploy/prometheus/alerts.yml loads in Prometheus' own checker and each paging
 * alert fires on its cause (promtool test rules, deploy/prometheus/alerts.test.yml). promtool
 * comes from Debian's `prometheus` package (apt-get install -y prometheus; .ci/run installs it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { Metrics } from '../../src/metrics/metrics.service';

const DIR = join(__dirname, '../../deploy/prometheus');

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

describe('deploy/prometheus/alerts.yml', () => {
  const rules = (
    load(readFileSync(join(DIR, 'alerts.yml'), 'utf8')) as { groups: Array<{ rules: Rule[] }> }
  ).groups.flatMap((group) => group.rules);

  it('pages on the eight conditions, each with its runbook in docs/operators/runbooks.md', () => {
    expect(rules.map((r) => [r.alert, r.annotations?.runbook_url])).toEqual([
      ['CgkHttpServerErrors', 'docs/operators/runbooks.md#runbook-http-errors'],
      ['CgkAttesterLowBalance', 'docs/operators/runbooks.md#runbook-attester-funds'],
      ['CgkWebhookBacklog', 'docs/operators/runbooks.md#runbook-webhook-backlog'],
      ['CgkChainHeadStale', 'docs/operators/runbooks.md#runbook-chain-head'],
      ['CgkRedisFailOpen', 'docs/operators/runbooks.md#runbook-redis-fail-open'],
      // Issue 58: owed revocations, screening freshness, a replica gone or no longer scraped.
      ['CgkRevocationsStuck', 'docs/operators/runbooks.md#runbook-revocations-stuck'],
      ['CgkScreeningStale', 'docs/operators/runbooks.md#runbook-screening-stale'],
      ['CgkTargetDown', 'docs/operators/runbooks.md#runbook-target-down'],
    ]);
    for (const rule of rules) {
      expect(rule.labels?.severity).toBe('page');
      expect(rule.for).toMatch(/^\d+m$/);
      expect(rule.expr).toMatch(/\bcgk_[a-z_]+|job="cgk"/);
    }
  });

  it('uses only metrics the service exports', async () => {
    const exported = new Set(await new Metrics().names());
    const used = rules.flatMap((r) =>
      [
        ...`${r.expr} ${r.annotations?.description ?? ''}`.matchAll(
          /\b(?:cgk|process|nodejs)_[a-z_]+/g,
        ),
      ].map((m) => m[0]),
    );
    expect(used).toContain('process_start_time_seconds');
    expect(used.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('loads in promtool (check rules)', () => {
    const out = execFileSync('promtool', ['check', 'rules', join(DIR, 'alerts.yml')], {
      encoding: 'utf8',
    });
    expect(out).toContain('SUCCESS: 8 rules found');
  });

  it('fires each alert on its cause and not before (promtool test rules)', () => {
    const run = spawnSync('promtool', ['test', 'rules', join(DIR, 'alerts.test.yml')], {
      encoding: 'utf8',
    });
    expect(run.stderr + run.stdout).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });
});
