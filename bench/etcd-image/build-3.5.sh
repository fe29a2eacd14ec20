#!/usr/bin/env bash
# Builds `local/etcd:3.5` for benchmarks on a newer etcd than the test image (local/etcd:3.4,
# Debian bookworm's 3.4.23): Debian trixie's etcd-server package (3.5.16: watch progress
# requests are safe from 3.5.13), its static binary over local/etcd:3.4's file system.
# Needs Docker and local/etcd:3.4 (../shared/scripts/setup-docker.sh) and deb.debian.org.
# Then: ETCD_IMAGE=local/etcd:3.5 npm run bench:list-scaling
set -euo pipefail
DEB=pool/main/e/etcd/etcd-server_3.5.16-4_amd64.deb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -fsSL "http://deb.debian.org/debian/$DEB" -o "$work/etcd.deb"
dpkg-deb -x "$work/etcd.deb" "$work/x"
cp "$work/x/usr/bin/etcd" "$work/etcd"
cat > "$work/Dockerfile" <<'DOCKERFILE'
FROM local/etcd:3.4
COPY etcd /usr/bin/etcd
DOCKERFILE
docker build -q -t local/etcd:3.5 "$work"
docker run --rm --network none local/etcd:3.5 --version | head -1
