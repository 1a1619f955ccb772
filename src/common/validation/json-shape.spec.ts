import { checkJsonShape, hasLoneSurrogate, MAX_JSON_DEPTH, MAX_JSON_KEYS } from './json-shape';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe(checkJsonShape.name, () => {
  it('accepts bodies up to the depth limit and refuses one level more', () => {
    expect(checkJsonShape(bytes(nested(MAX_JSON_DEPTH)))).toBeUndefined();
    expect(checkJsonShape(bytes(nested(MAX_JSON_DEPTH + 1)))).toEqual({
      rule: 'maxDepth',
      limit: MAX_JSON_DEPTH,
    });
    expect(checkJsonShape(bytes('['.repeat(5_000)))).toMatchObject({ rule: 'maxDepth' });
  });

  it('ignores brackets, colons and escaped quotes inside strings', () => {
    const text = JSON.stringify({ s: '{{{{[[[[:::\\"{{{{'.repeat(40), t: 'ü🙂\u0000' });
    expect(checkJsonShape(bytes(text), { maxDepth: 2, maxKeys: 2 })).toBeUndefined();
  });

  it('counts object members across the whole document', () => {
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: MAX_JSON_KEYS + 1 }, (_, i) => [`k${i}`, i])),
    );
    expect(checkJsonShape(bytes(wide))).toEqual({ rule: 'maxKeys', limit: MAX_JSON_KEYS });
    expect(checkJsonShape(bytes(JSON.stringify({ a: [{ b: 1 }, { c: 2 }] })))).toBeUndefined();
  });

  it('tells a lone UTF-16 surrogate from a pair (what encodeURI throws on)', () => {
    for (const lone of ['\ud800', 'a\udbffb', '\udc00', 'x\udfff', '😀\ud83d'])
      expect({ lone, found: hasLoneSurrogate(lone) }).toEqual({ lone, found: true });
    for (const fine of ['', 'plain', '😀', 'e\u0301', '\u202e0x41', '\u0000'])
      expect({ fine, found: hasLoneSurrogate(fine) }).toEqual({ fine, found: false });
    expect(() => encodeURI('\ud800')).toThrow(URIError);
  });
});
