// @ts-check
/**
 * Proving a compliance credential in the page, as clients/typescript/src/prove.ts
 * (proveCredential) does it: the circuit's files come from this service (GET /verify/artifacts
 * names them with their SHA-256; they are served at /zk/<sha256>/<file>), are checked against
 * those hashes with WebCrypto, and snarkjs (served by the dashboard at ../vendor/snarkjs.js: the
 * page loads nothing from another origin) proves on the page's thread. The result is the body of
 * POST /api/v1/verify. Keep the two in step: the circuit's input is the same object.
 *
 * @typedef {{version: 2, wallet: string, expiresAt: number, leaf: string,
 *   issuer: {x: string, y: string}, signature: {R8x: string, R8y: string, S: string},
 *   credentialSecret: string, leafIndex: number,
 *   merkle: {root: string, siblings: string[], pathIndices: number[]}}} CredentialFile
 */

const SNARKJS_URL = new URL('../vendor/snarkjs.js', import.meta.url).href;

/** @type {Promise<any> | null} */
let snarkjsLoaded = null;

/** snarkjs' browser build is a classic script defining globalThis.snarkjs: loaded once, on demand. */
function loadSnarkjs() {
  snarkjsLoaded ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SNARKJS_URL;
    script.onload = () => resolve(/** @type {any} */ (globalThis).snarkjs);
    script.onerror = () => {
      snarkjsLoaded = null;
      reject(new Error(`could not load ${SNARKJS_URL}`));
    };
    document.head.append(script);
  });
  return snarkjsLoaded;
}

/** @param {ArrayBuffer} bytes */
async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {{url: string, sha256: string}} artifact */
async function download(artifact) {
  const res = await fetch(artifact.url);
  if (!res.ok) throw new Error(`GET ${artifact.url}: HTTP ${res.status}`);
  const bytes = await res.arrayBuffer();
  const actual = await sha256Hex(bytes);
  if (actual !== artifact.sha256)
    throw new Error(`GET ${artifact.url}: SHA-256 ${actual}, expected ${artifact.sha256}`);
  return new Uint8Array(bytes);
}

/**
 * A credential file's text, checked enough to say what is wrong before proving.
 * @param {string} text @returns {CredentialFile}
 */
export function parseCredential(text) {
  /** @type {any} */
  let c;
  try {
    c = JSON.parse(text);
  } catch {
    throw new Error('the file is not JSON: choose the credential file your issuer gave you');
  }
  if (c?.version !== 2 || typeof c.wallet !== 'string' || !c.merkle || !c.signature)
    throw new Error('the file is not a compliance credential (version 2)');
  if (!/^0x[0-9a-fA-F]{40}$/.test(c.wallet)) throw new Error('credential.wallet is not an address');
  return c;
}

/**
 * Proves "I hold this unexpired credential" for `challenge` (GET /verify/challenge).
 * @param {CredentialFile} c @param {string} challenge @returns {Promise<{walletAddress: string, proof: unknown, publicSignals: string[]}>}
 */
export async function proveCredential(c, challenge) {
  const now = Math.floor(Date.now() / 1000);
  if (c.expiresAt <= now)
    throw new Error(`the credential expired at ${new Date(c.expiresAt * 1000).toISOString()}`);
  const listed = await fetch('/verify/artifacts');
  if (!listed.ok) throw new Error(`GET /verify/artifacts: HTTP ${listed.status}`);
  const artifacts = await listed.json();
  const [snarkjs, wasm, zkey] = await Promise.all([
    loadSnarkjs(),
    download(artifacts.wasm),
    download(artifacts.zkey),
  ]);
  const input = {
    issuerAx: c.issuer.x,
    issuerAy: c.issuer.y,
    wallet: BigInt(c.wallet.toLowerCase()).toString(10),
    challenge: BigInt(challenge).toString(),
    now: String(now),
    expiresAt: String(c.expiresAt),
    root: c.merkle.root,
    credentialSecret: c.credentialSecret,
    sigR8x: c.signature.R8x,
    sigR8y: c.signature.R8y,
    sigS: c.signature.S,
    siblings: c.merkle.siblings,
    pathIndices: c.merkle.pathIndices.map(String),
  };
  // One thread: snarkjs' workers start from blob: URLs, which the page's CSP does not allow.
  const { proof, publicSignals } = await snarkjs.groth16.fullProve(
    input,
    wasm,
    zkey,
    undefined,
    undefined,
    { singleThread: true },
  );
  return { walletAddress: c.wallet, proof, publicSignals };
}
