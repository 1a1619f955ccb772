import { poseidon2 } from 'poseidon-lite';

import { CREDENTIAL_TREE_DEPTH } from './compliance-circuit';

/**
 * The part of @zk-kit/incremental-merkle-tree we use. The package ships types, but its `exports`
 * map does not point to them, so Node16+ resolution cannot see them (same pattern as snarkjs.ts).
 */
type IncrementalMerkleTree = {
  readonly root: bigint;
  readonly leaves: bigint[];
  insert(leaf: bigint): void;
  createProof(index: number): { siblings: bigint[][]; pathIndices: number[] };
};
type IncrementalMerkleTreeClass = new (
  hash: (values: bigint[]) => bigint,
  depth: number,
  zeroValue: bigint,
  arity: number,
) => IncrementalMerkleTree;

const { IncrementalMerkleTree } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@zk-kit/incremental-merkle-tree') as {
    IncrementalMerkleTree: IncrementalMerkleTreeClass;
  };

/** A leaf's path to the root, as the circuit takes it (decimal strings; 1 = right child). */
export type MerklePath = { root: string; siblings: string[]; pathIndices: number[] };

/**
 * The issuer's tree of valid credentials: binary, Poseidon(left, right), depth 20, empty leaves 0
 * (no credential hashes to 0, so an empty slot proves nothing). A revoked credential's leaf is set
 * back to 0, which changes the root. Built on @zk-kit/incremental-merkle-tree.
 */
export class CredentialTree {
  private readonly tree: IncrementalMerkleTree = new IncrementalMerkleTree(
    (values: bigint[]) => poseidon2(values),
    CREDENTIAL_TREE_DEPTH,
    0n,
    2,
  );

  /** Leaves in index order; null is an empty (revoked) slot. */
  static fromLeaves(leaves: (string | null)[]): CredentialTree {
    const tree = new CredentialTree();
    for (const leaf of leaves) tree.tree.insert(leaf === null ? 0n : BigInt(leaf));
    return tree;
  }

  get root(): string {
    return this.tree.root.toString();
  }

  get size(): number {
    return this.tree.leaves.length;
  }

  path(index: number): MerklePath {
    const proof = this.tree.createProof(index);
    return {
      root: this.root,
      siblings: proof.siblings.map((s) => s[0].toString()),
      pathIndices: proof.pathIndices,
    };
  }
}
