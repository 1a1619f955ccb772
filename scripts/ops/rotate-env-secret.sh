#!/usr/bin/env bash
# Rotates one secret of an env file (docs/operators.md "Rotating secrets"): a new random value
# (openssl rand -base64 48) becomes NAME, and the old one is put first in PREVIOUS_NAME
# (comma-separated), so the service still accepts or reads what the old value signed or sealed.
# Prints no secret. Usage: bash scripts/ops/rotate-env-secret.sh NAME PREVIOUS_NAME [ENV_FILE]
set -euo pipefail
name=${1:?NAME}
previous=${2:?PREVIOUS_NAME}
file=${3:-.env.production}
old=$(sed -n "s/^$name=//p" "$file" | tail -n 1)
if [ -z "$old" ]; then
  echo "$file has no $name= line: nothing to rotate" >&2
  exit 1
fi
earlier=$(sed -n "s/^$previous=//p" "$file" | tail -n 1)
list="$old${earlier:+,$earlier}"
tmp=$(mktemp "$file.XXXXXX")
grep -v -e "^$name=" -e "^$previous=" "$file" >"$tmp" || true
printf '%s=%s\n%s=%s\n' "$name" "$(openssl rand -base64 48)" "$previous" "$list" >>"$tmp"
chmod --reference="$file" "$tmp"
mv "$tmp" "$file"
echo "$name rotated in $file; $previous lists $(($(tr -cd , <<<"$list" | wc -c) + 1)) earlier value(s)"
