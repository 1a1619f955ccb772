import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { unsupportedRuntime } from '../../src/bootstrap/supported-runtime';
import { ensureDistBuilt } from '../helpers/built-app-process';

const root = join(__dirname, '..', '..');

/**
 * What a newcomer's `npm start` / `npm test` / `npm run cli` run on: npm puts node_modules/.bin
 * first on a script's PATH, and there `node` is the supported runtime even where the machine's
 * own `node` is older (Node 20 on these machines: scripts/runtime/select-node.cjs).
 */
describe('the runtime npm scripts use', () => {
  // The machine's PATH, without the node_modules/.bin entries this suite was started with.
  const machinePath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes(`${sep}node_modules${sep}`))
    .join(delimiter);

  it('is the supported Node, whichever node the machine has first on its PATH', () => {
    const version = execFileSync('npm', ['exec', '--offline', '-c', 'node -p process.version'], {
      cwd: root,
      env: { ...process.env, PATH: machinePath },
      encoding: 'utf8',
    }).trim();
    expect(version).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(unsupportedRuntime(version)).toBeUndefined();
  });

  it('refuses a start on an unsupported Node with the reason, before anything else', () => {
    ensureDistBuilt();
    // The service's and the CLI's first step; an older Node is played by rewriting its version.
    const preload = join(mkdtempSync(join(tmpdir(), 'cgk-runtime-')), 'old-node.cjs');
    writeFileSync(
      preload,
      "Object.defineProperty(process.versions, 'node', { value: '20.20.2' });\n",
    );
    for (const entry of ['dist/main.js', 'dist/cli/main.js']) {
      const run = spawnSync(process.execPath, ['-r', preload, join(root, entry), '--help'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: dirname(preload) },
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(unsupportedRuntime('20.20.2'));
      expect(run.stdout).toBe('');
    }
  });
});
