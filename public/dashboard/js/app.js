// @ts-check
import { html, render, useEffect, useState } from '../vendor/preact-htm.js';
import { api, isSignedIn, onSessionEnd, signOut } from './api.js';
import { AuditSection } from './audit.js';
import { KeysSection } from './keys.js';
import { AcceptInvitation, invitationToken, MembersSection } from './members.js';
import { SecuritySection } from './security.js';
import { ConfirmSignup, SignIn, signupConfirmationToken } from './signin.js';
import { UsageSection } from './usage.js';
import { WalletsSection } from './wallets.js';
import { WebhooksSection } from './webhooks.js';

function App() {
  const [signedIn, setSignedIn] = useState(isSignedIn());
  useEffect(() => onSessionEnd(() => setSignedIn(false)), []);
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

  if (!signedIn && invitationToken()) return html`<${AcceptInvitation} />`;
  if (!signedIn && signupConfirmationToken()) return html`<${ConfirmSignup} />`;
  if (!signedIn) return html`<${SignIn} onSignedIn=${() => setSignedIn(true)} />`;
  return html`<a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <h1>Dashboard</h1>
      <nav aria-label="Sections">
        <a href="#keys">API keys</a>
        <a href="#usage">Usage</a>
        <a href="#wallets">Wallets</a>
        <a href="#members">Members</a>
        <a href="#webhooks">Webhooks</a>
        <a href="#audit">Audit log</a>
        <a href="#security">Security</a>
      </nav>
      <button type="button" onClick=${() => void signOut()}>Sign out</button>
    </header>
    <main id="main" tabindex="-1">
      <${KeysSection} role=${role} />
      <${UsageSection} />
      <${WalletsSection} />
      <${MembersSection} />
      <${WebhooksSection} role=${role} />
      <${AuditSection} />
      <${SecuritySection} role=${role} />
    </main>`;
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
