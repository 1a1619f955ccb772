import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BuiltAppProcess, ensureDistBuilt, startBuiltApp } from '../helpers/built-app-process';

const ROOT = join(__dirname, '..', '..');

/** The Dockerfile's deps and runtime stages (what the image runs with), continuation lines joined. */
function runtimeStage(): string {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  return dockerfile.slice(dockerfile.indexOf(' AS deps'));
}

/** The build-context paths the runtime stage copies (`COPY src... dest`, not --from). */
function runtimeStageCopies(): string[] {
  return [...runtimeStage().matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) =>
    m[1].split(' '),
  );
}

/** The deps stage's install command (`RUN rm -rf node_modules && npm ci --omit=dev ...`), as written. */
function runtimeInstall(): string {
  const run = /^RUN (rm -rf node_modules && npm ci --omit=dev.*)$/m.exec(runtimeStage());
  if (!run) throw new Error('the Dockerfile deps stage has no RUN ... npm ci --omit=dev');
  return run[1];
}

function run(command: string, args: string[], cwd: string, timeoutMs: number) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * The Dockerfile's runtime stage, run without a container (none runs on this machine: see
 * scripts/deploy/deploy-files.spec.ts): the files it copies and dist/ in an empty folder,
 * `npm ci --omit=dev` there, then the server and the CLI started from it. A runtime import of a
 * devDependency (ts-node, swc, a package only the tests install) fails here.
 */
describe('The image runtime recipe (npm ci --omit=dev)', () => {
  let dir: string;
  let app: BuiltAppProcess | undefined;

  beforeAll(async () => {
    ensureDistBuilt();
    dir = mkdtempSync(join(tmpdir(), 'cgk-image-runtime-'));
    for (const path of runtimeStageCopies())
      cpSync(join(ROOT, path), join(dir, path), { recursive: true });
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
    // As written, but the machine's npm cache is shared with other work: not cleaned here.
    const install = await run(
      'sh',
      ['-c', runtimeInstall().replace(/&& npm cache clean --force\s*/, '')],
      dir,
      540_000,
    );
    if (install.code !== 0) throw new Error(`npm ci --omit=dev failed:\n${install.output}`);
  }, 600_000);
  afterAll(() => {
    app?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies what the runtime reads and installs no devDependency', () => {
    expect(runtimeStageCopies()).toEqual(
      expect.arrayContaining(['package.json', 'package-lock.json', 'public/', 'circuits/build/']),
    );
    const devDependencies = Object.keys(
      (
        JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
          devDependencies: Record<string, string>;
        }
      ).devDependencies,
    );
    const installed = (name: string) => {
      try {
        readFileSync(join(dir, 'node_modules', name, 'package.json'));
        return true;
      } catch {
        return false;
      }
    };
    expect(
      devDependencies.filter(
        (name) =>
          ['jest', 'ts-node', '@swc/core', 'typescript', 'eslint'].includes(name) &&
          installed(name),
      ),
    ).toEqual([]);
  });

  it('starts dist/main.js on its embedded devnet and answers ready', async () => {
    app = await startBuiltApp({ DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' }, dir);
    const ready = await fetch(`http://127.0.0.1:${app.port}/health/ready`);
    expect(ready.status).toBe(200);
    // The whole request pipeline (guards, the error catalogue) loads: a call without a key is refused.
    const config = await fetch(`http://127.0.0.1:${app.port}/api/v1/defi/config`);
    expect(config.status).toBe(401);
    expect(await config.json()).toMatchObject({ code: expect.any(String), phase: 'auth' });
    // A SIGTERM drains and ends it (its exit status is the drain's business: issue 43, metrics/logs).
    const running = app;
    app = undefined;
    const ended = await running.stop();
    expect(ended.code === 0 || ended.signal === 'SIGTERM').toBe(true);
  }, 120_000);

  it('runs the built CLI without ts-node or a build (node dist/cli/main.js)', async () => {
    const help = await run(process.execPath, ['dist/cli/main.js', '--help'], dir, 30_000);
    expect(help.code).toBe(0);
    expect(help.output).toContain('users reset-mfa --email EMAIL');
    const keys = await run(
      process.execPath,
      ['dist/cli/main.js', 'keys', 'generate', '--json'],
      dir,
      60_000,
    );
    expect(keys.code).toBe(0);
    expect(JSON.parse(keys.output)).toHaveProperty('attesterAddress');
  }, 120_000);
});
