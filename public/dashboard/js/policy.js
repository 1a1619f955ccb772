// @ts-check
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import {
  draftOf,
  essentials,
  limitsOf,
  list,
  summary,
  thresholdsOf,
  unknownOf,
} from './policy-text.js';
import { ErrorMessage } from './ui.js';

/**
 * The account's compliance policy (GET/PUT /api/v1/compliance/policy): which sources open a
 * session, which countries are allowed or denied, what happens to a wallet whose country cannot
 * be established (countries.unknown), the shortest session worth opening, and the
 * trade rules (issue 54: where they are enforced, the tokens allowed, limits per trade and per
 * 24 h). Owners and admins change it; other members read it.
 *
 * The form keeps what the user types in its own state (a re-render of the page, e.g. the wallets
 * loading, never puts the stored values back over it), sends the stored policy with the form's
 * fields in place (members the form does not show are kept), and reports what the service saved,
 * read from its answer: a save that differs from what was sent is said so, never "saved". On a
 * refusal the input stays, and each detail is shown next to its field.
 *
 * countries.unknown: the control shows what applies. While the stored policy leaves it unset and
 * the user has not chosen, it follows the lists typed (refuse once a country is listed, the
 * service's default) and is not sent, so the default stays the service's. Once set, stored or
 * chosen, it is sent as shown, lists emptied or not: emptying both lists never changes it behind
 * the user's back, and the form's line under it and the summary of the save say what it does.
 */

/** Members of the GET answer the service fills in itself: not sent back. */
const READ_ONLY = ['authMethod', 'updatedAt', 'knownSources'];

/** The form's fields, as typed, and where each detail of a refusal is shown. */
const FIELDS = /** @type {const} */ ({
  names: 'sources.names',
  allow: 'countries.allow',
  deny: 'countries.deny',
  minSessionSeconds: 'minSessionSeconds',
  tokens: 'trading.tokens',
  limits: 'trading.limits',
  approvalsAbove: 'trading.approvals.above',
  approvalsQuorum: 'trading.approvals.quorum',
  approvalsRoles: 'trading.approvals.roles',
  approvalsTtl: 'trading.approvals.ttlSeconds',
});

/** @param {unknown} detail @param {string} field */
const isFor = (detail, field) => {
  const named = /** @type {{field?: unknown}} */ (detail)?.field;
  return (
    typeof named === 'string' &&
    (named === field || named.startsWith(`${field}.`) || named.startsWith(`${field}[`))
  );
};

