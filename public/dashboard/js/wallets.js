// @ts-check
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { dateTime, sessionText, tokenAmount } from './format.js';
import { PolicyPanel } from './policy.js';
import { parseCredential, proveCredential } from './prove.js';
import { Address, ErrorMessage, Section } from './ui.js';

/**
 * @typedef {import('../../../clients/typescript/src/schema').components['schemas']} Schemas
 * @typedef {Schemas['PreflightResponseDto']} Preflight
 * @typedef {Schemas['BoundWalletResponse'] & {preflight?: Preflight, failure?: any}} WalletRow
 * @typedef {Schemas['VerifyResponse']} Verified
 */

/** Decimals per symbol, from GET /api/v1/defi/config (ETH is native: 18). */
/** @type {Record<string, number>} */
let decimals = { ETH: 18 };

/** @param {string} address @returns {Promise<Preflight>} */
const preflight = (address) => api(`/api/v1/defi/preflight/${address}`);

/** @param {{role?: string | null}} props */
export function WalletsSection({ role = null }) {
  const [wallets, setWallets] = useState(/** @type {WalletRow[] | null} */ (null));
  const [selected, setSelected] = useState(/** @type {string | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [busy, setBusy] = useState('');
  const [proved, setProved] = useState(/** @type {Verified | null} */ (null));

  async function load() {
    try {
      const config = await api('/api/v1/defi/config');
      decimals = {
        ETH: 18,
        ...Object.fromEntries(config.tokens.map((t) => [t.symbol, t.decimals])),
      };
      const list = /** @type {WalletRow[]} */ ((await api('/api/v1/wallets')).items);
      // Each wallet's session comes from its preflight (one batched chain read per wallet).
      const rows = await Promise.all(
        list.map((w) =>
          preflight(w.address).then(
            (p) => ({ ...w, preflight: p }),
            (failure) => ({ ...w, failure }),
          ),
        ),
      );
      setWallets(rows);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => void load(), []);

  /** @param {string} label @param {() => Promise<unknown>} action */
  async function run(label, action) {
    setBusy(label);
    try {
      await action();
      setError(null);
      await load();
    } catch (err) {
      setError(err);
    } finally {
      setBusy('');
    }
  }

  /** @param {SubmitEvent} event */
  function bind(event) {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const walletAddress = String(new FormData(form).get('walletAddress')).trim();
    void run('bind', async () => {
      await api('/api/v1/onboarding/register', { method: 'POST', body: { walletAddress } });
      form.reset();
    });
  }

  /** @param {string} walletAddress */
  const activate = (walletAddress) =>
    run(`activate ${walletAddress}`, () =>
      api('/api/v1/onboarding/activate-session-demo', { method: 'POST', body: { walletAddress } }),
    );

  /** @param {string} walletAddress */
  const activateFromAttestation = (walletAddress) =>
    run(`activate ${walletAddress}`, () =>
      api('/api/v1/onboarding/activate-session-attestation', {
        method: 'POST',
        body: { walletAddress },
      }),
    );

  /**
   * A credential file chosen on the wallet's row: a challenge, a proof made in the page with the
   * circuit files this service serves (js/prove.js), then POST /verify opens the session.
   * @param {string} walletAddress @param {Event} event
   */
  function proveFromFile(walletAddress, event) {
    const input = /** @type {HTMLInputElement} */ (event.currentTarget);
    const file = input.files?.[0];
    if (!file) return;
    setProved(null);
    void run(`prove ${walletAddress}`, async () => {
      try {
        const credential = parseCredential(await file.text());
        if (credential.wallet.toLowerCase() !== walletAddress.toLowerCase())
          throw new Error(`This credential is for ${credential.wallet}, not ${walletAddress}`);
        const { challenge } = await api(
          `/api/v1/verify/challenge?walletAddress=${encodeURIComponent(walletAddress)}`,
        );
        const body = await proveCredential(credential, challenge);
        setProved(await api('/api/v1/verify', { method: 'POST', body }));
      } finally {
        input.value = '';
      }
    });
  }

  const chosen = wallets?.find((w) => w.address === selected);
  return html`<${Section} id="wallets" title="Wallets and sessions">
    <form class="bind" onSubmit=${bind}>
      <label for="wallet-address">Wallet address</label>
      <div class="copy-row">
        <input
          id="wallet-address"
          name="walletAddress"
          required
          pattern="0x[0-9a-fA-F]{40}"
          placeholder="0x…"
          autocomplete="off"
          spellcheck="false"
        />
        <button type="submit" class="primary" disabled=${busy === 'bind'}>Bind wallet</button>
      </div>
    </form>
    <${ErrorMessage} error=${error} />
    <p class="status" role="status">
      ${busy.startsWith('activate') ? 'Activating the session…' : ''}
      ${busy.startsWith('prove') ? 'Proving the credential in this page…' : ''}
    </p>
    ${
      proved &&
      html`<p class="status" data-testid="proof-result">
        Session of <${Address} address=${proved.walletAddress} /> opened by a credential of
        issuer${' '} <strong>${proved.issuer.name}</strong>, active until
        ${dateTime(proved.activeUntil)}
      </p>`
    }
    ${
      wallets === null
        ? html`<p>Loading wallets…</p>`
        : wallets.length === 0
          ? html`<p>No wallet is bound to your account yet.</p>`
          : html`<ul class="wallets">
              ${wallets.map(
                (w) =>
                  html`<li key=${w.address} data-address=${w.address}>
                    <div class="wallet-facts">
                      <${Address} address=${w.address} />
                      <span
                        class=${`session${w.preflight?.session.sanctioned ? ' sanctioned' : ''}`}
                        data-testid="session"
                      >
                        ${
                          w.preflight
                            ? sessionText(w.preflight.session)
                            : `Session unknown: ${w.failure?.message ?? ''}`
                        }
                      </span>
                      <span class="muted">bound ${dateTime(w.boundAt)}</span>
                    </div>
                    <div class="row">
                      <button
                        type="button"
                        onClick=${() => activate(w.address)}
                        disabled=${busy !== ''}
                        aria-label=${`Activate a demo session for ${w.address}`}
                      >
                        Activate demo session
                      </button>
                      <button
                        type="button"
                        onClick=${() => activateFromAttestation(w.address)}
                        disabled=${busy !== ''}
                        aria-label=${`Activate a session for ${w.address} from its attestation`}
                      >
                        Activate from attestation
                      </button>
                      <label class=${`file-button${busy !== '' ? ' disabled' : ''}`}>
                        Prove from a credential file…
                        <input
                          type="file"
                          accept="application/json,.json"
                          onChange=${(/** @type {Event} */ e) => proveFromFile(w.address, e)}
                          disabled=${busy !== ''}
                          aria-label=${`Credential file for ${w.address}`}
                        />
                      </label>
                      <button
                        type="button"
                        onClick=${() => setSelected(w.address)}
                        aria-label=${`Show the preflight of ${w.address}`}
                        aria-expanded=${selected === w.address}
                      >
                        Preflight
                      </button>
                    </div>
                  </li>`,
              )}
            </ul>`
    }
    ${chosen?.preflight && html`<${PreflightView} preflight=${chosen.preflight} />`}
    <${PolicyPanel} role=${role} />
  <//>`;
}

/**
 * A wallet's preflight in words: its session, the balance of every token read (every token of the
 * market by default) and each allowance through Permit2, and what to do next.
 * @param {{preflight: Preflight}} props
 */
function PreflightView({ preflight: p }) {
  const symbols = Object.keys(p.balances);
  const tokens = Object.keys(p.allowances.swap);
  const sanctioned = p.session.sanctioned === true;
  return html`<div class="preflight" role="region" aria-label=${`Preflight of ${p.address}`}>
    <h3>Preflight of <${Address} address=${p.address} /></h3>
    <p>
      ${p.walletBound ? 'Bound to your account' : 'Not bound to your account'}
      ${` · ${sessionText(p.session)}`}
    </p>
    <div class="columns">
      <div>
        <h4>Balances</h4>
        <dl class="pairs" data-testid="balances">
          ${symbols.map(
            (s) =>
              html`<div key=${s}>
                <dt>${s}</dt>
                <dd>${tokenAmount(p.balances[s], decimals[s] ?? 18)}</dd>
              </div>`,
          )}
        </dl>
      </div>
      <div>
        <h4>Allowances (through Permit2)</h4>
        <dl class="pairs">
          ${
            /** @type {const} */ (['swap', 'liquidity']).flatMap((use) =>
              tokens.map(
                (t) =>
                  html`<div key=${use + t}>
                    <dt>${t} for ${use === 'swap' ? 'swaps' : 'liquidity'}</dt>
                    <dd>${tokenAmount(p.allowances[use][t], decimals[t] ?? 18)}</dd>
                  </div>`,
              ),
            )
          }
        </dl>
      </div>
    </div>
    <h4>Next actions</h4>
    ${
      sanctioned
        ? html`<p>
            None: the network's sanctions oracle lists this wallet, so activations and trades are
            refused (WALLET_SANCTIONED) until it is removed from the list.
          </p>`
        : p.nextActions.length === 0
          ? html`<p>Nothing to do: the wallet is ready to trade.</p>`
          : html`<ol data-testid="next-actions">
              ${p.nextActions.map((a, i) => html`<li key=${i}>${a.description}</li>`)}
            </ol>`
    }
  </div>`;
}
