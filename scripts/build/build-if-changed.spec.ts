import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildIfChanged } = require('./build-if-changed.cjs') as {
  buildIfChanged(root: string, build: () => number): { built: boolean; status: number };
};

describe('build-if-changed (npm run cli)', () => {
  let root: string;
  let builds: number;
  const build = () => {
    builds += 1;
    mkdirSync(join(root, 'dist'), { recursive: true });
    return 0;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-if-changed-'));
    builds = 0;
    mkdirSync(join(root, 'src', 'cli'), { recursive: true });
    writeFileSync(join(root, 'src', 'cli', 'main.ts'), 'export {};\n');
    writeFileSync(join(root, 'package-lock.json'), '{}');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds once, then not again until a source changes', () => {
    expect(buildIfChanged(root, build)).toEqual({ built: true, status: 0 });
    expect(buildIfChanged(root, build)).toEqual({ built: false, status: 0 });
    expect(builds).toBe(1);

    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'src', 'cli', 'main.ts'), later, later);
    expect(buildIfChanged(root, build).built).toBe(true);
    writeFileSync(join(root, 'src', 'cli', 'new-command.ts'), 'export {};\n');
    expect(buildIfChanged(root, build).built).toBe(true);
    rmSync(join(root, 'src', 'cli', 'new-command.ts'));
    expect(buildIfChanged(root, build).built).toBe(true);
    expect(builds).toBe(4);
  });

  it('a spec file does not rebuild; the lockfile does', () => {
    buildIfChanged(root, build);
    writeFileSync(join(root, 'src', 'cli', 'main.spec.ts'), 'test;\n');
    expect(buildIfChanged(root, build).built).toBe(false);
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'package-lock.json'), later, later);
    expect(buildIfChanged(root, build).built).toBe(true);
  });

  it('a failed build leaves no fingerprint, so the next call builds again', () => {
    expect(buildIfChanged(root, () => 1)).toEqual({ built: true, status: 1 });
    expect(buildIfChanged(root, build).built).toBe(true);
  });
});
