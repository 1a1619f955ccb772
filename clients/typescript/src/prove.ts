/**
 * Proving a compliance credential without the service's repository: the circuit's files come from
 * the service (GET /verify/artifacts names them with their SHA-256; they are served at
 * /zk/<sha256>/<file>), are checked against those hashes, and snarkjs proves in Node or in the
 * browser. The result is the body of POST /verify.
 *
 *   const body = await proveCredential(credential, challenge, { baseUrl });
 *   await api.POST('/api/v1/verify', { body });
 */
// The ambient declaration of snarkjs (it ships none), for programs that compile this file alone.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./snarkjs.d.ts" />
import * as snarkjs from 'snarkjs';
import type { components } from './schema';

/** A credential file as the issuer hands it to the wallet holder (version 2). */
export interface CredentialFile {
  version: 2;
  wallet: string;
  expiresAt: number;
  leaf: string;
  issuer: { x: string; y: string };
  signature: { R8x: string; R8y: string; S: string };
  credentialSecret: string;
  leafIndex: number;
  merkle: { root: string; siblings: string[]; pathIndices: number[] };
}

export type ProvingArtifacts = components['schemas']['ProvingArtifactsResponse'];
export type VerifyBody = components['schemas']['VerifyProofDto'];

export interface ProveOptions {
  /** Where the service answers, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  /** The unix time the proof claims (default: this machine's clock; the service allows 5 min). */
  now?: number;
  /** fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
  /**
   * Pin the files: the SHA-256 you expect (e.g. from an earlier GET /verify/artifacts you trust);
   * a service listing other files is refused. Default: the hashes the service lists.
   */
  expectedSha256?: { wasm?: string; zkey?: string };
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function download(
  get: typeof fetch,
  url: string,
  sha256: string,
  pinned: string | undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  if (pinned !== undefined && pinned !== sha256)
    throw new Error(`the service lists ${url} with SHA-256 ${sha256}, not the pinned ${pinned}`);
  const res = await get(url);
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const actual = await sha256Hex(bytes);
  if (actual !== sha256) throw new Error(`GET ${url}: SHA-256 ${actual}, expected ${sha256}`);
  return bytes;
}

/** The circuit's input (circuits/compliance_credential.circom) for this credential and statement. */
function circuitInput(c: CredentialFile, challenge: string, now: number) {
  if (!/^0x[0-9a-fA-F]{40}$/.test(c.wallet)) throw new Error('credential.wallet is not an address');
  return {
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
}

/**
 * Proves "I hold this unexpired credential" for `challenge` (from GET /verify/challenge) with the
 * files the service at `baseUrl` serves, each checked against its SHA-256. Returns the body of
 * POST /verify. Throws for an expired credential (the circuit cannot prove it) or a file whose
 * hash does not match.
 */
export async function proveCredential(
  credential: CredentialFile,
  challenge: string,
  options: ProveOptions,
): Promise<VerifyBody> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (credential.version !== 2) throw new Error('not a compliance credential file (version 2)');
  if (credential.expiresAt <= now)
    throw new Error(
      `the credential expired at ${new Date(credential.expiresAt * 1000).toISOString()}`,
    );
  const get = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const listed = await get(`${base}/verify/artifacts`);
  if (!listed.ok) throw new Error(`GET /verify/artifacts: HTTP ${listed.status}`);
  const artifacts = (await listed.json()) as ProvingArtifacts;
  const [wasm, zkey] = await Promise.all([
    download(get, base + artifacts.wasm.url, artifacts.wasm.sha256, options.expectedSha256?.wasm),
    download(get, base + artifacts.zkey.url, artifacts.zkey.sha256, options.expectedSha256?.zkey),
  ]);
  // Node: one thread (snarkjs' worker threads would keep the process alive); browsers: its default.
  const inNode =
    typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions
      ?.node === 'string';
  const { proof, publicSignals } = await snarkjs.groth16.fullProve(
    circuitInput(credential, challenge, now),
    wasm,
    zkey,
    undefined,
    undefined,
    { singleThread: inNode },
  );
  return { walletAddress: credential.wallet, proof, publicSignals } as VerifyBody;
}
