// @ts-check

/**
 * The compliance policy form's text (public/dashboard/js/policy.js): the fields as typed, read
 * from a policy and back, and what a policy reads as in the summary of a save. Pure: no page, no
 * service.
 */

/**
 * Approval thresholds as typed (issue 55): `SYMBOL amount` entries, comma-separated (e.g.
 * `tUSDC 10000, WETH 5`).
 * @param {string} text
 */
export function thresholdsOf(text) {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [token, amount = ''] = entry.split(/\s+(.*)/);
      return { token, amount: amount.trim() };
    });
}

/** @param {any} trading @returns {string} */
const thresholdsText = (trading) =>
  (trading?.approvals?.above ?? [])
    .map((/** @type {any} */ t) => `${t.token} ${t.amount}`)
    .join(', ');

/**
 * Limits as typed: `SYMBOL perTrade/perDay` entries, comma-separated, `-` for no limit of that
 * kind (e.g. `WETH 2/5, tUSDC -/10000`).
 * @param {string} text
 */
export function limitsOf(text) {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [token, amounts = ''] = entry.split(/\s+(.*)/);
      const [perTrade = '-', perDay = '-'] = amounts.replace(/\s/g, '').split('/');
      return {
        token,
        ...(perTrade && perTrade !== '-' ? { perTrade } : {}),
        ...(perDay && perDay !== '-' ? { perDay } : {}),
      };
    });
}

/** @param {any} trading @returns {string} */
const limitsText = (trading) =>
  (trading?.limits ?? [])
    .map((/** @type {any} */ l) => `${l.token} ${l.perTrade ?? '-'}/${l.perDay ?? '-'}`)
    .join(', ');

/**
 * What applies to a wallet whose country no source establishes: the policy's own choice, else
 * refuse where a country is listed. The service's effectiveUnknown (src/compliance/policy/
 * policy-rules.ts), which the page cannot import.
 * @param {{allow?: string[], deny?: string[], unknown?: string}} countries
 * @returns {string}
 */
export const unknownOf = (countries) =>
  countries.unknown ??
  ((countries.allow?.length ?? 0) > 0 || (countries.deny?.length ?? 0) > 0 ? 'refuse' : 'allow');

/** @param {string} text @returns {string[]} */
export const list = (text) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** @param {string[]} items */
const unique = (items) => [...new Set(items)];

/** @param {any} policy the typed fields of a policy */
export function draftOf(policy) {
  return {
    mode: String(policy.sources.mode),
    names: policy.sources.names.join(', '),
    allow: (policy.countries.allow ?? []).join(', '),
    deny: (policy.countries.deny ?? []).join(', '),
    // '' while the policy leaves it unset: the control then follows the lists typed.
    unknown: String(policy.countries.unknown ?? ''),
    minSessionSeconds: String(policy.minSessionSeconds),
    enforcement: String(policy.trading?.enforcement ?? ''),
    tokens: (policy.trading?.tokens?.allow ?? []).join(', '),
    limits: limitsText(policy.trading),
    approvalsAbove: thresholdsText(policy.trading),
    approvalsQuorum: String(policy.trading?.approvals?.quorum ?? 2),
    approvalsRoles: (policy.trading?.approvals?.roles ?? ['owner', 'admin']).join(', '),
    approvalsTtl: String(policy.trading?.approvals?.ttlSeconds ?? 3600),
  };
}

/**
 * What the form's fields say, as the service stores it (country codes in capitals, each once):
 * the basis of the "saved as sent" comparison.
 * @param {any} policy
 */
export function essentials(policy) {
  return JSON.stringify({
    mode: policy.sources.mode,
    names: unique(policy.sources.names),
    allow: unique((policy.countries.allow ?? []).map((/** @type {string} */ c) => c.toUpperCase())),
    deny: unique((policy.countries.deny ?? []).map((/** @type {string} */ c) => c.toUpperCase())),
    unknown: unknownOf(policy.countries),
    minSessionSeconds: policy.minSessionSeconds,
    enforcement: policy.trading?.enforcement ?? null,
    tokens: (policy.trading?.tokens?.allow ?? []).length,
    limits: (policy.trading?.limits ?? []).length,
    approvals: (policy.trading?.approvals?.above ?? []).length,
  });
}

/** @param {any} policy @returns {string} */
export function summary(policy) {
  const names = policy.sources.names;
  const allow = policy.countries.allow ?? [];
  const deny = policy.countries.deny ?? [];
  return [
    names.length === 0
      ? 'any accepted source'
      : `${policy.sources.mode === 'all' ? 'all' : 'any'} of ${names.join(', ')}`,
    `allowed countries: ${allow.length === 0 ? 'every country' : allow.join(', ')}`,
    `denied countries: ${deny.length === 0 ? 'none' : deny.join(', ')}`,
    `wallets without a country: ${unknownOf(policy.countries) === 'refuse' ? 'refused' : 'allowed'}`,
    `shortest session: ${policy.minSessionSeconds} s`,
    policy.trading
      ? `trade rules (${policy.trading.enforcement}): tokens ${
          policy.trading.tokens ? policy.trading.tokens.allow.join(', ') : 'any'
        }, limits ${limitsText(policy.trading) || 'none'}${
          policy.trading.approvals
            ? `, approvals: ${policy.trading.approvals.quorum} of ${policy.trading.approvals.roles.join(', ')} above ${thresholdsText(policy.trading)}`
            : ''
        }`
      : 'no trade rules',
  ].join('; ');
}
