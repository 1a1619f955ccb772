// @ts-check
/**
 * The dashboard's API client: same origin, Bearer access token in memory only (never in storage),
 * refreshed a minute before it expires and once more when a call answers JWT_INVALID.
 * Failures become ApiFailure carrying the envelope's code, message and hint.
 *
 * @typedef {import('../../../clients/typescript/src/schema').components['schemas']} Schemas
 * @typedef {Schemas['TokenPairResponse']} TokenPair
 * @typedef {Schemas['ErrorEnvelope']} ErrorEnvelope
 */

const REFRESH_MARGIN_S = 60;

export class ApiFailure extends Error {
  /** @param {number} status @param {Partial<ErrorEnvelope>} body */
  constructor(status, body) {
    super(body.message ?? `Request failed (HTTP ${status})`);
    this.status = status;
    this.code = body.code ?? 'HTTP_' + status;
    this.hint = body.hint ?? '';
    /** @type {unknown[]} */
    this.details = body.details ?? [];
  }
}

/** @type {{access: string, refresh: string} | null} */
let tokens = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let refreshTimer;
/** @type {Promise<void> | null} */
let refreshing = null;
/** @type {() => void} */
let onSignedOut = () => {};

/** @param {() => void} listener called when the login ends (sign out, or refresh refused) */
export function onSessionEnd(listener) {
  onSignedOut = listener;
}

export const isSignedIn = () => tokens !== null;

/** @param {string} path @param {RequestInit} init */
async function send(path, init = {}) {
  const headers = new Headers(init.headers);
  if (init.body) headers.set('Content-Type', 'application/json');
  if (tokens) headers.set('Authorization', `Bearer ${tokens.access}`);
  const res = await fetch(path, { ...init, headers, cache: 'no-store' });
  const body = res.status === 204 ? {} : await res.json().catch(() => ({}));
  return { res, body };
}

/**
 * A POST to a public route (sign-up, invitations): JSON in, JSON out, an ApiFailure on a refusal.
 * @param {string} path @param {unknown} body
 */
export async function publicPost(path, body) {
  const { res, body: answer } = await send(path, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new ApiFailure(res.status, answer);
  return answer;
}

/** @param {TokenPair} pair */
function keep(pair) {
  tokens = { access: pair.accessToken, refresh: pair.refreshToken };
  clearTimeout(refreshTimer);
  const inMs = Math.max(5, pair.expiresIn - REFRESH_MARGIN_S) * 1000;
  refreshTimer = setTimeout(() => void refresh().catch(() => undefined), inMs);
}

function forget() {
  tokens = null;
  clearTimeout(refreshTimer);
  onSignedOut();
}

/**
 * @param {string} email @param {string} password
 * @param {string} [otp] the second factor (MFA_REQUIRED without it when the user has one)
 * @returns {Promise<TokenPair>} (with `recoveryCodes` once, when this login finished enrolling)
 */
export async function signIn(email, password, otp) {
  const { res, body } = await send('/auth/login', {
    method: 'POST',
    body: JSON.stringify(otp ? { email, password, otp } : { email, password }),
  });
  if (!res.ok) throw new ApiFailure(res.status, body);
  keep(body);
  return body;
}

/** Single-use refresh tokens: concurrent callers share one rotation. */
export function refresh() {
  refreshing ??= (async () => {
    const current = tokens;
    if (!current) return;
    const { res, body } = await send('/auth/refresh', {
      method: 'POST',
      body: JSON.stringify({ refreshToken: current.refresh }),
    });
    if (!res.ok) {
      forget();
      throw new ApiFailure(res.status, body);
    }
    keep(body);
  })().finally(() => (refreshing = null));
  return refreshing;
}

export async function signOut() {
  const current = tokens;
  if (current) {
    await send('/auth/logout', {
      method: 'POST',
      body: JSON.stringify({ refreshToken: current.refresh }),
    }).catch(() => undefined);
  }
  forget();
}

/**
 * A call to the API with the current access token.
 * @param {string} path
 * @param {{method?: string, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  const init = {
    method: options.method ?? 'GET',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  };
  let { res, body } = await send(path, init);
  if (res.status === 401 && body.code === 'JWT_INVALID' && tokens) {
    await refresh();
    ({ res, body } = await send(path, init));
  }
  if (!res.ok) throw new ApiFailure(res.status, body);
  return body;
}
