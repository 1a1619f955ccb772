// `npm run cli` runs the built CLI; building every time cost 3-5 s a call. This builds only when
// the sources the build reads changed since the last build it made: the fingerprint is every
// non-spec file under src/ (path, size, modification time) plus package-lock.json, kept in
// dist/.build-fingerprint. A file added, removed, edited or touched rebuilds.
'use strict';
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const FINGERPRINT_FILE = '.build-fingerprint';

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
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(lock)) hash.update(`package-lock.json\0${fs.statSync(lock).mtimeMs}\n`);
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

module.exports = { sourceFingerprint, buildIfChanged };

if (require.main === module) {
  process.exitCode = buildIfChanged(path.resolve(__dirname, '..', '..')).status;
}
