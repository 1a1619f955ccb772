// @ts-check
import { html, render, useEffect, useState } from '../vendor/preact-htm.js';
import { isSignedIn, onSessionEnd, signOut } from './api.js';
import { KeysSection } from './keys.js';
import { SignIn } from './signin.js';
import { UsageSection } from './usage.js';
import { WalletsSection } from './wallets.js';

function App() {
  const [signedIn, setSignedIn] = useState(isSignedIn());
  useEffect(() => onSessionEnd(() => setSignedIn(false)), []);

  if (!signedIn) return html`<${SignIn} onSignedIn=${() => setSignedIn(true)} />`;
  return html`<a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <h1>Dashboard</h1>
      <nav aria-label="Sections">
        <a href="#keys">API keys</a>
        <a href="#usage">Usage</a>
        <a href="#wallets">Wallets</a>
      </nav>
      <button type="button" onClick=${() => void signOut()}>Sign out</button>
    </header>
    <main id="main" tabindex="-1">
      <${KeysSection} />
      <${UsageSection} />
      <${WalletsSection} />
    </main>`;
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
