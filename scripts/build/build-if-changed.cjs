// `npm run cli` runs the built CLI; building every time cost 3-5 s a call. This builds only when
// the sources the build reads changed since the last build it made: the fingerprint is every
// non-spec file under src/ (path, size, modification time) plus package-lock.json and .swcrc, kept
// in dist/.build-fingerprint. A file added, removed, edited or touched rebuilds.
//
// Several processes may ask at once (two Jest workers, a test and `npm run cli`): the check and the
// build run under a lock file, so one builds and the others then find the fingerprint fresh. Two
// builds writing dist/ at once left a half-written dist/ that a test then failed to boot from.
'use strict';
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const FINGERPRINT_FILE = '.build-fingerprint';
const LOCK_FILE = '.build.lock';
/** A build takes about a second; a lock older than this whose owner cannot be checked is stale. */
const LOCK_STALE_MS = 120_000;

function sourceFingerprint(root) {
  const hash = createHash('sha256');
  const visit = (dir) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (!entry.name.endsWith('.spec.ts')) {
        const stat = fs.statSync(full);
        hash.update(`${path.relative(root, full)}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  visit(path.join(root, 'src'));
  for (const file of ['package-lock.json', '.swcrc']) {
    const full = path.join(root, file);
    if (fs.existsSync(full)) hash.update(`${file}\0${fs.statSync(full).mtimeMs}\n`);
  }
  return hash.digest('hex');
}

function buildIfChanged(
  root,
  build = () => spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' }).status,
) {
  const stamp = path.join(root, 'dist', FINGERPRINT_FILE);
  const fingerprint = sourceFingerprint(root);
  const previous = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : '';
  if (previous === fingerprint) return { built: false, status: 0 };
  const status = build();
  if (status === 0) fs.writeFileSync(stamp, fingerprint);
  return { built: true, status: status ?? 1 };
}

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function ownerIsGone(lock) {
  let owner;
  let stat;
  try {
    owner = Number(fs.readFileSync(lock, 'utf8'));
    stat = fs.statSync(lock);
  } catch {
    return false; // released meanwhile: the next attempt takes it
  }
  if (!Number.isInteger(owner) || owner <= 0) return Date.now() - stat.mtimeMs > LOCK_STALE_MS;
  try {
    process.kill(owner, 0);
    return false;
  } catch (err) {
    return err.code === 'ESRCH';
  }
}

/** Runs `fn` holding dist/.build.lock (created exclusively; a dead owner's lock is taken over). */
function withBuildLock(root, fn, { timeoutMs = LOCK_STALE_MS } = {}) {
  const lock = path.join(root, 'dist', LOCK_FILE);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (ownerIsGone(lock)) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} still held after ${timeoutMs} ms`);
      else pause(25);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function buildIfChangedLocked(root, build) {
  return withBuildLock(root, () => buildIfChanged(root, build));
}

module.exports = { sourceFingerprint, buildIfChanged, buildIfChangedLocked, withBuildLock };

if (require.main === module) {
  process.exitCode = buildIfChangedLocked(path.resolve(__dirname, '..', '..')).status;
}
