// @ts-check
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { ErrorMessage } from './ui.js';

/**
 * The account's compliance policy (GET/PUT /api/v1/compliance/policy): which sources open a
 * session, which countries are allowed or denied, the shortest session worth opening. Owners and
 * admins change it; other members read it.
 */

/** @param {string} text @returns {string[]} */
const list = (text) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** @param {{role: string | null}} props */
export function PolicyPanel({ role }) {
  const [policy, setPolicy] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [notice, setNotice] = useState('');
  const canEdit = role === 'owner' || role === 'admin';

  async function load() {
    try {
      setPolicy(await api('/api/v1/compliance/policy'));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => void load(), []);

  /** @param {SubmitEvent} event */
  async function save(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    const allow = list(String(form.get('allow')));
    const deny = list(String(form.get('deny')));
    const body = {
      sources: { mode: String(form.get('mode')), names: list(String(form.get('names'))) },
      countries: { ...(allow.length ? { allow } : {}), ...(deny.length ? { deny } : {}) },
      minSessionSeconds: Number(form.get('minSessionSeconds') || 0),
    };
    try {
      setPolicy(await api('/api/v1/compliance/policy', { method: 'PUT', body }));
      setError(null);
      setNotice('Policy saved.');
    } catch (err) {
      setError(err);
      setNotice('');
    }
  }

  if (!policy) return html`<${ErrorMessage} error=${error} />`;
  return html`<div class="policy" role="region" aria-labelledby="policy-title">
    <h3 id="policy-title">Compliance policy</h3>
    <p class="muted">
      Applied by every session activation. Sources you may name:
      ${policy.knownSources.map((s) => s.name).join(', ')}.
    </p>
    <form onSubmit=${save}>
      <label for="policy-mode">Sources needed</label>
      <select id="policy-mode" name="mode" disabled=${!canEdit}>
        <option value="any" selected=${policy.sources.mode === 'any'}>Any of</option>
        <option value="all" selected=${policy.sources.mode === 'all'}>All of</option>
      </select>
      <label for="policy-names">Source names (empty: any accepted source)</label>
      <input
        id="policy-names"
        name="names"
        value=${policy.sources.names.join(', ')}
        disabled=${!canEdit}
      />
      <label for="policy-allow">Allowed countries</label>
      <input
        id="policy-allow"
        name="allow"
        value=${(policy.countries.allow ?? []).join(', ')}
        disabled=${!canEdit}
      />
      <label for="policy-deny">Denied countries</label>
      <input
        id="policy-deny"
        name="deny"
        value=${(policy.countries.deny ?? []).join(', ')}
        disabled=${!canEdit}
      />
      <label for="policy-min">Shortest session (seconds)</label>
      <input
        id="policy-min"
        name="minSessionSeconds"
        type="number"
        min="0"
        value=${policy.minSessionSeconds}
        disabled=${!canEdit}
      />
      ${canEdit ? html`<button type="submit" class="primary">Save policy</button>` : ''}
    </form>
    <${ErrorMessage} error=${error} />
    <p class="status" role="status">${notice}</p>
  </div>`;
}
