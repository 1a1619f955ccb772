// @ts-check
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { BarChart } from './chart.js';
import { count, dateTime } from './format.js';
import { readKeyPage, readQuota } from './read.js';
import { ErrorMessage, Section } from './ui.js';

/**
 * @typedef {import('../../../clients/typescript/src/schema').components['schemas']} Schemas
 * @typedef {Schemas['UsageStatsResponse'] & {quota?: any, plan?: any}} UsageStats
 * @typedef {{stats: UsageStats, series: {label: string, succeeded: number, failed: number}[], keyNames: Map<string, string>}} UsageData
 */

const HOUR = 3600_000;
const PERIODS = {
  day: { label: 'Last 24 hours, by hour', buckets: 24, step: HOUR },
  month: { label: 'Last 30 days, by day', buckets: 30, step: 24 * HOUR },
};
/** Bucket requests in flight at once: the chart's calls share the account's rate limit. */
const PARALLEL = 6;
/** Usage is recorded within about a second; a bucket ended longer ago than this is final. */
const SETTLED_MS = 10_000;

/** @typedef {Map<string, UsageStats['totals']>} BucketCache */

/** @param {Date} from @param {Date} to @returns {Promise<UsageStats>} */
const stats = (from, to) =>
  api(
    `/api/v1/usage/stats?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
  );

/**
 * Every bucket is GET /api/v1/usage/stats over its own interval, so the chart shows exactly the
 * endpoint's numbers. Buckets end at the next whole hour (or day, UTC). Settled buckets are kept
 * (`cache`), so a refresh asks again only for the current one: the chart spends the account's
 * rate limit once per sign-in, not on every refresh.
 * @param {'day' | 'month'} period @param {BucketCache} cache
 */
async function loadSeries(period, cache) {
  const { buckets, step } = PERIODS[period];
  const end = Math.ceil(Date.now() / step) * step;
  const starts = Array.from({ length: buckets }, (_, i) => end - (buckets - i) * step);
  /** @type {{label: string, succeeded: number, failed: number}[]} */
  const series = [];
  for (let i = 0; i < starts.length; i += PARALLEL) {
    const batch = starts.slice(i, i + PARALLEL);
    const results = await Promise.all(
      batch.map(async (start) => {
        const key = `${start}/${step}`;
        const totals =
          cache.get(key) ?? (await stats(new Date(start), new Date(start + step))).totals;
        if (start + step < Date.now() - SETTLED_MS) cache.set(key, totals);
        return totals;
      }),
    );
    results.forEach((totals, j) =>
      series.push({
        label: bucketLabel(new Date(batch[j]), period),
        succeeded: totals.succeeded,
        failed: totals.failed,
      }),
    );
  }
  return { series, from: new Date(starts[0]), to: new Date(end) };
}

/** @param {Date} d @param {'day' | 'month'} period */
function bucketLabel(d, period) {
  return period === 'day'
    ? `${String(d.getHours()).padStart(2, '0')}:00`
    : d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}

export function UsageSection() {
  const [period, setPeriod] = useState(/** @type {'day' | 'month'} */ ('day'));
  const [data, setData] = useState(/** @type {UsageData | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [loading, setLoading] = useState(false);
  const cache = useRef(/** @type {BucketCache} */ (new Map()));

  async function load() {
    setLoading(true);
    try {
      const { series, from, to } = await loadSeries(period, cache.current);
      // Key names for the by-key table (revoked keys are listed too).
      const { keys } = readKeyPage(await api('/api/v1/api-keys'));
      const keyNames = new Map(keys.map((k) => [k.id, k.name]));
      setData({ stats: await stats(from, to), series, keyNames });
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => void load(), [period]);

  const refresh = html`<button type="button" onClick=${load} disabled=${loading}>
    ${loading ? 'Loading…' : 'Refresh'}
  </button>`;
  return html`<${Section} id="usage" title="Usage" actions=${refresh}>
    <div class="period" role="group" aria-label="Period">
      ${Object.entries(PERIODS).map(
        ([key, p]) =>
          html`<button
            type="button"
            key=${key}
            aria-pressed=${period === key}
            onClick=${() => setPeriod(/** @type {'day' | 'month'} */ (key))}
          >
            ${p.label}
          </button>`,
      )}
    </div>
    <${ErrorMessage} error=${error} />
    ${data ? html`<${UsageView} data=${data} period=${period} />` : html`<p>Loading usage…</p>`}
  <//>`;
}

