// @ts-check
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { ApiFailure, publicPost, signIn } from './api.js';
import { RecoveryCodes } from './security.js';
import { ErrorMessage, PRODUCT_NAME } from './ui.js';

/**
 * Sign in (with the second factor when the server asks for it: MFA_REQUIRED), enrol an
 * authenticator at sign-in when the account requires one, or sign up when the service allows it
 * (GET /auth/signup says whether it is on).
 */

/** @returns {Promise<{passwordMinLength: number} | null>} */
async function signupOffer() {
  const res = await fetch('/auth/signup', { cache: 'no-store' }).catch(() => null);
  const offer = res?.ok ? await res.json() : null;
  return offer?.enabled ? offer : null;
}

/** @param {{onSignedIn: () => void}} props */
export function SignIn({ onSignedIn }) {
  const [mode, setMode] = useState(/** @type {'signin' | 'signup'} */ ('signin'));
  const [offer, setOffer] = useState(/** @type {{passwordMinLength: number} | null} */ (null));
  const [needOtp, setNeedOtp] = useState(false);
  const [enrolment, setEnrolment] = useState(
    /** @type {{secret: string, qrCodeDataUrl: string} | null} */ (null),
  );
  const [recoveryCodes, setRecoveryCodes] = useState(/** @type {string[] | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [busy, setBusy] = useState(false);
  const [mailedTo, setMailedTo] = useState('');
  useEffect(() => void signupOffer().then(setOffer), []);

  /** @param {() => Promise<void>} action */
  async function run(action) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  /** @param {string} email @param {string} password @param {string} [otp] */
  async function attempt(email, password, otp) {
    try {
      const pair = await signIn(email, password, otp || undefined);
      if (pair.recoveryCodes) setRecoveryCodes(pair.recoveryCodes);
      else onSignedIn();
    } catch (err) {
      if (!(err instanceof ApiFailure) || err.code !== 'MFA_REQUIRED') throw err;
      const enrol = err.details.some(
        (d) => typeof d === 'object' && d !== null && 'enrollmentRequired' in d,
      );
      if (enrol && !enrolment)
        setEnrolment(await publicPost('/auth/mfa/totp/enroll', { email, password }));
      setNeedOtp(true); // the code field (and, to enrol, the QR code) now shows
    }
  }

  /** @param {SubmitEvent} event */
  function submitSignIn(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    void run(() =>
      attempt(
        String(form.get('email')),
        String(form.get('password')),
        String(form.get('otp') ?? ''),
      ),
    );
  }

  /** @param {SubmitEvent} event */
  function submitSignUp(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    void run(async () => {
      const answer = await publicPost('/auth/signup', {
        email,
        password,
        accountName: String(form.get('accountName')),
      });
      setMode('signin');
      // The account opens when the link mailed to the address is followed. In demo mode without
      // a mail server the link is in the answer: follow it here, then sign in as before.
      if (!answer.link) {
        setMailedTo(answer.email);
        return;
      }
      await publicPost('/auth/signup/confirm', { token: answer.link.split('#confirm-signup=')[1] });
      await attempt(email, password);
    });
  }

  if (recoveryCodes)
    return html`<main class="signin" id="main">
      <h1>Dashboard</h1>
      <div class="card">
        <${RecoveryCodes} codes=${recoveryCodes} onDone=${onSignedIn} />
      </div>
    </main>`;

  if (mailedTo)
    return html`<main class="signin" id="main">
      <h1>Dashboard</h1>
      <div class="card">
        <h2>Check your mailbox</h2>
        <p role="status">
          We sent a link to <strong>${mailedTo}</strong>. Follow it to open the account (it works
          for 24 hours), then sign in.
        </p>
        <button type="button" onClick=${() => setMailedTo('')}>Back to sign-in</button>
      </div>
    </main>`;

  return html`<main class="signin" id="main">
    <p class="product">${PRODUCT_NAME}</p>
    <h1>Dashboard</h1>
    <p class="lead">API keys, usage and wallets of your account.</p>
    ${
      mode === 'signup' && offer
        ? html`<form class="card" onSubmit=${submitSignUp} aria-labelledby="signup-title">
            <h2 id="signup-title">Create an account</h2>
            <label for="signup-email">Email</label>
            <input id="signup-email" name="email" type="email" autocomplete="username" required />
            <label for="signup-password"
              >Password (at least ${offer.passwordMinLength} characters)</label
            >
            <input
              id="signup-password"
              name="password"
              type="password"
              autocomplete="new-password"
              minlength=${offer.passwordMinLength}
              required
            />
            <label for="signup-account">Organisation name</label>
            <input id="signup-account" name="accountName" required maxlength="200" />
            <${ErrorMessage} error=${error} />
            <button type="submit" class="primary" disabled=${busy}>
              ${busy ? 'Creating…' : 'Create account'}
            </button>
            <button type="button" onClick=${() => setMode('signin')}>I have an account</button>
          </form>`
        : html`<form class="card" onSubmit=${submitSignIn} aria-labelledby="signin-title">
            <h2 id="signin-title">Sign in</h2>
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
            ${
              enrolment &&
              html`<p>
                  Your account requires two-factor sign-in. Scan this code with an authenticator app
                  (or type the secret <code data-testid="enrol-secret">${enrolment.secret}</code>),
                  then enter the code it shows.
                </p>
                <img
                  src=${enrolment.qrCodeDataUrl}
                  width="180"
                  height="180"
                  alt="QR code of the authenticator secret"
                />`
            }
            ${
              needOtp &&
              html`<label for="otp">Authentication code (or a recovery code)</label>
                <input
                  id="otp"
                  name="otp"
                  autocomplete="one-time-code"
                  required
                  minlength="6"
                  maxlength="32"
                />`
            }
            <${ErrorMessage} error=${error} />
            <button type="submit" class="primary" disabled=${busy}>
              ${busy ? 'Signing in…' : 'Sign in'}
            </button>
            ${
              offer &&
              html`<button type="button" onClick=${() => setMode('signup')}>
                Create an account
              </button>`
            }
          </form>`
    }
  </main>`;
}

const CONFIRM_PREFIX = '#confirm-signup=';

/** The token of a sign-up link (/dashboard/#confirm-signup=suc_...), if any. */
export function signupConfirmationToken() {
  return location.hash.startsWith(CONFIRM_PREFIX) ? location.hash.slice(CONFIRM_PREFIX.length) : '';
}

/** The page a mailed sign-up link opens: one click opens the account (POST /auth/signup/confirm). */
export function ConfirmSignup() {
  const [error, setError] = useState(/** @type {any} */ (null));
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await publicPost('/auth/signup/confirm', { token: signupConfirmationToken() });
      // The token is spent: keep it out of the address bar and the history.
      history.replaceState(null, '', location.pathname);
      setDone(true);
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return html`<main class="signin" id="main">
    <h1>Dashboard</h1>
    <div class="card">
      <h2>Open your account</h2>
      ${
        done
          ? html`<p role="status">
                Confirmed. If this email had no login yet, its account is open.
              </p>
              <p><a href="./">Sign in</a></p>`
          : html`<p>Confirm that this address is yours to open the account you signed up for.</p>
              <${ErrorMessage} error=${error} />
              <button type="button" class="primary" disabled=${busy} onClick=${confirm}>
                ${busy ? 'Confirming…' : 'Confirm and open the account'}
              </button>`
      }
    </div>
  </main>`;
}
