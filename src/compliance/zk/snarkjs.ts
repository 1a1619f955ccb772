/**
 * Typed facade over the few snarkjs 0.7 functions we use (snarkjs ships no type declarations).
 *
 * Threads: snarkjs reuses one bn128 curve cached on `globalThis.curve_bn128`; when none is cached
 * it builds a multi-threaded one whose worker threads keep a process alive until `terminate()`.
 * `withBn128Curve` pins a single-threaded curve there instead (no workers, nothing to clean up),
 * which is also the faster choice for verifying (a few group operations and one pairing check).
 * See ffjavascript src/bn128.js (`buildBn128(singleThread)`).
 */

/** The ceremony steps that powers-of-tau and zkey files share (same arguments in snarkjs). */
type CeremonyContribute = (
  oldFile: string,
  newFile: string,
  name: string,
  entropy: string,
  logger?: Logger,
) => Promise<unknown>;
type CeremonyBeacon = (
  oldFile: string,
  newFile: string,
  name: string,
  beaconHash: string,
  numIterationsExp: number,
  logger?: Logger,
) => Promise<unknown>;

export type Groth16Proof = {
  pi_a: [string, string, string];
  pi_b: [[string, string], [string, string], [string, string]];
  pi_c: [string, string, string];
  protocol: 'groth16';
  curve: 'bn128';
};

export type Groth16VerificationKey = {
  protocol: 'groth16';
  curve: 'bn128';
  nPublic: number;
  vk_alpha_1: string[];
  vk_beta_2: string[][];
  vk_gamma_2: string[][];
  vk_delta_2: string[][];
  IC: string[][];
  [key: string]: unknown;
};

type Logger = {
  info: (...a: unknown[]) => void;
  warn: (...a: unknown[]) => void;
  error: (...a: unknown[]) => void;
  debug: (...a: unknown[]) => void;
};

type Curve = { terminate: () => Promise<void> };

export type SnarkJs = {
  groth16: {
    fullProve(
      input: Record<string, unknown>,
      wasmFile: string,
      zkeyFile: string,
    ): Promise<{ proof: Groth16Proof; publicSignals: string[] }>;
    verify(vk: unknown, publicSignals: unknown, proof: unknown, logger?: Logger): Promise<boolean>;
  };
  powersOfTau: {
    newAccumulator(curve: Curve, power: number, file: string, logger?: Logger): Promise<unknown>;
    contribute: CeremonyContribute;
    beacon: CeremonyBeacon;
    preparePhase2(o: string, n: string, l?: Logger): Promise<unknown>;
  };
  zKey: {
    newZKey(r1cs: string, ptau: string, zkey: string, l?: Logger): Promise<unknown>;
    contribute: CeremonyContribute;
    beacon: CeremonyBeacon;
    exportVerificationKey(zkey: string, l?: Logger): Promise<Groth16VerificationKey>;
    verifyFromR1cs(r1cs: string, ptau: string, zkey: string, l?: Logger): Promise<boolean>;
  };
  r1cs: {
    info(
      file: string,
      l?: Logger,
    ): Promise<{ nConstraints: number; nVars: number; nPubInputs: number; nOutputs: number }>;
  };
  curves: { getCurveFromName(name: string, options?: { singleThread?: boolean }): Promise<Curve> };
};

let loaded: SnarkJs | undefined;

/**
 * snarkjs, loaded on first use: the service's main thread needs it only to prove (CLI, tests) or
 * to verify inline (ZK_VERIFY_THREADS=0); the worker threads load their own. Loading it (with
 * ffjavascript and wasmcurves) at start cost ~3 MB of heap for nothing (docs/architecture.md, "Why hand-written").
 */
export function loadSnarkjs(): SnarkJs {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('snarkjs') as SnarkJs);
}

type CurveGlobal = { curve_bn128?: Curve | null };

let singleThreadCurve: Promise<Curve> | undefined;

/**
 * Runs `fn` with a single-threaded bn128 curve cached where snarkjs looks for it. Another curve
 * already cached there (e.g. a multi-threaded one built by a build script) is left in place.
 * Checked on every call: loading another copy of ffjavascript resets the global to null.
 */
export async function withBn128Curve<T>(fn: () => Promise<T>): Promise<T> {
  const g = globalThis as CurveGlobal;
  if (!g.curve_bn128) {
    singleThreadCurve ??= loadSnarkjs()
      .curves.getCurveFromName('bn128', { singleThread: true })
      .catch((error: unknown) => {
        singleThreadCurve = undefined;
        throw error;
      });
    const curve = await singleThreadCurve;
    g.curve_bn128 ??= curve;
  }
  return fn();
}
