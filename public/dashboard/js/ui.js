// @ts-check
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { shortAddress } from './format.js';

/** The product's name, on the sign-in and invitation pages. */
export const PRODUCT_NAME = 'Compliance-gated DeFi builder';

/**
 * The envelope's details[] in words, one line each: "field: message" for a field the request got
 * wrong (with the checksummed form of a mistyped address), else the facts it carries.
 * @param {unknown[] | undefined} details
 * @returns {string[]}
 */
export function detailLines(details) {
  return (details ?? []).slice(0, 12).map((d) => {
    if (typeof d !== 'object' || d === null) return String(d);
    const entry = /** @type {Record<string, unknown>} */ (d);
    if (typeof entry.field === 'string' && typeof entry.message === 'string')
      return `${entry.field}: ${entry.message}${entry.suggestion ? ` (send ${entry.suggestion})` : ''}`;
    return Object.entries(entry)
      .map(
        ([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`,
      )
      .join(', ');
  });
}

/**
 * An API failure as the envelope gives it: message, then the hint (what to do), then its details
 * (the fields to fix, the facts of the refusal). `except` leaves out details a form already shows
 * next to its fields.
 * @param {{error: {message: string, code?: string, hint?: string, details?: unknown[]} | null,
 *   except?: (detail: unknown) => boolean}} props
 */
export function ErrorMessage({ error, except }) {
  if (!error) return null;
  const lines = detailLines((error.details ?? []).filter((d) => !except?.(d)));
  return html`<div class="error" role="alert">
    <p><strong>${error.message}</strong>${error.code ? html` <code>${error.code}</code>` : ''}</p>
    ${error.hint ? html`<p class="hint">${error.hint}</p>` : ''}
    ${
      lines.length > 0 &&
      html`<ul class="details" aria-label="Details">
        ${lines.map((line, i) => html`<li key=${i}>${line}</li>`)}
      </ul>`
    }
  </div>`;
}

/**
 * An address shortened to 0x1234…abcd (the whole one in its title), with a button that copies
 * the whole address. Where the clipboard is refused (a page not served over HTTPS or localhost),
 * the whole address is shown, selected, to copy by hand.
 * @param {{address: string}} props
 */
export function Address({ address }) {
  const [state, setState] = useState(/** @type {'' | 'copied' | 'shown'} */ (''));
  const full = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => {
    if (state !== 'shown' || !full.current) return;
    getSelection()?.selectAllChildren(full.current);
  }, [state]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      setState('copied');
    } catch {
      setState('shown');
    }
  }
  return html`<span class="address">
    ${
      state === 'shown'
        ? html`<code class="full" ref=${full}>${address}</code>`
        : html`<code title=${address}>${shortAddress(address)}</code>`
    }
    <button type="button" class="copy" onClick=${copy} aria-label=${`Copy ${address}`}>
      ${state === 'copied' ? 'Copied' : 'Copy'}
    </button>
  </span>`;
}

/**
 * A section of the page: a labelled region with its heading.
 * @param {{id: string, title: string, actions?: unknown, children?: unknown}} props
 */
export function Section({ id, title, actions, children }) {
  return html`<section class="card" aria-labelledby=${`${id}-title`} id=${id}>
    <div class="card-head">
      <h2 id=${`${id}-title`}>${title}</h2>
      ${actions}
    </div>
    ${children}
  </section>`;
}

/** A confirmation before a change that matters; Cancel has the focus. */
/**
 * @param {{title: string, action: string, onConfirm: () => void, onCancel: () => void,
 *   children?: unknown}} props
 */
export function Confirm({ title, action, onConfirm, onCancel, children }) {
  const cancel = useRef(/** @type {HTMLButtonElement | null} */ (null));
  useEffect(() => cancel.current?.focus(), [title]);
  return html`<div class="confirm" role="alertdialog" aria-labelledby="confirm-dialog-title">
    <h3 id="confirm-dialog-title">${title}</h3>
    ${children}
    <div class="row">
      <button type="button" class="danger" onClick=${onConfirm}>${action}</button>
      <button type="button" ref=${cancel} onClick=${onCancel}>Cancel</button>
    </div>
  </div>`;
}