/** @param {{role: string | null}} props */
export function PolicyPanel({ role }) {
  const [policy, setPolicy] = useState(/** @type {any} */ (null));
  const [draft, setDraft] = useState(/** @type {ReturnType<typeof draftOf> | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [saved, setSaved] = useState(/** @type {{text: string, asSent: boolean} | null} */ (null));
  const [busy, setBusy] = useState(false);
  const canEdit = role === 'owner' || role === 'admin';

  async function load() {
    try {
      const loaded = await api('/api/v1/compliance/policy');
      setPolicy(loaded);
      setDraft(draftOf(loaded));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => void load(), []);

  /** @param {keyof ReturnType<typeof draftOf>} field @returns {(e: Event) => void} */
  const edit = (field) => (e) => {
    const value = /** @type {HTMLInputElement} */ (e.currentTarget).value;
    setDraft((current) => (current ? { ...current, [field]: value } : current));
  };

  /** @param {SubmitEvent} event */
  async function save(event) {
    event.preventDefault();
    if (!draft || busy) return;
    const allow = list(draft.allow);
    const deny = list(draft.deny);
    const stored = Object.fromEntries(
      Object.entries(policy).filter(([key]) => !READ_ONLY.includes(key)),
    );
    const {
      allow: _allow,
      deny: _deny,
      unknown: _unknown,
      ...otherCountryRules
    } = policy.countries ?? {};
    const body = {
      ...stored,
      sources: { ...policy.sources, mode: draft.mode, names: list(draft.names) },
      countries: {
        ...otherCountryRules,
        ...(allow.length ? { allow } : {}),
        ...(deny.length ? { deny } : {}),
        ...(draft.unknown ? { unknown: draft.unknown } : {}),
      },
      minSessionSeconds: Number(draft.minSessionSeconds || 0),
    };
    const tokens = list(draft.tokens);
    const limits = limitsOf(draft.limits);
    // Trade rules: none, or the form's with the members it does not show (approvals) kept.
    if (draft.enforcement === '') delete body.trading;
    else {
      const {
        tokens: _tokens,
        limits: _limits,
        approvals: _approvals,
        ...otherTradeRules
      } = policy.trading ?? {};
      const above = thresholdsOf(draft.approvalsAbove);
      body.trading = {
        ...otherTradeRules,
        enforcement: draft.enforcement,
        ...(tokens.length ? { tokens: { allow: tokens } } : {}),
        ...(limits.length ? { limits } : {}),
        // Four eyes (issue 55): none without a threshold.
        ...(above.length
          ? {
              approvals: {
                above,
                quorum: Number(draft.approvalsQuorum),
                roles: list(draft.approvalsRoles),
                ttlSeconds: Number(draft.approvalsTtl),
              },
            }
          : {}),
      };
    }
    setBusy(true);
    setSaved(null);
    try {
      const answer = await api('/api/v1/compliance/policy', { method: 'PUT', body });
      setPolicy(answer);
      setDraft(draftOf(answer));
      setError(null);
      setSaved({ text: summary(answer), asSent: essentials(answer) === essentials(body) });
    } catch (err) {
      setError(err); // the draft stays as typed
    } finally {
      setBusy(false);
    }
  }

  if (!policy || !draft) return html`<${ErrorMessage} error=${error} />`;
  /** @param {keyof typeof FIELDS} field */
  const problems = (field) =>
    (error?.details ?? []).filter((/** @type {unknown} */ d) => isFor(d, FIELDS[field]));
  /**
   * A labelled text field of the draft, with the refusal's details about it below it (and the
   * field marked invalid, described by them).
   * @param {keyof typeof FIELDS} field @param {string} label @param {Record<string, string>} [extra]
   */
  const textField = (field, label, extra = {}) => {
    const id = `policy-${field === 'minSessionSeconds' ? 'min' : field}`;
    const found = problems(field);
    return html`<div class="field">
      <label for=${id}>${label}</label>
      <input
        id=${id}
        name=${field}
        value=${draft[field]}
        onInput=${edit(field)}
        disabled=${!canEdit}
        autocomplete="off"
        spellcheck="false"
        aria-invalid=${found.length > 0 ? 'true' : undefined}
        aria-describedby=${found.length > 0 ? `${id}-error` : undefined}
        ...${extra}
      />
      ${
        found.length > 0 &&
        html`<p class="field-error" id=${`${id}-error`}>
          ${found.map((/** @type {any} */ d) => d.message).join('; ')}
        </p>`
      }
    </div>`;
  };
  const shownAtFields = (/** @type {unknown} */ d) =>
    Object.values(FIELDS).some((field) => isFor(d, field));
  const listed = list(draft.allow).length > 0 || list(draft.deny).length > 0;
  const unknown = draft.unknown || unknownOf({ allow: list(draft.allow), deny: list(draft.deny) });

  return html`<div class="policy" role="region" aria-labelledby="policy-title">
    <h3 id="policy-title">Compliance policy</h3>
    <p class="muted">
      Applied by every session activation. Sources you may name:${' '}
      ${policy.knownSources.map(
        (/** @type {{name: string}} */ s, /** @type {number} */ i) =>
          html`${i > 0 ? ', ' : ''}<code key=${s.name}>${s.name}</code>`,
      )}.
    </p>
    <form class="policy-form" onSubmit=${save}>
      <div class="field">
        <label for="policy-mode">Sources needed</label>
        <select
          id="policy-mode"
          name="mode"
          value=${draft.mode}
          onChange=${edit('mode')}
          disabled=${!canEdit}
        >
          <option value="any">Any of the sources named</option>
          <option value="all">All of the sources named</option>
        </select>
      </div>
      ${textField('names', 'Source names (comma-separated; empty: any accepted source)')}
      ${textField(
        'allow',
        'Allowed countries (ISO 3166-1 alpha-2 codes, e.g. FR, DE; empty: every country)',
        { placeholder: 'FR, DE' },
      )}
      ${textField('deny', 'Denied countries (ISO 3166-1 alpha-2 codes, e.g. KP, IR)', {
        placeholder: 'KP, IR',
      })}
      <div class="field">
        <label for="policy-unknown">A wallet whose country cannot be established</label>
        <select
          id="policy-unknown"
          name="unknown"
          value=${unknown}
          onChange=${edit('unknown')}
          disabled=${!canEdit}
          aria-describedby="policy-unknown-hint"
        >
          <option value="refuse">Refuse</option>
          <option value="allow">Allow</option>
        </select>
        <p class="hint field-hint" id="policy-unknown-hint" data-testid="policy-unknown-hint">
          ${
            unknown === 'allow'
              ? 'Allowed: a wallet without a valid country attestation of an accepted source is not judged by the country lists.'
              : listed
                ? 'Refused: a wallet without a valid country attestation of an accepted source opens no session, so hiding its country lifts no list.'
                : 'Refused, though no country is listed: every wallet without a valid country attestation opens no session.'
          }
        </p>
      </div>
      ${textField('minSessionSeconds', 'Shortest session in seconds (0: no minimum)', {
        type: 'number',
        min: '0',
      })}
      <div class="field">
        <label for="policy-enforcement">Trade rules</label>
        <select
          id="policy-enforcement"
          name="enforcement"
          value=${draft.enforcement}
          onChange=${edit('enforcement')}
          disabled=${!canEdit}
        >
          <option value="">None: a session is enough to trade</option>
          <option value="service">Applied to this service's builds</option>
          <option value="onchain">Enforced on chain (hook v3 authorizes each trade)</option>
        </select>
      </div>
      ${textField('tokens', 'Tokens allowed (symbols, e.g. WETH, tUSDC; empty: every token)', {
        placeholder: 'WETH, tUSDC',
      })}
      ${textField(
        'limits',
        'Limits in whole tokens: SYMBOL per-trade/per-24h, - for none (e.g. WETH 2/5)',
        { placeholder: 'WETH 2/5, tUSDC -/10000' },
      )}
      ${textField(
        'approvalsAbove',
        'Approvals above, in whole tokens: SYMBOL amount (e.g. tUSDC 10000; empty: none)',
        { placeholder: 'tUSDC 10000, WETH 5' },
      )}
      ${textField('approvalsQuorum', 'Approvals needed (distinct members, not the requester)', {
        type: 'number',
        min: '1',
        max: '10',
      })}
      ${textField('approvalsRoles', 'Roles that approve (e.g. owner, admin)', {
        placeholder: 'owner, admin',
      })}
      ${textField('approvalsTtl', 'Approval requests stay open (seconds)', {
        type: 'number',
        min: '60',
      })}
      ${
        canEdit &&
        html`<button type="submit" class="primary" disabled=${busy}>
          ${busy ? 'Saving…' : 'Save policy'}
        </button>`
      }
    </form>
    <${ErrorMessage} error=${error} except=${shownAtFields} />
    ${
      saved &&
      html`<p
        class=${saved.asSent ? 'status' : 'warning'}
        role=${saved.asSent ? 'status' : 'alert'}
        data-testid="policy-saved"
      >
        ${saved.asSent ? 'Policy saved: ' : 'Saved, but not as sent. The policy now reads: '}
        ${saved.text}.
      </p>`
    }
  </div>`;
}
