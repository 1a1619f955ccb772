#!/usr/bin/env bash
# Rotates one secret (docs/operators/secrets-and-keys.md "Rotating secrets"): a new random value
# (openssl rand -base64 48) becomes NAME, and the old one is put first in PREVIOUS_NAME
# (comma-separated) in ENV_FILE, so the service still accepts or reads what the old value signed or
# sealed. NAME is a line of ENV_FILE, or, with SECRET_FILE, that file's content (NAME_FILE: the
# compose stack's ./secrets/ files). Prints no secret.
# Usage: bash scripts/ops/rotate-env-secret.sh NAME PREVIOUS_NAME [ENV_FILE] [SECRET_FILE]
set -euo pipefail
name=${1:?NAME}
previous=${2:?PREVIOUS_NAME}
file=${3:-.env.production}
secret_file=${4:-}
if [ -n "$secret_file" ]; then
  old=$(tr -d '\r\n' <"$secret_file")
else
  old=$(sed -n "s/^$name=//p" "$file" | tail -n 1)
fi
if [ -z "$old" ]; then
  echo "${secret_file:-$file} has no $name value: nothing to rotate" >&2
  exit 1
fi
earlier=$(sed -n "s/^$previous=//p" "$file" | tail -n 1)
list="$old${earlier:+,$earlier}"
fresh=$(openssl rand -base64 48)
tmp=$(mktemp "$file.XXXXXX")
if [ -n "$secret_file" ]; then
  grep -v -e "^$previous=" "$file" >"$tmp" || true
  printf '%s=%s\n' "$previous" "$list" >>"$tmp"
  secret_tmp=$(mktemp "$secret_file.XXXXXX")
  printf '%s\n' "$fresh" >"$secret_tmp"
  chmod --reference="$secret_file" "$secret_tmp"
  mv "$secret_tmp" "$secret_file"
else
  grep -v -e "^$name=" -e "^$previous=" "$file" >"$tmp" || true
  printf '%s=%s\n%s=%s\n' "$name" "$fresh" "$previous" "$list" >>"$tmp"
fi
chmod --reference="$file" "$tmp"
mv "$tmp" "$file"
echo "$name rotated in ${secret_file:-$file}; $previous lists $(($(tr -cd , <<<"$list" | wc -c) + 1)) earlier value(s)"
