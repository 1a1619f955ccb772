// @ts-check
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { dateTime } from './format.js';
import { readKeyPage } from './read.js';
import { ErrorMessage, Section } from './ui.js';

/**
 * @typedef {import('../../../clients/typescript/src/schema').components['schemas']} Schemas
 * @typedef {Schemas['ApiKeyResponse']} ApiKey
 * @typedef {Schemas['CreatedApiKeyResponse']} CreatedApiKey
 */

/** The scopes a key can hold, as the server defines them (src/auth/scopes.ts). */
/** @type {Promise<string[]>} */
const scopes = fetch('settings.json')
  .then((res) => res.json())
  .then((settings) => settings.scopes);

/** @param {ApiKey} key */
function status(key) {
  if (key.revokedAt || !key.active) return 'revoked';
  if (key.expiresAt && new Date(key.expiresAt) <= new Date()) return 'expired';
  return 'active';
}

/** @param {{role: string | null}} props the signed-in user's role (null while it loads) */
export function KeysSection({ role }) {
  const [keys, setKeys] = useState(/** @type {ApiKey[] | null} */ (null));
  const [nextCursor, setNextCursor] = useState(/** @type {string | null} */ (null));
  const [created, setCreated] = useState(/** @type {CreatedApiKey | null} */ (null));
  const [confirming, setConfirming] = useState(/** @type {ApiKey | null} */ (null));
  const [editing, setEditing] = useState(/** @type {ApiKey | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  // A viewer reads keys only; the server refuses the rest (ROLE_FORBIDDEN) whatever is shown.
  const readOnly = role === 'viewer';

  /** @param {string | null} cursor */
  async function load(cursor = null) {
    try {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
      const page = readKeyPage(await api(`/api/v1/api-keys${query}`));
      setKeys((previous) => (cursor ? [...(previous ?? []), ...page.keys] : page.keys));
      setNextCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => void load(), []);

  /** @param {ApiKey} key */
  async function revoke(key) {
    try {
      await api(`/api/v1/api-keys/${key.id}`, { method: 'DELETE' });
      setConfirming(null);
      await load();
    } catch (err) {
      setError(err);
    }
  }

  return html`<${Section} id="keys" title="API keys">
    <${ErrorMessage} error=${error} />
    ${
      readOnly
        ? html`<p>Your role (viewer) reads the keys; an owner, admin or developer manages them.</p>`
        : created
          ? html`<${NewKey} created=${created} onDone=${() => setCreated(null)} />`
          : !editing &&
            html`<${CreateKeyForm}
              onCreated=${(/** @type {CreatedApiKey} */ key) => {
                setCreated(key);
                void load();
              }}
            />`
    }
    ${
      confirming &&
      html`<${ConfirmRevoke}
        apiKey=${confirming}
        onConfirm=${() => revoke(confirming)}
        onCancel=${() => setConfirming(null)}
      />`
    }
    ${
      editing &&
      html`<${EditKeyForm}
        apiKey=${editing}
        onSaved=${() => {
          setEditing(null);
          void load();
        }}
        onCancel=${() => setEditing(null)}
      />`
    }
    ${
      keys === null
        ? html`<p>Loading keys…</p>`
        : keys.length === 0
          ? html`<p>No API keys yet.</p>`
          : html`<${KeyTable}
              keys=${keys}
              readOnly=${readOnly}
              onRevoke=${setConfirming}
              onEdit=${setEditing}
            />`
    }
    ${
      nextCursor &&
      html`<button type="button" onClick=${() => load(nextCursor)}>Load more keys</button>`
    }
  <//>`;
}

/**
 * @param {{keys: ApiKey[], readOnly: boolean, onRevoke: (key: ApiKey) => void,
 *   onEdit: (key: ApiKey) => void}} props
 */
function KeyTable({ keys, readOnly, onRevoke, onEdit }) {
  return html`<div class="table-wrap stack" tabindex="0" role="region" aria-label="API keys table">
    <table>
      <thead>
        <tr>
          <th scope="col">Name and prefix</th>
          <th scope="col">Scopes</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Expires</th>
          <th scope="col">Status</th>
          <th scope="col"><span class="sr-only">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        ${keys.map(
          (key) =>
            html`<tr key=${key.id}>
              <td data-label="Name" class="name">
                ${key.name}
                <code class="prefix">${key.prefix}</code>
              </td>
              <td data-label="Scopes" class="scopes">
                <ul class="plain">
                  ${key.scopes.map((scope) => html`<li key=${scope}>${scope}</li>`)}
                </ul>
              </td>
              <td data-label="Created" class="when">${dateTime(key.createdAt)}</td>
              <td data-label="Last used" class="when">${dateTime(key.lastUsedAt, 'never')}</td>
              <td data-label="Expires" class="when">${dateTime(key.expiresAt, 'never')}</td>
              <td data-label="Status">
                <span class=${`badge ${status(key)}`}>${status(key)}</span>
              </td>
              <td class="actions">
                ${
                  status(key) === 'active' &&
                  !readOnly &&
                  html`<div class="row">
                    <button
                      type="button"
                      onClick=${() => onEdit(key)}
                      aria-label=${`Edit ${key.name}`}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick=${() => onRevoke(key)}
                      aria-label=${`Revoke ${key.name}`}
                    >
                      Revoke
                    </button>
                  </div>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** @param {{onCreated: (key: CreatedApiKey) => void}} props */
function CreateKeyForm({ onCreated }) {
  const [error, setError] = useState(/** @type {any} */ (null));
  const [choices, setChoices] = useState(/** @type {string[]} */ ([]));
  useEffect(() => void scopes.then(setChoices, setError), []);

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    const expiry = String(form.get('expiresAt') ?? '');
    try {
      const key = await api('/api/v1/api-keys', {
        method: 'POST',
        body: {
          name: String(form.get('name')),
          scopes: form.getAll('scopes'),
          // A date input gives a day: the key stays valid until the end of it (UTC).
          ...(expiry ? { expiresAt: `${expiry}T23:59:59Z` } : {}),
        },
      });
      setError(null);
      onCreated(key);
    } catch (err) {
      setError(err);
    }
  }

  return html`<form class="create-key" onSubmit=${submit}>
    <h3>Create a key</h3>
    <div class="field">
      <label for="key-name">Name</label>
      <input id="key-name" name="name" required maxlength="100" />
    </div>
    <fieldset>
      <legend>Scopes</legend>
      ${choices.map(
        (scope) =>
          html`<label class="check" key=${scope}>
            <input type="checkbox" name="scopes" value=${scope} /> ${scope}
          </label>`,
      )}
    </fieldset>
    <div class="field">
      <label for="key-expiry">Expires (optional)</label>
      <input id="key-expiry" name="expiresAt" type="date" />
    </div>
    <${ErrorMessage} error=${error} />
    <button type="submit" class="primary">Create key</button>
  </form>`;
}

/**
 * Edits a key's name, scopes and expiry (PATCH): the secret stays the same.
 * @param {{apiKey: ApiKey, onSaved: () => void, onCancel: () => void}} props
 */
function EditKeyForm({ apiKey, onSaved, onCancel }) {
  const [error, setError] = useState(/** @type {any} */ (null));
  const [choices, setChoices] = useState(/** @type {string[]} */ ([]));
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => void scopes.then(setChoices, setError), []);
  useEffect(() => heading.current?.focus(), [apiKey.id]);
  const initialExpiry = apiKey.expiresAt ? apiKey.expiresAt.slice(0, 10) : '';

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    const expiry = String(form.get('expiresAt') ?? '');
    try {
      await api(`/api/v1/api-keys/${apiKey.id}`, {
        method: 'PATCH',
        body: {
          name: String(form.get('name')),
          scopes: form.getAll('scopes'),
          // Sent only when changed. An emptied date removes the expiry; a day means until its
          // end (UTC), as at creation.
          ...(expiry === initialExpiry ? {} : { expiresAt: expiry ? `${expiry}T23:59:59Z` : null }),
        },
      });
      setError(null);
      onSaved();
    } catch (err) {
      setError(err);
    }
  }

  return html`<form class="create-key" onSubmit=${submit} aria-labelledby="edit-key-title">
    <h3 id="edit-key-title" tabindex="-1" ref=${heading}>Edit “${apiKey.name}”</h3>
    <div class="field">
      <label for="edit-key-name">Name</label>
      <input id="edit-key-name" name="name" required maxlength="100" value=${apiKey.name} />
    </div>
    <fieldset>
      <legend>Scopes</legend>
      ${choices.map(
        (scope) =>
          html`<label class="check" key=${scope}>
            <input
              type="checkbox"
              name="scopes"
              value=${scope}
              checked=${apiKey.scopes.includes(scope)}
            />
            ${scope}
          </label>`,
      )}
    </fieldset>
    <div class="field">
      <label for="edit-key-expiry">Expires (empty: never)</label>
      <input id="edit-key-expiry" name="expiresAt" type="date" value=${initialExpiry} />
    </div>
    <${ErrorMessage} error=${error} />
    <div class="row">
      <button type="submit" class="primary">Save changes</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
  </form>`;
}

/** @param {{created: CreatedApiKey, onDone: () => void}} props */
function NewKey({ created, onDone }) {
  const [copied, setCopied] = useState('');
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('Copied to the clipboard.');
    } catch {
      const field = /** @type {HTMLInputElement | null} */ (document.getElementById('new-key'));
      field?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  }

  return html`<div class="new-key" role="region" aria-labelledby="new-key-title">
    <h3 id="new-key-title" tabindex="-1" ref=${heading}>Key “${created.name}” created</h3>
    <p class="warning" role="note">
      This is the only time the full key is shown. Copy it now and store it somewhere safe: it
      cannot be shown again.
    </p>
    <label for="new-key">Your new API key</label>
    <div class="copy-row">
      <input id="new-key" readonly value=${created.key} />
      <button type="button" class="primary" onClick=${copy}>Copy</button>
    </div>
    <p class="status" role="status">${copied}</p>
    <button type="button" onClick=${onDone}>I have stored the key</button>
  </div>`;
}

/** @param {{apiKey: ApiKey, onConfirm: () => void, onCancel: () => void}} props */
function ConfirmRevoke({ apiKey, onConfirm, onCancel }) {
  const cancel = useRef(/** @type {HTMLButtonElement | null} */ (null));
  useEffect(() => cancel.current?.focus(), [apiKey.id]);
  return html`<div class="confirm" role="alertdialog" aria-labelledby="confirm-title">
    <h3 id="confirm-title">Revoke “${apiKey.name}”?</h3>
    <p>
      Requests with <code>${apiKey.prefix}…</code> will be refused at once (API_KEY_INACTIVE). This
      cannot be undone.
    </p>
    <div class="row">
      <button type="button" class="danger" onClick=${onConfirm}>Revoke key</button>
      <button type="button" ref=${cancel} onClick=${onCancel}>Cancel</button>
    </div>
  </div>`;
}
