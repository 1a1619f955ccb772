// @ts-check
import { html } from '../vendor/preact-htm.js';

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
