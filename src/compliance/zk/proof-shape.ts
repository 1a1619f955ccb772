import { PUBLIC_SIGNAL_COUNT } from './compliance-circuit';
import { BN254_BASE_FIELD, parseFieldElement } from './field';
import type { Groth16Proof } from './snarkjs';

/** Outcome of a shape check: the normalised value, or why it was refused. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const PROOF_KEYS = new Set(['pi_a', 'pi_b', 'pi_c', 'protocol', 'curve']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCoordinate(value: unknown): value is string {
  return parseFieldElement(value, BN254_BASE_FIELD) !== null;
}

/** An affine G1 point as snarkjs writes it: [x, y, "1"]. */
function isG1(value: unknown): value is [string, string, string] {
  return (
    Array.isArray(value) &&
    value.length === 3 &&
    isCoordinate(value[0]) &&
    isCoordinate(value[1]) &&
    value[2] === '1'
  );
}

/** An affine G2 point as snarkjs writes it: [[x0, x1], [y0, y1], ["1", "0"]]. */
function isG2(value: unknown): value is Groth16Proof['pi_b'] {
  const pair = (v: unknown) =>
    Array.isArray(v) && v.length === 2 && isCoordinate(v[0]) && isCoordinate(v[1]);
  return (
    Array.isArray(value) &&
    value.length === 3 &&
    pair(value[0]) &&
    pair(value[1]) &&
    value[2]?.[0] === '1' &&
    value[2]?.[1] === '0' &&
    value[2].length === 2
  );
}

/**
 * Strict shape of a snarkjs Groth16 proof: exactly pi_a, pi_b, pi_c (affine, canonical decimal
 * coordinates below the base field) and optionally protocol "groth16" / curve "bn128".
 * Whether the points lie on the curve is left to snarkjs (`isWellConstructed`).
 */
export function parseGroth16Proof(value: unknown): Parsed<Groth16Proof> {
  if (!isPlainObject(value)) return { ok: false, message: 'proof must be an object' };
  const unknownKey = Object.keys(value).find((k) => !PROOF_KEYS.has(k));
  if (unknownKey !== undefined)
    return { ok: false, message: `proof has an unknown field "${unknownKey}"` };
  if (value.protocol !== undefined && value.protocol !== 'groth16') {
    return { ok: false, message: 'proof.protocol must be "groth16"' };
  }
  if (value.curve !== undefined && value.curve !== 'bn128') {
    return { ok: false, message: 'proof.curve must be "bn128"' };
  }
  if (!isG1(value.pi_a))
    return {
      ok: false,
      message: 'proof.pi_a must be an affine G1 point [x, y, "1"] of decimal strings',
    };
  if (!isG2(value.pi_b))
    return {
      ok: false,
      message:
        'proof.pi_b must be an affine G2 point [[x0, x1], [y0, y1], ["1", "0"]] of decimal strings',
    };
  if (!isG1(value.pi_c))
    return {
      ok: false,
      message: 'proof.pi_c must be an affine G1 point [x, y, "1"] of decimal strings',
    };
  return {
    ok: true,
    value: {
      pi_a: [...value.pi_a],
      pi_b: [[...value.pi_b[0]], [...value.pi_b[1]], ['1', '0']],
      pi_c: [...value.pi_c],
      protocol: 'groth16',
      curve: 'bn128',
    },
  };
}

/** Exactly PUBLIC_SIGNAL_COUNT canonical decimal strings, each below the scalar field. */
export function parsePublicSignals(value: unknown): Parsed<string[]> {
  if (!Array.isArray(value) || value.length !== PUBLIC_SIGNAL_COUNT) {
    return {
      ok: false,
      message: `publicSignals must be an array of ${PUBLIC_SIGNAL_COUNT} decimal strings`,
    };
  }
  const bad = value.findIndex((s) => parseFieldElement(s) === null);
  if (bad !== -1) {
    return {
      ok: false,
      message: `publicSignals[${bad}] must be a decimal string below the BN254 scalar field`,
    };
  }
  return { ok: true, value: [...(value as string[])] };
}
