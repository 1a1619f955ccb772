import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { flattenValidationErrors } from './validation-exception.factory';
import { IsPrintableName, isPrintableName, printableNameProblem } from './is-printable-name';

class NamedDto {
  @IsPrintableName()
  name: string;
}

describe('isPrintableName', () => {
  it.each([
    'CI pipeline',
    'Zoë & Søren',
    '東京 本番',
    'مفتاح الإنتاج',
    'עברית ו-English',
    'deploy 🚀',
    'a',
    'tab-free: key #2 (prod)',
  ])('accepts %p', (name) => {
    expect(isPrintableName(name)).toBe(true);
  });

  it.each([
    ['right-to-left override', 'invoice\u202Egpj.exe', 'U+202E'],
    ['left-to-right embedding', '\u202Aname', 'U+202A'],
    ['pop directional formatting', 'name\u202C', 'U+202C'],
    ['right-to-left isolate', 'a\u2067b', 'U+2067'],
    ['pop directional isolate', 'a\u2069', 'U+2069'],
    ['zero-width space', 'ad\u200Bmin', 'U+200B'],
    ['zero-width joiner', 'a\u200Db', 'U+200D'],
    ['right-to-left mark', 'a\u200Fb', 'U+200F'],
    ['word joiner', 'a\u2060b', 'U+2060'],
    ['byte order mark', '\uFEFFkey', 'U+FEFF'],
    ['soft hyphen', 'pay\u00ADroll', 'U+00AD'],
    ['NUL', 'key\u0000', 'U+0000'],
    ['CRLF', 'key\r\nINFO forged log line', 'U+000D'],
    ['line feed', 'a\nb', 'U+000A'],
    ['tab', 'a\tb', 'U+0009'],
    ['escape (terminal colours)', '\u001B[31mred', 'U+001B'],
    ['DEL', 'a\u007F', 'U+007F'],
    ['C1 control', 'a\u0085b', 'U+0085'],
    ['line separator', 'a\u2028b', 'U+2028'],
    ['paragraph separator', 'a\u2029b', 'U+2029'],
    ['lone surrogate', 'a\uD800b', 'U+D800'],
    ['tag character', 'a\u{E0041}', 'U+E0041'],
  ])('refuses a %s, naming it', (_label, name, code) => {
    expect(isPrintableName(name)).toBe(false);
    const problem = printableNameProblem('name', name);
    expect(problem).toContain(code);
    expect(problem).toMatch(/control characters.*bidirectional.*zero-width/);
  });

  it('refuses a name of spaces only, and anything but a string', () => {
    expect(printableNameProblem('name', '   ')).toBe('name must contain a visible character');
    expect(printableNameProblem('name', '\u3000')).toBe('name must contain a visible character');
    for (const value of [42, null, undefined, ['a'], { a: 1 }]) {
      expect(isPrintableName(value)).toBe(false);
    }
  });

  it('as a decorator: one detail for the field, saying which character is refused', async () => {
    const errors = await validate(plainToInstance(NamedDto, { name: 'ok\u202Efdp.exe' }));
    expect(flattenValidationErrors(errors)).toEqual([
      {
        field: 'name',
        constraint: 'isPrintableName',
        message: expect.stringMatching(/^name contains U\+202E; names may not hold control/),
      },
    ]);
    expect(await validate(plainToInstance(NamedDto, { name: 'fine' }))).toEqual([]);
    const notString = await validate(plainToInstance(NamedDto, { name: 7 }));
    expect(flattenValidationErrors(notString)[0].message).toBe('name must be a string');
  });
});
