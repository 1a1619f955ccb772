import { MetricsServer } from '../../src/metrics/metrics-server';
import type { TestApp } from './app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, checked by matchers
type Json = Record<string, any>;

/** `name{a="1",b="2"}` -> value, labels in the order prom-client writes them. */
export type Samples = Map<string, number>;

export function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** The app's metrics listener (started with METRICS_PORT=0): scrape it, or read its JSON routes. */
export function metricsListener(t: TestApp) {
  const { port } = t.app.get(MetricsServer).address!;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    async scrape(): Promise<Samples> {
      const res = await fetch(`${base}/metrics`);
      if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
      return parseMetrics(await res.text());
    },
    async metric(series: string): Promise<number | undefined> {
      return (await this.scrape()).get(series);
    },
    /** GET /health/ready on this listener: always with the details. */
    async readiness(): Promise<{ status: number; body: Json }> {
      const res = await fetch(`${base}/health/ready`);
      return { status: res.status, body: (await res.json()) as Json };
    },
  };
}
