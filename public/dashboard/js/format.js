// @ts-check
/** Pure display helpers: dates, token amounts, counts. */

const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** @param {string | null | undefined} iso @param {string} [none] */
export function dateTime(iso, none = '—') {
  return iso ? DATE_TIME.format(new Date(iso)) : none;
}

/** @param {number} n */
export const count = (n) => n.toLocaleString('en-US');

/** Allowances this large are the "max" approvals (Permit2 caps them at 2^160 - 1): shown as unlimited. */
const UNLIMITED = 2n ** 159n;

/**
 * A decimal-string amount in a token's smallest unit, in whole tokens (at most 6 decimals shown).
 * @param {string} raw @param {number} decimals
 */
export function tokenAmount(raw, decimals) {
  const value = BigInt(raw);
  if (value >= UNLIMITED) return 'unlimited';
  const unit = 10n ** BigInt(decimals);
  const whole = value / unit;
  const shown = Math.min(decimals, 6);
  const fraction = ((value % unit) * 10n ** BigInt(shown)) / unit;
  const fractionText = fraction.toString().padStart(shown, '0').replace(/0+$/, '');
  const wholeText = whole.toLocaleString('en-US');
  return fractionText ? `${wholeText}.${fractionText}` : wholeText;
}

/** @param {string} address */
export const shortAddress = (address) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/**
 * A wallet's session in words. A wallet the sanctions oracle lists has none, whatever the
 * registry still holds: every build and activation refuses it (WALLET_SANCTIONED).
 * @param {{active: boolean, activeUntil: string | null, sanctioned?: boolean}} session
 */
export function sessionText(session) {
  if (session.sanctioned) return 'Sanctioned: no session, every trade is refused';
  if (session.active) return `Active until ${dateTime(session.activeUntil)}`;
  if (session.activeUntil) return `Expired ${dateTime(session.activeUntil)}`;
  return 'No session';
}
