import { keyMaterials, openWithAny } from './keyring';

describe('keyring', () => {
  const opener = (right: string) => (key: string) => {
    if (key !== right) throw new Error('Unsupported state or unable to authenticate data');
    return `opened by ${key}`;
  };

  it('opens with the current key (not stale), else an older one (stale), else not at all', () => {
    expect(openWithAny(['new', 'old'], opener('new'))).toEqual({
      plaintext: 'opened by new',
      stale: false,
    });
    expect(openWithAny(['new', 'old'], opener('old'))).toEqual({
      plaintext: 'opened by old',
      stale: true,
    });
    expect(openWithAny(['new', 'old'], opener('lost'))).toBeUndefined();
  });

  it('lists key materials newest first, once each, without blanks', () => {
    expect(keyMaterials('a', undefined, 'b', '', 'a', 'c')).toEqual(['a', 'b', 'c']);
  });
});
