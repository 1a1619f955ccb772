// @ts-check
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { dateTime } from './format.js';
import { ErrorMessage, Section } from './ui.js';

/**
 * Webhooks (issue 32): add an endpoint and choose its events, see the signing secret once, follow
 * its deliveries (every attempt with status code and duration, the next retry), send a test
 * event, rotate the secret, turn it off and on, delete it.
 *
 * @typedef {{id: string, url: string, events: string[], active: boolean,
 *   description: string | null, disabledReason: string | null, failingSince: string | null,
 *   previousSecretExpiresAt: string | null, createdAt: string}} Webhook
 * @typedef {Webhook & {secret: string}} CreatedWebhook
 * @typedef {{attempt: number, statusCode: number | null, durationMs: number,
 *   error: string | null, attemptedAt: string}} Attempt
 * @typedef {{id: string, eventId: string, eventType: string, status: string,
 *   attemptCount: number, nextRetryAt: string | null, lastError: string | null,
 *   createdAt: string, attempts: Attempt[]}} Delivery
 */

/** The subscribable event types (src/webhooks/webhook-event-types.ts). */
const EVENT_TYPES = [
  'session.activated',
  'session.expiring',
  'session.revoked',
  'transaction.confirmed',
  'transaction.reverted',
  'api_key.created',
  'api_key.revoked',
  'quota.threshold',
  'approval.requested',
  'approval.approved',
  'approval.rejected',
  'approval.expired',
];

/** @param {{role: string | null}} props the signed-in user's role (null while it loads) */
export function WebhooksSection({ role }) {
  const manages = role === 'owner' || role === 'admin';
  const [hooks, setHooks] = useState(/** @type {Webhook[] | null} */ (null));
  const [secret, setSecret] = useState(
    /** @type {{title: string, secret: string} | null} */ (null),
  );
  const [open, setOpen] = useState(/** @type {string | null} */ (null));
  const [confirming, setConfirming] = useState(/** @type {Webhook | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  async function load() {
    try {
      setHooks((await api('/api/v1/webhooks')).webhooks);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => {
    if (manages) void load();
  }, [manages]);

  /** @param {string} path @param {string} method @param {object} [body] */
  async function act(path, method, body) {
    try {
      const result = await api(path, { method, ...(body ? { body } : {}) });
      setError(null);
      await load();
      return result;
    } catch (err) {
      setError(err);
      return null;
    }
  }

  /** @param {Webhook} hook */
  async function rotate(hook) {
    const rotated = await act(`/api/v1/webhooks/${hook.id}/rotate-secret`, 'POST');
    if (rotated)
      setSecret({
        title: `New secret for ${hook.url} (the old one signs too for 24 h)`,
        secret: rotated.secret,
      });
  }

  if (!manages) {
    return html`<${Section} id="webhooks" title="Webhooks">
      <p>
        ${role === null ? 'Loading…' : "Webhooks are managed by the account's owner and admins."}
      </p>
    <//>`;
  }

  return html`<${Section} id="webhooks" title="Webhooks">
    <p>
      Signed events (Standard Webhooks) POSTed to your endpoint. Verify each with its secret, and
      dedupe on the <code>webhook-id</code> header: a retry carries the same id.
    </p>
    <${ErrorMessage} error=${error} />
    ${
      secret
        ? html`<${NewSecret} shown=${secret} onDone=${() => setSecret(null)} />`
        : html`<${CreateWebhookForm}
            onCreated=${(/** @type {CreatedWebhook} */ hook) => {
              setSecret({ title: `Webhook for ${hook.url} created`, secret: hook.secret });
              void load();
            }}
          />`
    }
    ${
      confirming &&
      html`<div class="confirm" role="alertdialog" aria-labelledby="webhook-confirm-title">
        <h3 id="webhook-confirm-title">Delete the webhook for ${confirming.url}?</h3>
        <p>Its deliveries are deleted with it. This cannot be undone.</p>
        <div class="row">
          <button
            type="button"
            class="danger"
            onClick=${async () => {
              await act(`/api/v1/webhooks/${confirming.id}`, 'DELETE');
              setConfirming(null);
            }}
          >
            Delete webhook
          </button>
          <button type="button" onClick=${() => setConfirming(null)}>Cancel</button>
        </div>
      </div>`
    }
    ${
      hooks === null
        ? html`<p>Loading webhooks…</p>`
        : hooks.length === 0
          ? html`<p>No webhooks yet.</p>`
          : hooks.map(
              (hook) =>
                html`<article class="webhook stack" key=${hook.id} aria-label=${hook.url}>
                  <h3><code>${hook.url}</code></h3>
                  <p>
                    <span class=${`badge ${hook.active ? 'active' : 'revoked'}`}>
                      ${hook.active ? 'active' : 'off'}
                    </span>
                    ${hook.description ? ` ${hook.description}` : ''}
                  </p>
                  ${hook.disabledReason && html`<p class="warning">Disabled: ${hook.disabledReason}</p>`}
                  <p class="scopes">Events: ${hook.events.join(', ')}</p>
                  <div class="row">
                    <button
                      type="button"
                      onClick=${() => setOpen(open === hook.id ? null : hook.id)}
                      aria-expanded=${open === hook.id}
                    >
                      Deliveries
                    </button>
                    <button
                      type="button"
                      onClick=${async () => {
                        await act(`/api/v1/webhooks/${hook.id}/test`, 'POST');
                        setOpen(hook.id);
                      }}
                    >
                      Send test
                    </button>
                    <button type="button" onClick=${() => rotate(hook)}>Rotate secret</button>
                    <button
                      type="button"
                      onClick=${() => act(`/api/v1/webhooks/${hook.id}`, 'PATCH', { active: !hook.active })}
                    >
                      ${hook.active ? 'Disable' : 'Enable'}
                    </button>
                    <button type="button" class="danger" onClick=${() => setConfirming(hook)}>
                      Delete
                    </button>
                  </div>
                  ${open === hook.id && html`<${Deliveries} webhookId=${hook.id} />`}
                </article>`,
            )
    }
  <//>`;
}

/** @param {{onCreated: (hook: CreatedWebhook) => void}} props */
function CreateWebhookForm({ onCreated }) {
  const [error, setError] = useState(/** @type {any} */ (null));

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    const description = String(form.get('description') ?? '').trim();
    try {
      const hook = await api('/api/v1/webhooks', {
        method: 'POST',
        body: {
          url: String(form.get('url')),
          events: form.getAll('events'),
          ...(description ? { description } : {}),
        },
      });
      setError(null);
      onCreated(hook);
    } catch (err) {
      setError(err);
    }
  }

  return html`<form class="create-key" onSubmit=${submit}>
    <h3>Add a webhook</h3>
    <div class="field">
      <label for="webhook-url">Endpoint URL</label>
      <input
        id="webhook-url"
        name="url"
        type="url"
        required
        maxlength="2048"
        placeholder="https://"
      />
    </div>
    <div class="field">
      <label for="webhook-description">Description (optional)</label>
      <input id="webhook-description" name="description" maxlength="200" />
    </div>
    <fieldset>
      <legend>Events</legend>
      ${EVENT_TYPES.map(
        (type) =>
          html`<label class="check" key=${type}>
            <input type="checkbox" name="events" value=${type} /> ${type}
          </label>`,
      )}
    </fieldset>
    <${ErrorMessage} error=${error} />
    <button type="submit" class="primary">Add webhook</button>
  </form>`;
}

