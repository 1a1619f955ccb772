// @ts-check
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { api, isSignedIn, publicPost } from './api.js';
import { dateTime } from './format.js';
import { Confirm, ErrorMessage, PRODUCT_NAME, Section } from './ui.js';

/**
 * The account's members (issue 33): everyone sees them; the owner and admins invite (the token
 * and link are shown once), change roles and remove members. The server decides: this page only
 * hides what the signed-in role cannot do.
 *
 * @typedef {{userId: string, email: string, role: string, joinedAt: string}} Member
 * @typedef {{id: string, email: string, role: string, expiresAt: string, createdAt: string}} Invitation
 * @typedef {Invitation & {mailed: boolean, token?: string, link?: string}} CreatedInvitation
 * @typedef {{user: {id: string, email: string, role: string}}} Me
 * @typedef {{id: string, at: string, target: {id: string},
 *   data: {email?: string, role?: string, reason?: string, invitedByEmail?: string}}} Revocation
 */

/** Why an invitation was revoked, as the audit trail's `reason` says (issue 46). */
const REVOCATION_REASONS = /** @type {Record<string, string>} */ ({
  inviter_removed: 'its inviter was removed',
  inviter_role_changed: "its inviter's new role cannot give this role",
});

/** Roles a member may give, as the server rules (src/auth/roles.ts rolesAssignableBy). */
/** @param {string} role @returns {string[]} */
export function assignableRoles(role) {
  if (role === 'owner') return ['admin', 'developer', 'viewer'];
  if (role === 'admin') return ['developer', 'viewer'];
  return [];
}

/**
 * An email that may wrap after its @ and dots (a long one would not fit a phone's column).
 * @param {{email: string}} props
 */
function Email({ email }) {
  const parts = email.split(/(?<=[@.])/);
  return html`${parts.map((part, i) => html`${i > 0 && html`<wbr />`}${part}`)}`;
}

