// @ts-check
import { html, render, useEffect, useState } from '../vendor/preact-htm.js';
import { api, isSignedIn, onSessionEnd, resume, signOut } from './api.js';
import { ApprovalsSection } from './approvals.js';
import { AuditSection } from './audit.js';
import { KeysSection } from './keys.js';
import { MarketsSection } from './markets.js';
import { AcceptInvitation, invitationToken, MembersSection } from './members.js';
import { SecuritySection } from './security.js';
import { ConfirmSignup, SignIn, signupConfirmationToken } from './signin.js';
import { UsageSection } from './usage.js';
import { WalletsSection } from './wallets.js';
import { WebhooksSection } from './webhooks.js';

/**
 * The sections, each on its own page: `#<id>` in the address picks one (so links, the back
 * button and a reload keep it), the navigation stays on every page.
 * @type {Array<{id: string, label: string, view: (role: string | null) => unknown}>}
 */
export const PAGES = [
  { id: 'keys', label: 'API keys', view: (role) => html`<${KeysSection} role=${role} />` },
  { id: 'usage', label: 'Usage', view: () => html`<${UsageSection} />` },
  { id: 'wallets', label: 'Wallets', view: (role) => html`<${WalletsSection} role=${role} />` },
  { id: 'markets', label: 'Markets', view: () => html`<${MarketsSection} />` },
  {
    id: 'approvals',
    label: 'Approvals',
    view: (role) => html`<${ApprovalsSection} role=${role} />`,
  },
  { id: 'members', label: 'Members', view: () => html`<${MembersSection} />` },
  { id: 'webhooks', label: 'Webhooks', view: (role) => html`<${WebhooksSection} role=${role} />` },
  { id: 'audit', label: 'Audit log', view: () => html`<${AuditSection} />` },
  { id: 'security', label: 'Security', view: (role) => html`<${SecuritySection} role=${role} />` },
];

/** The page the address names; anything else (`#main` of the skip link) keeps `current`. */
function pageOf(/** @type {string} */ hash, /** @type {string} */ current) {
  const id = hash.replace(/^#/, '');
  return PAGES.some((p) => p.id === id) ? id : current;
}

/** A link that carries a one-time token (an invitation, a sign-up confirmation) is not resumed over. */
const resumable = () => !invitationToken() && !signupConfirmationToken();

function App() {
  const [signedIn, setSignedIn] = useState(isSignedIn());
  // A reload resumes the login of the refresh cookie before showing the sign-in form.
  const [resuming, setResuming] = useState(resumable());
  useEffect(() => onSessionEnd(() => setSignedIn(false)), []);
  useEffect(() => {
    if (!resuming) return;
    void resume().then((resumed) => {
      setSignedIn(resumed);
      setResuming(false);
    });
  }, []);
  const [page, setPage] = useState(() => pageOf(location.hash, 'keys'));
  useEffect(() => {
    const follow = () => setPage((current) => pageOf(location.hash, current));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => {
    const label = PAGES.find((p) => p.id === page)?.label;
    document.title = `${label} · Dashboard · Compliance-gated DeFi builder`;
  }, [page]);
  // The signed-in user's role, read once for the sections that show or ask for less by role
  // (Members reads /auth/me itself: an ownership transfer there changes the reader's role).
  const [role, setRole] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    if (!signedIn) return;
    api('/api/v1/auth/me').then(
      (/** @type {{user: {role: string}}} */ me) => setRole(me.user.role),
      () => setRole(null),
    );
  }, [signedIn]);

  if (resuming) return html`<p class="loading" role="status">Loading the dashboard…</p>`;
  if (!signedIn && invitationToken()) return html`<${AcceptInvitation} />`;
  if (!signedIn && signupConfirmationToken()) return html`<${ConfirmSignup} />`;
  if (!signedIn) return html`<${SignIn} onSignedIn=${() => setSignedIn(true)} />`;
  const current = PAGES.find((p) => p.id === page) ?? PAGES[0];
  return html`<a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <h1>Dashboard</h1>
      <nav aria-label="Sections">
        ${PAGES.map(
          (p) =>
            html`<a
              key=${p.id}
              href=${`#${p.id}`}
              aria-current=${p.id === page ? 'page' : undefined}
              >${p.label}</a
            >`,
        )}
      </nav>
      <button type="button" onClick=${() => void signOut()}>Sign out</button>
    </header>
    <main id="main" tabindex="-1">${current.view(role)}</main>`;
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
