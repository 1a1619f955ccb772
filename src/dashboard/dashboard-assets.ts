import { dirname, join } from 'node:path';

/** Where the dashboard answers (same origin as the API: no CORS needed). */
export const DASHBOARD_PATH = '/dashboard';

/**
 * The page's own files (public/dashboard at the repository root: plain ES modules, no build step).
 * This file sits two levels below the root both as src/dashboard (ts-node, jest) and dist/dashboard.
 */
export const DASHBOARD_ASSETS_DIR = join(__dirname, '..', '..', 'public', 'dashboard');

/** Preact + hooks + htm in one ES module with no bare imports, so the browser needs no import map. */
export const UI_LIBRARY_FILE = join(
  // htm/preact's folder (its exports map has no entry for the standalone ES module file).
  dirname(require.resolve('htm/preact')),
  'standalone.module.js',
);
export const UI_LIBRARY_PATH = '/vendor/preact-htm.js';
/**
 * snarkjs' browser build (a classic script defining globalThis.snarkjs; its exports map calls it
 * "umd"), for proving a credential file in the page (js/prove.js). Beside its main entry, build/.
 */
export const SNARKJS_FILE = join(dirname(require.resolve('snarkjs')), 'snarkjs.min.js');
export const SNARKJS_PATH = '/vendor/snarkjs.js';
/** Server facts the page needs before sign-in (the API key scopes). */
export const SETTINGS_PATH = '/settings.json';

/**
 * Only the service's own origin: scripts, styles, API calls, images. No inline script or style
 * (Preact sets styles through the CSSOM, which style-src does not govern), no framing.
 * 'wasm-unsafe-eval' lets the page compile WebAssembly (and nothing else: no eval, no Function):
 * proving a credential in the page runs the circuit's witness generator and snarkjs' curve code as
 * WebAssembly, which Chromium refuses to compile under a script-src without it.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