export function MembersSection() {
  const [me, setMe] = useState(/** @type {Me | null} */ (null));
  const [members, setMembers] = useState(/** @type {Member[] | null} */ (null));
  const [invitations, setInvitations] = useState(/** @type {Invitation[]} */ ([]));
  const [revocations, setRevocations] = useState(/** @type {Revocation[]} */ ([]));
  const [created, setCreated] = useState(/** @type {CreatedInvitation | null} */ (null));
  const [removing, setRemoving] = useState(/** @type {Member | null} */ (null));
  const [transferring, setTransferring] = useState(/** @type {Member | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [status, setStatus] = useState('');

  async function load() {
    try {
      const who = /** @type {Me} */ (await api('/api/v1/auth/me'));
      setMe(who);
      setMembers((await api('/api/v1/account/members')).items);
      // Pending invitations are the managers' to see (others would get ROLE_FORBIDDEN).
      if (assignableRoles(who.user.role).length > 0) {
        setInvitations((await api('/api/v1/account/invitations')).items);
        // Revocations come from the audit trail: the ones made for the managers (by hand or
        // because their inviter left or lost the role) are listed, newest first.
        const trail = await api('/api/v1/audit-events?type=member.invitation_revoked&limit=20');
        setRevocations(trail.items);
      }
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => void load(), []);

  /** @param {string} label @param {() => Promise<unknown>} action */
  async function run(label, action) {
    try {
      await action();
      setError(null);
      setStatus(label);
      await load();
    } catch (err) {
      setError(err);
    }
  }

  /** @param {Member} m @param {string} next */
  const setRole = (m, next) =>
    api(`/api/v1/account/members/${m.userId}`, { method: 'PATCH', body: { role: next } });

  const role = me?.user.role ?? 'viewer';
  const manages = assignableRoles(role).length > 0;

  return html`<${Section}
    id="members"
    title="Members"
    actions=${html`<button type="button" onClick=${() => void load()}>Refresh</button>`}
  >
    <${ErrorMessage} error=${error} />
    <p class="status" role="status">${status}</p>
    ${
      me &&
      html`<p>
        You are signed in as <strong><${Email} email=${me.user.email} /></strong>,
        <span class="badge">${role}</span>.
      </p>`
    }
    ${
      members === null
        ? html`<p>Loading members…</p>`
        : html`<${MemberTable}
            members=${members}
            me=${me}
            onRole=${(/** @type {Member} */ m, /** @type {string} */ next) =>
              next === 'owner'
                ? setTransferring(m)
                : run(`${m.email} is now ${next}.`, () => setRole(m, next))}
            onRemove=${setRemoving}
          />`
    }
    ${
      removing &&
      html`<${Confirm}
        title=${`Remove ${removing.email}?`}
        action="Remove member"
        onConfirm=${() =>
          run(`${removing.email} was removed.`, async () => {
            await api(`/api/v1/account/members/${removing.userId}`, { method: 'DELETE' });
            setRemoving(null);
          })}
        onCancel=${() => setRemoving(null)}
      >
        <p>
          Their sign-in ends at once (access and refresh tokens). The account's API keys stay. They
          can be invited again.
        </p>
      <//>`
    }
    ${
      transferring &&
      html`<${Confirm}
        title=${`Make ${transferring.email} the owner?`}
        action="Transfer ownership"
        onConfirm=${() =>
          run(`${transferring.email} is now the owner; you are an admin.`, async () => {
            await setRole(transferring, 'owner');
            setTransferring(null);
          })}
        onCancel=${() => {
          setTransferring(null);
          void load();
        }}
      >
        <p>An account has one owner: you become an admin, and only the new owner can undo this.</p>
      <//>`
    }
    ${
      manages &&
      (created
        ? html`<${NewInvitation} created=${created} onDone=${() => setCreated(null)} />`
        : html`<${InviteForm}
            roles=${assignableRoles(role)}
            onCreated=${(/** @type {CreatedInvitation} */ invitation) => {
              setCreated(invitation);
              void load();
            }}
          />`)
    }
    ${
      manages &&
      invitations.length > 0 &&
      html`<${PendingInvitations}
        invitations=${invitations}
        onRevoke=${(/** @type {Invitation} */ i) =>
          run(`The invitation to ${i.email} was revoked.`, () =>
            api(`/api/v1/account/invitations/${i.id}`, { method: 'DELETE' }),
          )}
      />`
    }
    ${
      manages &&
      revocations.length > 0 &&
      html`<${RevokedInvitations} revocations=${revocations} />`
    }
  <//>`;
}

