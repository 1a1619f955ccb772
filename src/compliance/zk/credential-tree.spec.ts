import { poseidon2 } from 'poseidon-lite';
import { CREDENTIAL_TREE_DEPTH } from './compliance-circuit';
import { CredentialTree } from './credential-tree';

/** The root the circuit's MerkleRoot template computes from a leaf and its path. */
function rootFromPath(leaf: string, siblings: string[], pathIndices: number[]): string {
  let node = BigInt(leaf);
  siblings.forEach((sibling, i) => {
    node =
      pathIndices[i] === 1
        ? poseidon2([BigInt(sibling), node])
        : poseidon2([node, BigInt(sibling)]);
  });
  return node.toString();
}

describe(CredentialTree.name, () => {
  it('gives each leaf a depth-20 path that hashes up to the root, as the circuit does', () => {
    const tree = CredentialTree.fromLeaves(['11', '22', '33']);
    for (const [index, leaf] of ['11', '22', '33'].entries()) {
      const path = tree.path(index);
      expect(path.siblings).toHaveLength(CREDENTIAL_TREE_DEPTH);
      expect(path.pathIndices.slice(0, 2)).toEqual([index & 1, (index >> 1) & 1]);
      expect(rootFromPath(leaf, path.siblings, path.pathIndices)).toBe(tree.root);
    }
  });

  it('changes the root when a leaf is revoked (emptied), and the old path no longer reaches it', () => {
    const before = CredentialTree.fromLeaves(['11', '22']);
    const after = CredentialTree.fromLeaves(['11', null]);
    expect(after.root).not.toBe(before.root);
    const old = before.path(1);
    expect(rootFromPath('22', old.siblings, old.pathIndices)).not.toBe(after.root);
    // The surviving credential gets a fresh path to the new root.
    const fresh = after.path(0);
    expect(rootFromPath('11', fresh.siblings, fresh.pathIndices)).toBe(after.root);
  });

  it('an empty tree has the all-zero root (no credential hashes to 0)', () => {
    expect(CredentialTree.fromLeaves([]).root).toBe(CredentialTree.fromLeaves([null]).root);
  });
});
