// @ts-check
/**
 * The dashboard's API client: same origin, Bearer access token in memory only (never in storage),
 * refreshed a minute before it expires and once more when a call answers JWT_INVALID. The refresh
 * token never reaches this page: the login asks for it in the HttpOnly `cgk_refresh` cookie
 * (refreshTokenIn: "cookie"), which the browser sends to POST /auth/refresh only, so a reload
 * resumes the login with one refresh. Local storage keeps only a flag saying a login may be
 * resumable (no token), so a signed-out page asks nothing of the service.
 * Failures become ApiFailure carrying the envelope's code, message, hint and details.
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

/** @type {{access: string} | null} */
let tokens = null;
/** Set while a login may be resumed from the cookie (a flag, never a token). */
const RESUMABLE = 'cgk.dashboard.resumable';
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
  tokens = { access: pair.accessToken };
  localStorage.setItem(RESUMABLE, '1');
  clearTimeout(refreshTimer);
  const inMs = Math.max(5, pair.expiresIn - REFRESH_MARGIN_S) * 1000;
  refreshTimer = setTimeout(() => void refresh().catch(() => undefined), inMs);
}

function forget() {
  tokens = null;
  localStorage.removeItem(RESUMABLE);
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
    body: JSON.stringify({ email, password, ...(otp ? { otp } : {}), refreshTokenIn: 'cookie' }),
  });
  if (!res.ok) throw new ApiFailure(res.status, body);
  keep(body);
  return body;
}

/**
 * Rotates the cookie's refresh token for a new access token. Single-use refresh tokens:
 * concurrent callers share one rotation.
 */
export function refresh() {
  refreshing ??= (async () => {
    const { res, body } = await send('/auth/refresh', { method: 'POST', body: '{}' });
    if (!res.ok) {
      forget();
      throw new ApiFailure(res.status, body);
    }
    keep(body);
  })().finally(() => (refreshing = null));
  return refreshing;
}

/** After a reload: the login of the cookie, if this browser may have one; true when resumed. */
export async function resume() {
  if (localStorage.getItem(RESUMABLE) !== '1') return false;
  try {
    await refresh();
    return true;
  } catch {
    return false;
  }
}

/** Ends the login (named by its access token) and clears the cookie. */
export async function signOut() {
  if (tokens) await api('/auth/logout', { method: 'POST', body: {} }).catch(() => undefined);
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