/** @param {{revocations: Revocation[]}} props */
function RevokedInvitations({ revocations }) {
  return html`<h3>Recently revoked invitations</h3>
    <div class="table-wrap stack" tabindex="0" role="region" aria-label="Revoked invitations table">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Revoked</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          ${revocations.map(
            (r) =>
              html`<tr key=${r.id}>
                <td data-label="Email">
                  <span><${Email} email=${r.data.email ?? ''} /></span>
                </td>
                <td data-label="Role">${r.data.role ?? ''}</td>
                <td data-label="Revoked">${dateTime(r.at)}</td>
                <td data-label="Why">
                  ${
                    r.data.reason
                      ? `${REVOCATION_REASONS[r.data.reason] ?? r.data.reason}${
                          r.data.invitedByEmail ? ` (${r.data.invitedByEmail})` : ''
                        }`
                      : 'revoked by hand'
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/**
 * @param {{members: Member[], me: Me | null, onRole: (m: Member, role: string) => void,
 *   onRemove: (m: Member) => void}} props
 */
function MemberTable({ members, me, onRole, onRemove }) {
  const mine = me?.user.role ?? 'viewer';
  const assignable = assignableRoles(mine);
  /** @param {Member} m */
  const manageable = (m) => m.userId !== me?.user.id && assignable.includes(m.role);
  return html`<div class="table-wrap stack" tabindex="0" role="region" aria-label="Members table">
    <table>
      <thead>
        <tr>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Joined</th>
          <th scope="col"><span class="sr-only">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        ${members.map(
          (m) =>
            html`<tr key=${m.userId}>
              <td data-label="Email">
                <span><${Email} email=${m.email} /></span>
              </td>
              <td data-label="Role">
                ${
                  manageable(m)
                    ? html`<${RoleSelect}
                        member=${m}
                        choices=${mine === 'owner' ? [...assignable, 'owner'] : assignable}
                        onChange=${(/** @type {string} */ next) => onRole(m, next)}
                      />`
                    : html`<span class="badge">${m.role}</span>`
                }
              </td>
              <td data-label="Joined">${dateTime(m.joinedAt)}</td>
              <td>
                ${
                  manageable(m) &&
                  html`<button
                    type="button"
                    class="danger"
                    onClick=${() => onRemove(m)}
                    aria-label=${`Remove ${m.email}`}
                  >
                    Remove
                  </button>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** @param {{member: Member, choices: string[], onChange: (role: string) => void}} props */
function RoleSelect({ member, choices, onChange }) {
  const id = `role-${member.userId}`;
  return html`<label class="sr-only" for=${id}>Role of ${member.email}</label>
    <select
      id=${id}
      value=${member.role}
      onChange=${(/** @type {Event} */ e) =>
        onChange(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}
    >
      ${choices.map(
        (r) =>
          html`<option key=${r} value=${r}>
            ${r === 'owner' ? 'owner (transfer ownership)' : r}
          </option>`,
      )}
    </select>`;
}

/** @param {{roles: string[], onCreated: (i: CreatedInvitation) => void}} props */
function InviteForm({ roles, onCreated }) {
  const [error, setError] = useState(/** @type {any} */ (null));

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    try {
      const invitation = await api('/api/v1/account/invitations', {
        method: 'POST',
        body: { email: String(form.get('email')), role: String(form.get('role')) },
      });
      setError(null);
      onCreated(invitation);
    } catch (err) {
      setError(err);
    }
  }

  return html`<form class="create-key" onSubmit=${submit}>
    <h3>Invite a member</h3>
    <div class="field">
      <label for="invite-email">Email</label>
      <input id="invite-email" name="email" type="email" required maxlength="320" />
    </div>
    <div class="field">
      <label for="invite-role">Role</label>
      <select id="invite-role" name="role">
        ${roles.map((r) => html`<option key=${r} value=${r}>${r}</option>`)}
      </select>
    </div>
    <${ErrorMessage} error=${error} />
    <button type="submit" class="primary">Send invitation</button>
  </form>`;
}

/** @param {{created: CreatedInvitation, onDone: () => void}} props */
function NewInvitation({ created, onDone }) {
  const [copied, setCopied] = useState('');
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => heading.current?.focus(), []);
  const link = new URL(created.link ?? '', location.origin).href;
  if (created.mailed)
    return html`<div class="new-key" role="region" aria-labelledby="new-invitation-title">
      <h3 id="new-invitation-title" tabindex="-1" ref=${heading}>
        ${created.email} is invited as ${created.role}
      </h3>
      <p role="status">
        The invitation link was mailed to ${created.email}; it works once, until
        ${' '}${dateTime(created.expiresAt)}.
      </p>
      <button type="button" onClick=${onDone}>Done</button>
    </div>`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('Copied to the clipboard.');
    } catch {
      const field = /** @type {HTMLInputElement | null} */ (
        document.getElementById('invitation-link')
      );
      field?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  }

  return html`<div class="new-key" role="region" aria-labelledby="new-invitation-title">
    <h3 id="new-invitation-title" tabindex="-1" ref=${heading}>
      ${created.email} is invited as ${created.role}
    </h3>
    <p class="warning" role="note">
      No mail server is set up here (demo mode): this is the only time the invitation is shown. Send
      the link (or the token) to ${' '}${created.email}; it works once, until
      ${dateTime(created.expiresAt)}.
    </p>
    <label for="invitation-link">Invitation link</label>
    <div class="copy-row">
      <input id="invitation-link" readonly value=${link} />
      <button type="button" class="primary" onClick=${copy}>Copy</button>
    </div>
    <label for="invitation-token">Token</label>
    <input id="invitation-token" readonly value=${created.token} />
    <p class="status" role="status">${copied}</p>
    <button type="button" onClick=${onDone}>Done</button>
  </div>`;
}

/** @param {{invitations: Invitation[], onRevoke: (i: Invitation) => void}} props */
function PendingInvitations({ invitations, onRevoke }) {
  return html`<h3>Pending invitations</h3>
    <div class="table-wrap stack" tabindex="0" role="region" aria-label="Pending invitations table">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Expires</th>
            <th scope="col"><span class="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${invitations.map(
            (i) =>
              html`<tr key=${i.id}>
                <td data-label="Email">
                  <span><${Email} email=${i.email} /></span>
                </td>
                <td data-label="Role">${i.role}</td>
                <td data-label="Expires">${dateTime(i.expiresAt)}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    onClick=${() => onRevoke(i)}
                    aria-label=${`Revoke the invitation to ${i.email}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

const ACCEPT_PREFIX = '#accept-invitation=';

// An invitation link opened in a signed-out tab that already shows the page changes only the
// fragment: load the page again so that it opens on the invitation.
addEventListener('hashchange', () => {
  if (invitationToken() && !isSignedIn()) location.reload();
});

/** The invitation token of an invitation link (/dashboard/#accept-invitation=inv_...), if any. */
export function invitationToken() {
  return location.hash.startsWith(ACCEPT_PREFIX) ? location.hash.slice(ACCEPT_PREFIX.length) : '';
}

/**
 * The page an invitation link opens, before sign-in: set a password, the login is created in the
 * inviting account (POST /auth/invitations/accept), then sign in as usual.
 */
export function AcceptInvitation() {
  const [error, setError] = useState(/** @type {any} */ (null));
  const [busy, setBusy] = useState(false);
  const [joined, setJoined] = useState(/** @type {{email: string, role: string} | null} */ (null));
  const [offer, setOffer] = useState(
    /** @type {{accountName: string, email: string, role: string, expiresAt: string} | null} */ (
      null
    ),
  );

  // What the invitation offers (account, email, role), read once: POST so the token stays out of
  // URLs and logs; it spends nothing.
  useEffect(() => {
    publicPost('/auth/invitations/preview', { token: invitationToken() })
      .then(setOffer)
      .catch(setError);
  }, []);

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    setBusy(true);
    try {
      const body = await publicPost('/auth/invitations/accept', {
        token: invitationToken(),
        password: String(form.get('password')),
      });
      // The token is spent: keep it out of the address bar and the history.
      history.replaceState(null, '', location.pathname);
      setJoined(body);
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (joined)
    return html`<main class="signin" id="main">
      <p class="product">${PRODUCT_NAME}</p>
      <h1>Dashboard</h1>
      <div class="card">
        <h2>Welcome</h2>
        <p role="status">
          If <strong>${joined.email}</strong> had no login yet, it now has one, with the
          ${' '}${joined.role} role (an email belongs to one account).
        </p>
        <p><a href="./">Sign in</a></p>
      </div>
    </main>`;

  return html`<main class="signin" id="main">
    <p class="product">${PRODUCT_NAME}</p>
    <h1>Dashboard</h1>
    ${
      offer
        ? html`<p class="lead" data-testid="invitation-offer">
            You are invited to join <strong>${offer.accountName}</strong> as
            ${' '}<strong>${offer.role}</strong>, with the email <strong>${offer.email}</strong>.
            The invitation works once, until ${dateTime(offer.expiresAt)}. Choose a password to
            join.
          </p>`
        : html`<p class="lead">You are invited to an account. Choose a password to join it.</p>`
    }
    <form class="card" onSubmit=${submit}>
      <h2>Accept the invitation</h2>
      <label for="invitation-password">Password (at least 12 characters)</label>
      <input
        id="invitation-password"
        name="password"
        type="password"
        autocomplete="new-password"
        minlength="12"
        maxlength="1024"
        required
      />
      <${ErrorMessage} error=${error} />
      <button type="submit" class="primary" disabled=${busy}>
        ${busy ? 'Joining…' : 'Join the account'}
      </button>
    </form>
  </main>`;
}
