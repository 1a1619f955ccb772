// @ts-check
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { dateTime } from './format.js';
import { Address, ErrorMessage, Section } from './ui.js';

/**
 * Approvals (issue 55, four eyes): the account's pending approval requests, each with what it
 * trades, who asked, how much of the daily limits it would use and the approvals so far; a member
 * of an approving role approves (with the current code of their authenticator app when they have
 * two-factor sign-in) or rejects with a reason.
 *
 * @typedef {{userId: string, email: string | null, role: string, decision: string,
 *   reason: string | null, secondFactor: string | null, at: string}} Vote
 * @typedef {{token: string, perDay: string, used: string, remaining: string, requested: string}} DailyUse
 * @typedef {{id: string, status: string, wallet: string, operation: string,
 *   gives: Array<{token: string, amount: string}>,
 *   requestedBy: {type: string, id: string, userId: string | null, email: string | null},
 *   quorum: number, roles: string[], approvals: number, votes: Vote[],
 *   approvers: Array<{userId: string, email: string, role: string}>,
 *   dailyLimits: DailyUse[], createdAt: string, expiresAt: string}} Approval
 */

/** @param {{role: string | null}} props the signed-in user's role (null while it loads) */
export function ApprovalsSection({ role }) {
  const [items, setItems] = useState(/** @type {Approval[] | null} */ (null));
  const [me, setMe] = useState(/** @type {{id: string, mfaEnabled: boolean} | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [notice, setNotice] = useState('');

  async function load() {
    try {
      setItems((await api('/api/v1/approvals?status=pending')).items);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => {
    void load();
    api('/api/v1/auth/me').then(
      (/** @type {{user: {id: string, mfaEnabled: boolean}}} */ body) => setMe(body.user),
      () => setMe(null),
    );
  }, []);

  /** @param {Approval} item @param {'approve' | 'reject'} decision @param {object} body */
  async function decide(item, decision, body) {
    try {
      const result = await api(`/api/v1/approvals/${item.id}/${decision}`, {
        method: 'POST',
        body,
      });
      setError(null);
      setNotice(
        decision === 'reject'
          ? 'Rejected: the trade will not be built.'
          : result.status === 'approved'
            ? 'Approved: the quorum is reached, the requester may send the build again.'
            : `Approved: ${result.approvals} of ${result.quorum} approvals.`,
      );
      await load();
    } catch (err) {
      setError(err);
    }
  }

  return html`<${Section}
    id="approvals"
    title="Approvals"
    actions=${html`<button type="button" onClick=${() => void load()}>Refresh</button>`}
  >
    <p>
      Trades above a threshold of your policy (trading.approvals) wait here for the approvals of
      other members. The member who asked, or who created the API key that asked, cannot approve.
    </p>
    <${ErrorMessage} error=${error} />
    ${notice && html`<p class="notice" role="status">${notice}</p>`}
    ${
      items === null
        ? html`<p>Loading approval requests…</p>`
        : items.length === 0
          ? html`<p>No pending approval requests.</p>`
          : items.map(
              (item) =>
                html`<${Request}
                  key=${item.id}
                  item=${item}
                  role=${role}
                  me=${me}
                  onDecide=${decide}
                />`,
            )
    }
  <//>`;
}

/** "1 of 2 (owner or admin): a@example.com (owner)" @param {Approval} item */
function approvalsText(item) {
  const votes = item.votes
    .filter((v) => v.decision === 'approve')
    .map((v) => `${v.email ?? v.userId} (${v.role})`);
  return `${item.approvals} of ${item.quorum} (${item.roles.join(' or ')})${votes.length > 0 ? `: ${votes.join(', ')}` : ''}`;
}

/**
 * @param {{item: Approval, role: string | null, me: {id: string, mfaEnabled: boolean} | null,
 *   onDecide: (item: Approval, decision: 'approve' | 'reject', body: object) => Promise<void>}} props
 */
function Request({ item, role, me, onDecide }) {
  const what = item.gives.map((g) => `${g.amount} ${g.token}`).join(' + ');
  const asked =
    item.requestedBy.type === 'api_key'
      ? `an API key of ${item.requestedBy.email ?? 'a former member'}`
      : (item.requestedBy.email ?? 'a former member');
  const mine = me !== null && item.requestedBy.userId === me.id;
  const mayDecide =
    role !== null &&
    item.roles.includes(role) &&
    !mine &&
    !item.votes.some((v) => me !== null && v.userId === me.id);
  const label = `${item.operation} giving ${what}`;

  /** @param {SubmitEvent} event */
  function approve(event) {
    event.preventDefault();
    const code = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget)).get('code');
    return onDecide(item, 'approve', code ? { code: String(code) } : {});
  }
  /** @param {SubmitEvent} event */
  function reject(event) {
    event.preventDefault();
    const reason = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget)).get('reason');
    return onDecide(item, 'reject', { reason: String(reason) });
  }

  return html`<article class="approval stack" aria-label=${label}>
    <h3>${item.operation}: ${what}</h3>
    <dl class="pairs">
      <dt>Wallet</dt>
      <dd><${Address} address=${item.wallet} /></dd>
      <dt>Asked by</dt>
      <dd>${asked}, ${dateTime(item.createdAt)}</dd>
      <dt>Approvals</dt>
      <dd data-testid="approvals-count">${approvalsText(item)}</dd>
      ${item.dailyLimits.map(
        (d) =>
          html`<dt key=${`${d.token}-dt`}>Daily ${d.token} limit</dt>
            <dd key=${`${d.token}-dd`}>
              ${d.requested} of ${d.perDay} (${d.used} used in the last 24 h, ${d.remaining} left)
            </dd>`,
      )}
      <dt>Expires</dt>
      <dd>${dateTime(item.expiresAt)}</dd>
    </dl>
    ${
      mayDecide
        ? html`<div class="row decide">
            <form class="row" onSubmit=${approve} aria-label=${`Approve ${label}`}>
              ${
                me?.mfaEnabled &&
                html`<div class="field">
                  <label for=${`code-${item.id}`}>Authenticator code</label>
                  <input
                    id=${`code-${item.id}`}
                    name="code"
                    inputmode="numeric"
                    autocomplete="one-time-code"
                    pattern="[0-9]{6}"
                    required
                  />
                </div>`
              }
              <button type="submit" class="primary">Approve</button>
            </form>
            <form class="row" onSubmit=${reject} aria-label=${`Reject ${label}`}>
              <div class="field">
                <label for=${`reason-${item.id}`}>Reason to reject</label>
                <input id=${`reason-${item.id}`} name="reason" required maxlength="500" />
              </div>
              <button type="submit" class="danger">Reject</button>
            </form>
          </div>`
        : html`<p class="muted">
            ${mine ? 'You asked for this trade: other members decide.' : 'Waiting for the other approvers.'}
          </p>`
    }
  </article>`;
}
