// @ts-check
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { Confirm, ErrorMessage, Section } from './ui.js';

/**
 * Two-factor sign-in for the signed-in user (TOTP): set up (QR code and secret), confirm with a
 * code (the ten recovery codes are shown once), disable with a code. The owner also sets whether
 * every member must use it.
 *
 * @typedef {{secret: string, otpauthUri: string, qrCodeDataUrl: string}} TotpSetup
 */

/** @param {{role: string | null}} props the signed-in user's role (null while it loads) */
export function SecuritySection({ role }) {
  const [status, setStatus] = useState(
    /** @type {{enabled: boolean, requiredByAccount: boolean} | null} */ (null),
  );
  const [setup, setSetup] = useState(/** @type {TotpSetup | null} */ (null));
  const [recoveryCodes, setRecoveryCodes] = useState(/** @type {string[] | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [notice, setNotice] = useState('');
  /** The account policy the owner asked for, until confirmed or cancelled. */
  const [policyChange, setPolicyChange] = useState(/** @type {boolean | null} */ (null));

  async function load() {
    try {
      setStatus(await api('/api/v1/auth/mfa'));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => void load(), []);

  /** @param {() => Promise<void>} action */
  async function run(action) {
    try {
      await action();
      setError(null);
    } catch (err) {
      setError(err);
    }
  }

  const start = () =>
    run(async () => {
      setNotice('');
      setSetup(await api('/api/v1/auth/mfa/totp/setup', { method: 'POST' }));
    });

  /** @param {SubmitEvent} event */
  const enable = (event) => {
    event.preventDefault();
    const code = String(
      new FormData(/** @type {HTMLFormElement} */ (event.currentTarget)).get('code'),
    );
    return run(async () => {
      const res = await api('/api/v1/auth/mfa/totp/enable', { method: 'POST', body: { code } });
      setSetup(null);
      setRecoveryCodes(res.recoveryCodes);
      await load();
    });
  };

  /** @param {SubmitEvent} event */
  const disable = (event) => {
    event.preventDefault();
    const code = String(
      new FormData(/** @type {HTMLFormElement} */ (event.currentTarget)).get('code'),
    );
    return run(async () => {
      await api('/api/v1/auth/mfa/totp/disable', { method: 'POST', body: { code } });
      setNotice('Two-factor sign-in is off.');
      await load();
    });
  };

  /** @param {boolean} mfaRequired */
  const requireAll = (mfaRequired) =>
    run(async () => {
      setPolicyChange(null);
      await api('/api/v1/account/security', { method: 'PATCH', body: { mfaRequired } });
      setNotice(
        mfaRequired
          ? 'Every member now needs two-factor sign-in.'
          : 'Two-factor sign-in is now each member’s choice.',
      );
      await load();
    });

  return html`<${Section} id="security" title="Security">
    <${ErrorMessage} error=${error} />
    ${notice && html`<p role="status">${notice}</p>`}
    ${
      status === null
        ? html`<p>Loading…</p>`
        : html`<p data-testid="mfa-status">
            Two-factor sign-in is <strong>${status.enabled ? 'on' : 'off'}</strong> for you.
            ${status.requiredByAccount ? ' Your account requires it of every member.' : ''}
          </p>`
    }
    ${
      recoveryCodes &&
      html`<${RecoveryCodes} codes=${recoveryCodes} onDone=${() => setRecoveryCodes(null)} />`
    }
    ${
      status &&
      !status.enabled &&
      !recoveryCodes &&
      (setup
        ? html`<${Enrol} setup=${setup} onSubmit=${enable} onCancel=${() => setSetup(null)} />`
        : html`<button type="button" class="primary" onClick=${start}>
            Set up an authenticator app
          </button>`)
    }
    ${
      status?.enabled &&
      !recoveryCodes &&
      html`<form class="create-key" onSubmit=${disable}>
        <h3>Turn two-factor sign-in off</h3>
        <div class="field">
          <label for="mfa-disable-code">Current code or a recovery code</label>
          <input
            id="mfa-disable-code"
            name="code"
            autocomplete="one-time-code"
            required
            minlength="6"
            maxlength="32"
          />
        </div>
        <button type="submit" class="danger">Turn off</button>
      </form>`
    }
    ${
      role === 'owner' &&
      status &&
      html`<div class="row">
        <label class="check">
          <input
            type="checkbox"
            checked=${policyChange ?? status.requiredByAccount}
            disabled=${policyChange !== null}
            onChange=${(/** @type {Event} */ e) =>
              setPolicyChange(/** @type {HTMLInputElement} */ (e.currentTarget).checked)}
          />
          Require two-factor sign-in of every member
        </label>
      </div>`
    }
    ${
      policyChange !== null &&
      html`<${Confirm}
        title=${
          policyChange
            ? 'Require two-factor sign-in of every member?'
            : 'Stop requiring two-factor sign-in?'
        }
        action=${policyChange ? 'Require it' : 'Stop requiring it'}
        onConfirm=${() => requireAll(policyChange)}
        onCancel=${() => setPolicyChange(null)}
      >
        <p>
          ${
            policyChange
              ? 'Members without an authenticator app must set one up at their next sign-in before they get in. API keys keep working.'
              : 'Members may then sign in with their password alone. Those who set up an authenticator app keep using it.'
          }
        </p>
      <//>`
    }
  <//>`;
}

/**
 * The QR code to scan (or the secret to type), then the first code to confirm it.
 * @param {{setup: TotpSetup, onSubmit: (e: SubmitEvent) => void, onCancel: () => void}} props
 */
function Enrol({ setup, onSubmit, onCancel }) {
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => heading.current?.focus(), []);
  return html`<form class="create-key" onSubmit=${onSubmit}>
    <h3 tabindex="-1" ref=${heading}>Scan with your authenticator app</h3>
    <img
      src=${setup.qrCodeDataUrl}
      width="180"
      height="180"
      alt="QR code of the authenticator secret"
      data-testid="mfa-qr"
    />
    <p>Or type this secret: <code data-testid="mfa-secret">${setup.secret}</code></p>
    <div class="field">
      <label for="mfa-code">The 6-digit code the app shows</label>
      <input
        id="mfa-code"
        name="code"
        inputmode="numeric"
        autocomplete="one-time-code"
        pattern="[0-9]{6}"
        required
      />
    </div>
    <div class="row">
      <button type="submit" class="primary">Turn on</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
  </form>`;
}

/**
 * Shown once, like a new key: ten single-use codes for a lost phone.
 * @param {{codes: string[], onDone: () => void}} props
 */
export function RecoveryCodes({ codes, onDone }) {
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => heading.current?.focus(), []);
  return html`<div class="new-key" role="region" aria-labelledby="recovery-title">
    <h3 id="recovery-title" tabindex="-1" ref=${heading}>Your recovery codes</h3>
    <p>
      <strong>Shown only now.</strong> Each one signs you in once if you lose your phone; keep them
      somewhere safe.
    </p>
    <ul class="plain" data-testid="recovery-codes">
      ${codes.map((code) => html`<li key=${code}><code>${code}</code></li>`)}
    </ul>
    <button type="button" onClick=${onDone}>I have saved them</button>
  </div>`;
}
