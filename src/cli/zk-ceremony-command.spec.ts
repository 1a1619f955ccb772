import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliUsageError, splitCommand } from './cli-usage';
import { contributionsFromLog, zkCeremonyCommand } from './zk-ceremony-command';

describe('zk ceremony (arguments; the ceremony itself: test/compliance/zk-ceremony.e2e-spec.ts)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'zk-ceremony-args-'));
    writeFileSync(join(dir, 'in.zkey'), 'not read: the arguments are refused first');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is a command of three words', () => {
    expect(splitCommand(['zk', 'ceremony', 'verify', '--in', 'a.zkey'])).toEqual({
      command: 'zk ceremony verify',
      args: ['--in', 'a.zkey'],
    });
  });

  it.each([
    [['init', '--out', 'x.zkey'], /--ptau FILE .* or --new-ptau FILE/],
    [
      ['contribute', '--in', 'a', '--out', 'b', '--name', 'n', '--beacon', 'ff'],
      /takes no --beacon/,
    ],
    [['verify', '--in', 'missing.zkey', '--ptau', 'p'], /--in missing\.zkey: no such file/],
    [
      ['finalize', '--in', 'IN', '--beacon', 'xyz', '--out', 'f', '--vkey', 'v'],
      /--beacon must be hex/,
    ],
    [
      [
        'finalize',
        '--in',
        'IN',
        '--beacon',
        'ab',
        '--iterations',
        '9',
        '--out',
        'f',
        '--vkey',
        'v',
      ],
      /--iterations must be a whole number from 10 to 63/,
    ],
    [
      ['contribute', '--in', 'IN', '--out', 'IN', '--name', 'n'],
      /in\.zkey exists: choose a new file/,
    ],
  ])('refuses %j with a usage error', async (args, message) => {
    const [verb, ...rest] = args.map((a) => (a === 'IN' ? join(dir, 'in.zkey') : a));
    const run = zkCeremonyCommand(verb as 'init', rest);
    await expect(run).rejects.toBeInstanceOf(CliUsageError);
    await expect(run).rejects.toThrow(message);
  });

  it("reads the contributions, names, hashes and beacon from snarkjs' verify log", () => {
    const hash = (word: string) =>
      `\t\t${Array(4).fill(word).join(' ')}\n\t\t${Array(4).fill(word).join(' ')}\n\t\t${Array(4).fill(word).join(' ')}\n\t\t${Array(4).fill(word).join(' ')}`;
    const lines = [
      `Circuit Hash: \n${hash('00000000')}`,
      '-------------------------',
      `contribution #2 final beacon:\n${hash('bbbbbbbb')}`,
      'Beacon generator: 0102',
      'Beacon iterations Exp: 10',
      '-------------------------',
      `contribution #1 party one:\n${hash('aaaaaaaa')}`,
      'ZKey Ok!',
    ];
    expect(contributionsFromLog(lines)).toEqual([
      { index: 1, name: 'party one', hash: 'aaaaaaaa'.repeat(16) },
      {
        index: 2,
        name: 'final beacon',
        hash: 'bbbbbbbb'.repeat(16),
        beacon: { hash: '0102', iterationsExp: 10 },
      },
    ]);
  });
});
