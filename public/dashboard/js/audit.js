// @ts-check
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { dateTime } from './format.js';
import { ErrorMessage, Section } from './ui.js';

/**
 * The account's audit trail (GET /api/v1/audit-events): newest first, a page at a time, filtered
 * by event type and by day range (UTC days, both inclusive).
 *
 * @typedef {{id: string, at: string, type: string, actor: {type: string, id: string | null},
 *   target: {type: string, id: string} | null, ip: string | null, userAgent: string | null,
 *   requestId: string | null, data: Record<string, unknown>}} AuditEvent
 */

/** The audited event types (src/audit/audited-types.ts), in the order the server lists them. */
export const AUDIT_TYPES = [
  'auth.login_succeeded',
  'auth.login_failed',
  'auth.logout',
  'auth.refresh_reuse_detected',
  'auth.signup',
  'mfa.enabled',
  'mfa.disabled',
  'api_key.created',
  'api_key.updated',
  'api_key.revoked',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'account.ownership_transferred',
  'account.settings_changed',
  'wallet.bound',
  'wallet.rebound',
  'session.activated',
  'session.revoked',
  'credential.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'account.plan_changed',
];

const PAGE = 25;

/**
 * The query string of a filter: `from` at the start of its UTC day, `to` at the end of its own.
 * @param {{type: string, from: string, to: string}} filter @param {string | null} cursor
 */
export function auditQuery(filter, cursor) {
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (filter.type) params.set('type', filter.type);
  if (filter.from) params.set('from', `${filter.from}T00:00:00Z`);
  if (filter.to)
    params.set('to', new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000).toISOString());
  if (cursor) params.set('cursor', cursor);
  return `?${params}`;
}

/** @param {AuditEvent['actor']} actor */
function actorText(actor) {
  if (actor.type === 'operator') return 'operator (CLI)';
  if (actor.type === 'system') return 'service';
  const who = actor.type === 'api_key' ? 'key' : 'user';
  return actor.id ? `${who} ${actor.id.slice(0, 8)}` : `${who} (not signed in)`;
}

/** @param {Record<string, unknown>} data */
function dataText(data) {
  return Object.entries(data)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

export function AuditSection() {
  const [filter, setFilter] = useState({ type: '', from: '', to: '' });
  const [events, setEvents] = useState(/** @type {AuditEvent[] | null} */ (null));
  const [nextCursor, setNextCursor] = useState(/** @type {string | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [loading, setLoading] = useState(false);

  /** @param {typeof filter} current @param {string | null} cursor */
  async function load(current, cursor = null) {
    setLoading(true);
    try {
      const page = await api(`/api/v1/audit-events${auditQuery(current, cursor)}`);
      setEvents((previous) => (cursor ? [...(previous ?? []), ...page.items] : page.items));
      setNextCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => void load(filter), []);

  /** @param {SubmitEvent} event */
  function apply(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    const next = {
      type: String(form.get('type') ?? ''),
      from: String(form.get('from') ?? ''),
      to: String(form.get('to') ?? ''),
    };
    setFilter(next);
    void load(next);
  }

  return html`<${Section} id="audit" title="Audit log">
    <form class="row audit-filter" onSubmit=${apply} aria-label="Filter the audit log">
      <div class="field">
        <label for="audit-type">Event</label>
        <select id="audit-type" name="type">
          <option value="">All events</option>
          ${AUDIT_TYPES.map((type) => html`<option key=${type} value=${type}>${type}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="audit-from">From (UTC day)</label>
        <input id="audit-from" name="from" type="date" />
      </div>
      <div class="field">
        <label for="audit-to">To (UTC day)</label>
        <input id="audit-to" name="to" type="date" />
      </div>
      <button type="submit" disabled=${loading}>Apply</button>
    </form>
    <${ErrorMessage} error=${error} />
    ${
      events === null
        ? html`<p>Loading the audit log…</p>`
        : events.length === 0
          ? html`<p>No events match.</p>`
          : html`<${AuditTable} events=${events} />`
    }
    ${
      nextCursor &&
      html`<button type="button" disabled=${loading} onClick=${() => load(filter, nextCursor)}>
        Load older events
      </button>`
    }
  <//>`;
}

/**
 * One line per event: the details' first line, expandable to all of them (data, request id,
 * user agent), wrapped.
 * @param {{event: AuditEvent}} props
 */
function AuditDetails({ event }) {
  const text = dataText(event.data);
  if (!text && !event.requestId && !event.userAgent) return '—';
  return html`<details class="audit-details">
    <summary>${text || 'request'}</summary>
    <dl>
      ${
        text &&
        html`<dt>Data</dt>
          <dd>${text}</dd>`
      }
      ${
        event.requestId &&
        html`<dt>Request</dt>
          <dd><code>${event.requestId}</code></dd>`
      }
      ${
        event.userAgent &&
        html`<dt>Agent</dt>
          <dd>${event.userAgent}</dd>`
      }
    </dl>
  </details>`;
}

/** @param {{events: AuditEvent[]}} props */
function AuditTable({ events }) {
  return html`<div class="table-wrap stack" tabindex="0" role="region" aria-label="Audit events">
    <table class="audit">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">Actor</th>
          <th scope="col">Target</th>
          <th scope="col">IP</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        ${events.map(
          (e) =>
            html`<tr key=${e.id}>
              <td data-label="When" class="when">${dateTime(e.at)}</td>
              <td data-label="Event"><code>${e.type}</code></td>
              <td data-label="Actor" class="when">${actorText(e.actor)}</td>
              <td data-label="Target" class="when">
                ${e.target ? `${e.target.type} ${e.target.id.slice(0, 8)}` : '—'}
              </td>
              <td data-label="IP">${e.ip ?? '—'}</td>
              <td data-label="Details" class="details"><${AuditDetails} event=${e} /></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
