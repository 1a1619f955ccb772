/**
 * deploy/grafana/cgk-dashboard.json (issue 58 item 5) loads as a Grafana dashboard would: valid
 * JSON of the dashboard model, panels laid out on the 24-column grid without overlapping, every
 * query on the Prometheus data source variable, every PromQL expression parsed by Prometheus' own
 * parser (promtool check rules, the expressions as recording rules), every metric one the service
 * exports, every shipped cgk_ metric shown, and each SLO of docs/operators/observability.md a panel.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metrics } from '../../src/metrics/metrics.service';

const ROOT = join(__dirname, '..', '..');

interface Target {
  refId: string;
  expr: string;
  datasource: { type: string; uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: Target[];
  datasource?: { type: string; uid: string };
}

const dashboard = JSON.parse(
  readFileSync(join(ROOT, 'deploy/grafana/cgk-dashboard.json'), 'utf8'),
) as {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query: unknown }> };
};
const panels = dashboard.panels.filter((p) => p.type !== 'row');
const targets = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p, target: t })));
/** The expression as Prometheus receives it, Grafana's variables filled in. */
const promql = (expr: string) =>
  expr.replace(/\$__rate_interval/g, '5m').replace(/\$job\b/g, 'cgk');

describe('deploy/grafana/cgk-dashboard.json', () => {
  it('is a dashboard: identified, with unique panel ids on the 24-column grid, none overlapping', () => {
    expect(dashboard).toMatchObject({ uid: 'cgk-service', title: expect.any(String) });
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const panel of dashboard.panels) {
      const { x, y, w, h } = panel.gridPos;
      expect(x + w).toBeLessThanOrEqual(24);
      for (let row = y; row < y + h; row++)
        for (let column = x; column < x + w; column++) {
          const cell = `${row}:${column}`;
          expect({ panel: panel.title, cell, taken: cells.has(cell) }).toEqual({
            panel: panel.title,
            cell,
            taken: false,
          });
          cells.add(cell);
        }
    }
  });

  it('queries the Prometheus data source variable, filtered by the job variable', () => {
    expect(dashboard.templating.list.map((v) => [v.name, v.type])).toEqual([
      ['datasource', 'datasource'],
      ['job', 'query'],
    ]);
    expect(targets.length).toBeGreaterThan(20);
    for (const { panel, target } of targets) {
      expect({ panel: panel.title, datasource: target.datasource }).toEqual({
        panel: panel.title,
        datasource: { type: 'prometheus', uid: '${datasource}' },
      });
      expect(target.expr).toMatch(/job=~"\$job"/);
    }
  });

  it("parses every expression with Prometheus' own parser (promtool)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'cgk-dashboard-'));
    try {
      const rules = targets
        .map(
          ({ panel, target }) =>
            `      - record: cgk:panel_${panel.id}_${target.refId}\n        expr: ${JSON.stringify(promql(target.expr))}`,
        )
        .join('\n');
      writeFileSync(join(dir, 'panels.yml'), `groups:\n  - name: panels\n    rules:\n${rules}\n`);
      const out = execFileSync('promtool', ['check', 'rules', join(dir, 'panels.yml')], {
        encoding: 'utf8',
      });
      expect(out).toContain(`SUCCESS: ${targets.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows only metrics the service exports, and every cgk_ metric it exports', async () => {
    const exported = new Set([...(await new Metrics().names()), 'up']);
    const used = new Set(
      targets.flatMap(({ target }) =>
        [...promql(target.expr).matchAll(/\b([a-z_][a-z0-9_]*)(?=\{|\[)/g)]
          .map((m) => m[1])
          .filter((name) => !['rate', 'increase', 'sum', 'max', 'min'].includes(name))
          .map((name) => name.replace(/_(bucket|sum|count)$/, '')),
      ),
    );
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
    expect([...exported].filter((name) => name.startsWith('cgk_') && !used.has(name))).toEqual([]);
  });

  it('has a panel for each SLO of docs/operators/observability.md', () => {
    const titles = panels.map((p) => p.title);
    for (const slo of [
      'Build latency',
      'Activation success',
      'Screening freshness',
      'Webhook delivery',
    ])
      expect(titles).toContainEqual(expect.stringContaining(slo));
  });
});
