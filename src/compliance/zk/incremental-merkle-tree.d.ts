// The package ships types (dist/types) but its `exports` map does not point to them, so Node16+
// resolution cannot find them: this declares the part we use, as the package's own types say.
declare module '@zk-kit/incremental-merkle-tree' {
  export class IncrementalMerkleTree {
    constructor(
      hash: (values: bigint[]) => bigint,
      depth: number,
      zeroValue: bigint,
      arity?: number,
      leaves?: bigint[],
    );
    get root(): bigint;
    get leaves(): bigint[];
    insert(leaf: bigint): void;
    delete(index: number): void;
    createProof(index: number): {
      root: bigint;
      leaf: bigint;
      siblings: bigint[][];
      pathIndices: number[];
    };
  }
}
