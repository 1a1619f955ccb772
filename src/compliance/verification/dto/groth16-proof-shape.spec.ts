import { isGroth16ProofShape } from './groth16-proof-shape';

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

describe('isGroth16ProofShape', () => {
  it('accepts the snarkjs layout, with or without protocol/curve', () => {
    expect(isGroth16ProofShape(valid())).toBe(true);
    const { protocol: _p, curve: _c, ...bare } = valid();
    expect(isGroth16ProofShape(bare)).toBe(true);
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
  ])('refuses %s', (_label, value) => {
    expect(isGroth16ProofShape(value)).toBe(false);
  });
});