/** @param {{data: UsageData, period: 'day' | 'month'}} props */
function UsageView({ data, period }) {
  const { stats: s, series, keyNames } = data;
  return html`
    <dl class="figures">
      <div>
        <dt>Requests</dt>
        <dd data-testid="total-requests">${count(s.totals.requests)}</dd>
      </div>
      <div>
        <dt>Succeeded</dt>
        <dd>${count(s.totals.succeeded)}</dd>
      </div>
      <div>
        <dt>Failed</dt>
        <dd>${count(s.totals.failed)}</dd>
      </div>
      <div>
        <dt>Rate-limited</dt>
        <dd>${count(s.totals.rateLimited)}</dd>
      </div>
    </dl>
    <h3>Requests over time</h3>
    <p class="legend">
      <span class="swatch ok"></span> succeeded <span class="swatch failed"></span> failed
      ${` · ${PERIODS[period].label.toLowerCase()}`}
    </p>
    <${BarChart} buckets=${series} title=${`Requests, ${PERIODS[period].label.toLowerCase()}`} />
    <div class="columns">
      <div>
        <h3>Current rate-limit window</h3>
        <p data-testid="rate-limit">
          ${count(s.rateLimit.remaining)} of ${count(s.rateLimit.limit)} requests left,
          ${` resets in ${s.rateLimit.resetInSeconds} s`}
        </p>
        <${Quota} stats=${s} />
        <h3>By code</h3>
        ${
          Object.keys(s.byCode).length === 0
            ? html`<p>No failed requests.</p>`
            : html`<ul class="plain">
                ${Object.entries(s.byCode).map(
                  ([code, n]) => html`<li key=${code}><code>${code}</code> ${count(n)}</li>`,
                )}
              </ul>`
        }
      </div>
      <div>
        <h3>By endpoint</h3>
        <${SimpleTable}
          label="Requests by endpoint"
          head=${['Endpoint', 'Requests', 'Failed', 'Avg ms']}
          rows=${s.byEndpoint.map((e) => [
            `${e.method} ${e.route}`,
            count(e.requests),
            count(e.failed),
            count(e.avgLatencyMs),
          ])}
        />
        <h3>By key</h3>
        <${SimpleTable}
          label="Requests by key"
          head=${['Key or user', 'Requests', 'Failed', 'Last request']}
          rows=${s.byKey.map((k) => [
            k.keyId ? `key “${keyNames.get(k.keyId) ?? k.keyId.slice(0, 8)}”` : 'dashboard login',
            count(k.requests),
            count(k.failed),
            dateTime(k.lastRequestAt),
          ])}
        />
      </div>
    </div>
    <details>
      <summary>Requests per ${period === 'day' ? 'hour' : 'day'} (table)</summary>
      <${SimpleTable}
        label="Requests over time"
        head=${['Period', 'Succeeded', 'Failed']}
        rows=${series.map((b) => [b.label, count(b.succeeded), count(b.failed)])}
      />
    </details>
  `;
}

/**
 * The monthly quota and plan, once GET /usage/stats carries them (issue 15).
 * @param {{stats: UsageStats}} props
 */
function Quota({ stats: s }) {
  const quota = readQuota(s);
  if (!quota) return null;
  return html`<div data-testid="quota">
    <h3>Monthly quota</h3>
    ${quota.plan && html`<p>Plan: ${quota.plan}</p>`}
    <p>
      ${
        quota.limit === null
          ? 'No monthly quota.'
          : `${quota.used === null ? '' : `${count(quota.used)} of `}${count(quota.limit)} requests this month${quota.remaining === null ? '' : ` (${count(quota.remaining)} left)`}`
      }
    </p>
  </div>`;
}

/** @param {{label: string, head: string[], rows: string[][]}} props */
function SimpleTable({ label, head, rows }) {
  if (rows.length === 0) return html`<p>No requests in this period.</p>`;
  return html`<div class="table-wrap stack" tabindex="0" role="region" aria-label=${label}>
    <table>
      <thead>
        <tr>
          ${head.map((h) => html`<th scope="col" key=${h}>${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row, i) =>
            html`<tr key=${i}>
              ${row.map((cell, j) => html`<td key=${j} data-label=${head[j]}>${cell}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
