// @ts-check
import { html, useEffect, useState } from '../vendor/preact-htm.js';
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
/** Each chart is ONE GET /api/v1/usage/stats with `granularity`: its series gives every bar. */
const PERIODS = {
  day: { label: 'Last 24 hours, by hour', buckets: 24, step: HOUR, granularity: 'hour' },
  month: { label: 'Last 30 days, by day', buckets: 30, step: 24 * HOUR, granularity: 'day' },
};

/**
 * The period's whole UTC hours (or days) up to the current one, in one call: the totals, tables
 * and bars all come from the same response, so they agree, and a view costs one request.
 * @param {'day' | 'month'} period
 */
async function loadStats(period) {
  const { buckets, step, granularity } = PERIODS[period];
  const end = Math.ceil((Date.now() + 1) / step) * step;
  const from = new Date(end - buckets * step).toISOString();
  const to = new Date(end).toISOString();
  /** @type {UsageStats & {series?: {start: string, succeeded: number, failed: number}[]}} */
  const stats = await api(
    `/api/v1/usage/stats?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&granularity=${granularity}`,
  );
  const series = (stats.series ?? []).map((point) => ({
    label: bucketLabel(new Date(point.start), period),
    succeeded: point.succeeded,
    failed: point.failed,
  }));
  return { stats, series };
}

/** @param {Date} d @param {'day' | 'month'} period */
function bucketLabel(d, period) {
  return period === 'day'
    ? `${String(d.getHours()).padStart(2, '0')}:00`
    : d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

export function UsageSection() {
  const [period, setPeriod] = useState(/** @type {'day' | 'month'} */ ('day'));
  const [data, setData] = useState(/** @type {UsageData | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [loading, setLoading] = useState(false);

  async function load() {
    setLoading(true);
    try {
      const { stats, series } = await loadStats(period);
      // Key names for the by-key table (revoked keys are listed too).
      const { keys } = readKeyPage(await api('/api/v1/api-keys'));
      const keyNames = new Map(keys.map((k) => [k.id, k.name]));
      setData({ stats, series, keyNames });
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
    <p class="hint" data-testid="totals-note">
      ${`Requests counts every call to the API in the period shown (${PERIODS[period].label.toLowerCase().replace(/, by .*/, '')}, UTC). `}
      The monthly quota below counts the current calendar month (UTC) whatever period is shown, and
      the rate-limit window only the current minute, so their totals differ from this one.
    </p>
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
