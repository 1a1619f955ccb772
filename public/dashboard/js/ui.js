// @ts-check
import { html, useEffect, useRef } from '../vendor/preact-htm.js';

/** The product's name, on the sign-in and invitation pages. */
export const PRODUCT_NAME = 'Compliance-gated DeFi builder';

/**
 * An API failure as the envelope gives it: message, then the hint (what to do).
 * @param {{error: {message: string, code?: string, hint?: string} | null}} props
 */
export function ErrorMessage({ error }) {
  if (!error) return null;
  return html`<div class="error" role="alert">
    <p><strong>${error.message}</strong>${error.code ? html` <code>${error.code}</code>` : ''}</p>
    ${error.hint ? html`<p class="hint">${error.hint}</p>` : ''}
  </div>`;
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
