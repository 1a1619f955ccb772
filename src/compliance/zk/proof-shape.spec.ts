import { PUBLIC_SIGNAL_COUNT } from './compliance-circuit';
import { BN254_BASE_FIELD, BN254_SCALAR_FIELD } from './field';
import { parseGroth16Proof, parsePublicSignals } from './proof-shape';

const valid = () => ({
  pi_a: ['1', '2', '1'],
  pi_b: [
    ['1', '2'],
    ['3', '4'],
    ['1', '0'],
  ],
  pi_c: ['5', '6', '1'],
  protocol: 'groth16',
  curve: 'bn128',
});

describe('parseGroth16Proof', () => {
  it('accepts the snarkjs layout, with or without protocol/curve, and normalises it', () => {
    expect(parseGroth16Proof(valid())).toEqual({ ok: true, value: valid() });
    const { protocol: _p, curve: _c, ...bare } = valid();
    expect(parseGroth16Proof(bare)).toEqual({ ok: true, value: valid() });
  });

  it.each([
    ['not an object', 'proof'],
    ['an array', [valid()]],
    ['null', null],
    ['an unknown key', { ...valid(), extra: 1 }],
    ['a short pi_a', { ...valid(), pi_a: ['1', '2'] }],
    ['a number coordinate', { ...valid(), pi_c: [5, '6', '1'] }],
    ['a hex coordinate', { ...valid(), pi_a: ['0x1', '2', '1'] }],
    ['a 79-digit coordinate', { ...valid(), pi_a: ['1'.repeat(79), '2', '1'] }],
    ['a coordinate equal to q', { ...valid(), pi_a: [BN254_BASE_FIELD.toString(), '2', '1'] }],
    ['a projective z', { ...valid(), pi_c: ['5', '6', '2'] }],
    ['a flat pi_b', { ...valid(), pi_b: ['1', '2', '3'] }],
    [
      'a pi_b pair of three',
      {
        ...valid(),
        pi_b: [
          ['1', '2', '3'],
          ['3', '4'],
          ['1', '0'],
        ],
      },
    ],
    ['a long protocol', { ...valid(), protocol: 'g'.repeat(17) }],
    ['another curve', { ...valid(), curve: 'bls12381' }],
  ])('refuses %s with a message', (_label, value) => {
    expect(parseGroth16Proof(value)).toEqual({
      ok: false,
      message: expect.stringMatching(/proof/),
    });
  });
});

describe('parsePublicSignals', () => {
  const signals = () => Array.from({ length: PUBLIC_SIGNAL_COUNT }, (_, i) => String(i));

  it(`accepts exactly ${PUBLIC_SIGNAL_COUNT} canonical decimal field elements`, () => {
    expect(parsePublicSignals(signals())).toEqual({ ok: true, value: signals() });
  });

  it.each([
    ['too few', signals().slice(1)],
    ['too many', [...signals(), '1']],
    ['a number', [1, ...signals().slice(1)]],
    ['a leading zero', ['01', ...signals().slice(1)]],
    ['the field modulus', [BN254_SCALAR_FIELD.toString(), ...signals().slice(1)]],
    ['an object', { 0: '1' }],
  ])('refuses %s', (_label, value) => {
    expect(parsePublicSignals(value)).toEqual({
      ok: false,
      message: expect.stringMatching(/publicSignals/),
    });
  });
});
