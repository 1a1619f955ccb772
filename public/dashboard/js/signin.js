// @ts-check
import { html, useState } from '../vendor/preact-htm.js';
import { signIn } from './api.js';
import { ErrorMessage } from './ui.js';

/** @param {{onSignedIn: () => void}} props */
export function SignIn({ onSignedIn }) {
  const [error, setError] = useState(/** @type {any} */ (null));
  const [busy, setBusy] = useState(false);

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    setBusy(true);
    setError(null);
    try {
      await signIn(String(form.get('email')), String(form.get('password')));
      onSignedIn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return html`<main class="signin" id="main">
    <h1>Dashboard</h1>
    <p class="lead">API keys, usage and wallets of your account.</p>
    <form class="card" onSubmit=${submit}>
      <h2>Sign in</h2>
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required />
      <label for="password">Password</label>
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="current-password"
        required
      />
      <${ErrorMessage} error=${error} />
      <button type="submit" class="primary" disabled=${busy}>
        ${busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  </main>`;
}
