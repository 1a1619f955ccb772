import { CREDENTIAL_TREE_DEPTH } from './compliance-circuit';
import type { SignedCredential } from './credential-issuer';
import type { MerklePath } from './credential-tree';
import { isEvmAddress, parseFieldElement } from './field';

/**
 * What the issuer hands the holder (`npm run cli -- credentials issue ... --out FILE`) and what
 * `npm run zk:prove -- --credential FILE` reads: the holder's secret, the signed credential with
 * its expiry, and the Merkle path of its leaf in the issuer's tree when it was issued.
 */
export type CredentialFile = SignedCredential & {
  version: 2;
  credentialSecret: string;
  leafIndex: number;
  merkle: MerklePath;
};

const isField = (v: unknown) => parseFieldElement(v) !== null;

/** Checks a parsed credential file; throws a message naming the first bad field. */
export function parseCredentialFile(value: unknown): CredentialFile {
  const c = value as Partial<CredentialFile> | null;
  const fail = (field: string) => {
    throw new Error(`not a compliance credential file (version 2): bad or missing "${field}"`);
  };
  if (typeof c !== 'object' || c === null || c.version !== 2) fail('version');
  if (!isEvmAddress(c!.wallet)) fail('wallet');
  if (!isField(c!.credentialSecret)) fail('credentialSecret');
  if (!Number.isSafeInteger(c!.expiresAt) || c!.expiresAt! <= 0) fail('expiresAt');
  if (!isField(c!.leaf)) fail('leaf');
  if (!isField(c!.issuer?.x) || !isField(c!.issuer?.y)) fail('issuer');
  const sig = c!.signature;
  if (!isField(sig?.R8x) || !isField(sig?.R8y) || !isField(sig?.S)) fail('signature');
  if (!Number.isSafeInteger(c!.leafIndex) || c!.leafIndex! < 0) fail('leafIndex');
  const m = c!.merkle;
  if (
    !isField(m?.root) ||
    !Array.isArray(m?.siblings) ||
    m.siblings.length !== CREDENTIAL_TREE_DEPTH ||
    !m.siblings.every(isField) ||
    !Array.isArray(m.pathIndices) ||
    m.pathIndices.length !== CREDENTIAL_TREE_DEPTH ||
    !m.pathIndices.every((i) => i === 0 || i === 1)
  )
    fail('merkle');
  return c as CredentialFile;
}
