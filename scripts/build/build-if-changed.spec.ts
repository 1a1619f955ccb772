import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildIfChanged, buildIfChangedLocked } = require('./build-if-changed.cjs') as {
  buildIfChanged(root: string, build: () => number): { built: boolean; status: number };
  buildIfChangedLocked(root: string, build: () => number): { built: boolean; status: number };
};

/**
 * A process that asks for a locked build whose "build" logs its start and end to build.log around
 * a 300 ms pause; resolves with its exit code.
 */
function lockedBuildProcess(root: string): Promise<number | null> {
  const script = `
    const fs = require('node:fs');
    const { buildIfChangedLocked } = require(${JSON.stringify(join(__dirname, 'build-if-changed.cjs'))});
    const root = ${JSON.stringify(root)};
    const log = (line) => fs.appendFileSync(root + '/build.log', line + '\\n');
    const result = buildIfChangedLocked(root, () => {
      log('start ' + process.pid);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      log('end ' + process.pid);
      return 0;
    });
    process.exitCode = result.status;
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

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

  it('under the lock, concurrent callers build once and never interleave', async () => {
    const codes = await Promise.all([1, 2, 3].map(() => lockedBuildProcess(root)));
    expect(codes).toEqual([0, 0, 0]);
    const log = readFileSync(join(root, 'build.log'), 'utf8').trim().split('\n');
    // One build, start then end of the same process; the others found the fingerprint fresh.
    expect(log).toHaveLength(2);
    expect(log[0].replace('start', 'end')).toBe(log[1]);
    expect(existsSync(join(root, 'dist', '.build.lock'))).toBe(false);
  });

  it('takes over a lock whose owner died, and releases it when a build fails', async () => {
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.once('exit', resolve));
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', '.build.lock'), String(dead.pid));
    expect(buildIfChangedLocked(root, () => 1)).toEqual({ built: true, status: 1 });
    expect(existsSync(join(root, 'dist', '.build.lock'))).toBe(false);
    expect(buildIfChangedLocked(root, build)).toEqual({ built: true, status: 0 });
  });
});
