import { registerDecorator, ValidationOptions } from 'class-validator';

/** Structural bounds only (sizes, types); field ranges and the pairing are the verifier's (PROOF_INVALID). */
const DECIMAL = /^[0-9]{1,78}$/;
const PROOF_KEYS = new Set(['pi_a', 'pi_b', 'pi_c', 'protocol', 'curve']);

const isDecimal = (v: unknown) => typeof v === 'string' && DECIMAL.test(v);
const isTuple = (v: unknown, length: number, item: (e: unknown) => boolean): boolean =>
  Array.isArray(v) && v.length === length && v.every(item);
const isG1 = (v: unknown) => isTuple(v, 3, isDecimal);
const isG2 = (v: unknown) => isTuple(v, 3, (pair) => isTuple(pair, 2, isDecimal));
const isShortString = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= 16);

/** A snarkjs Groth16 proof object: exactly pi_a (3), pi_b (3x2), pi_c (3) decimal strings, optional protocol/curve. */
export function isGroth16ProofShape(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proof = value as Record<string, unknown>;
  return (
    Object.keys(proof).every((key) => PROOF_KEYS.has(key)) &&
    isG1(proof.pi_a) &&
    isG2(proof.pi_b) &&
    isG1(proof.pi_c) &&
    isShortString(proof.protocol) &&
    isShortString(proof.curve)
  );
}

export function IsGroth16ProofShape(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isGroth16Proof',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message:
          '$property must be a snarkjs Groth16 proof: { pi_a: [3 decimal strings], pi_b: [3 pairs of decimal strings], pi_c: [3 decimal strings], protocol?, curve? }',
        ...options,
      },
      validator: { validate: (value: unknown) => isGroth16ProofShape(value) },
    });
}