/** @param {{shown: {title: string, secret: string}, onDone: () => void}} props */
function NewSecret({ shown, onDone }) {
  const [copied, setCopied] = useState('');
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied('Copied to the clipboard.');
    } catch {
      /** @type {HTMLInputElement | null} */ (
        document.getElementById('new-webhook-secret')
      )?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  }

  return html`<div class="new-key" role="region" aria-labelledby="new-webhook-title">
    <h3 id="new-webhook-title" tabindex="-1" ref=${heading}>${shown.title}</h3>
    <p class="warning" role="note">
      This is the only time the signing secret is shown. Store it where your receiver verifies
      signatures: it cannot be shown again.
    </p>
    <label for="new-webhook-secret">Signing secret</label>
    <div class="copy-row">
      <input id="new-webhook-secret" readonly value=${shown.secret} />
      <button type="button" class="primary" onClick=${copy}>Copy</button>
    </div>
    <p class="status" role="status">${copied}</p>
    <button type="button" onClick=${onDone}>I have stored the secret</button>
  </div>`;
}

/** @param {Delivery} delivery */
function badge(delivery) {
  if (delivery.status === 'delivered') return 'active';
  if (delivery.status === 'failed' || delivery.status === 'notice') return 'revoked';
  return '';
}

/** @param {{webhookId: string}} props */
function Deliveries({ webhookId }) {
  const [rows, setRows] = useState(/** @type {Delivery[] | null} */ (null));
  const [next, setNext] = useState(/** @type {string | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  /** @param {string | null} cursor */
  async function load(cursor = null) {
    try {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
      const page = await api(`/api/v1/webhooks/${webhookId}/deliveries${query}`);
      setRows((previous) => (cursor ? [...(previous ?? []), ...page.deliveries] : page.deliveries));
      setNext(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => void load(), [webhookId]);

  return html`<div class="stack">
    <div class="row">
      <h4>Deliveries</h4>
      <button type="button" onClick=${() => load()}>Refresh</button>
    </div>
    <${ErrorMessage} error=${error} />
    ${
      rows === null
        ? html`<p>Loading deliveries…</p>`
        : rows.length === 0
          ? html`<p>No deliveries yet.</p>`
          : html`<div
              class="table-wrap stack"
              tabindex="0"
              role="region"
              aria-label="Deliveries table"
            >
              <table>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Next retry</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map(
                    (d) =>
                      html`<tr key=${d.id}>
                        <td data-label="Event"><code>${d.eventType}</code></td>
                        <td data-label="Status">
                          <span class=${`badge ${badge(d)}`}>${d.status}</span>
                        </td>
                        <td data-label="Attempts">
                          ${
                            d.attempts.length === 0
                              ? '—'
                              : d.attempts
                                  .map(
                                    (a) =>
                                      `#${a.attempt} ${a.statusCode ?? a.error ?? '—'} (${a.durationMs} ms)`,
                                  )
                                  .join(', ')
                          }
                        </td>
                        <td data-label="Next retry">${dateTime(d.nextRetryAt)}</td>
                        <td data-label="Created">${dateTime(d.createdAt)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
    }
    ${next && html`<button type="button" onClick=${() => load(next)}>Load more deliveries</button>`}
  </div>`;
}
