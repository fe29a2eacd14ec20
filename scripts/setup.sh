#!/usr/bin/env bash
# Set up a checkout of ck-apiserver. Safe to run again; each step is skipped when already done.
#
#   bash scripts/setup.sh           install the npm dependencies and build dist/ (no root needed);
#                                   then `npm start` runs the server.
#   bash scripts/setup.sh --test    also what the test suite needs (root, Debian/Ubuntu):
#                                   etcd and etcdctl, the Python client, Docker (dockerd is started
#                                   when not running), and two local base images built from this
#                                   machine's own binaries, so no image registry is needed:
#                                     local/etcd:3.4  - /usr/bin/etcd and etcdctl
#                                     local/node:20   - node, npm and a shell (the Dockerfile's base
#                                                       in tests: --build-arg NODE_IMAGE=local/node:20)
#
# Environment: DOCKERD_LOG (default /var/log/dockerd.log), REBUILD_IMAGES=1 rebuilds the images.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '[setup] %s\n' "$*"; }
fail() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

with_test=0
for arg in "$@"; do
  case "$arg" in
    --test) with_test=1 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) fail "unknown argument $arg (see --help)" ;;
  esac
done

command -v node >/dev/null || fail "Node.js 20 or later is needed (https://nodejs.org)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || fail "Node.js 20 or later is needed, found $(node -v)"

if [ "$with_test" = 1 ]; then
  [ "$(id -u)" = 0 ] || fail "--test installs system packages: run it as root"
  export DEBIAN_FRONTEND=noninteractive
  packages=()
  [ -x /usr/bin/etcd ] || packages+=(etcd-server)
  [ -x /usr/bin/etcdctl ] || packages+=(etcd-client)
  /usr/bin/python3 -c 'import kubernetes' 2>/dev/null || packages+=(python3-kubernetes)
  command -v dockerd >/dev/null || packages+=(docker.io)
  if [ ${#packages[@]} -gt 0 ]; then
    say "apt-get install ${packages[*]}"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${packages[@]}"
  fi
  if ! docker info >/dev/null 2>&1; then
    log=${DOCKERD_LOG:-/var/log/dockerd.log}
    if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
      systemctl start docker
    else
      say "starting dockerd (log $log)"
      # Published ports on loopback only, unless daemon.json already chooses an address.
      ip_flag=(--ip=127.0.0.1)
      grep -qs '"ip"' /etc/docker/daemon.json && ip_flag=()
      nohup dockerd "${ip_flag[@]}" >>"$log" 2>&1 </dev/null &
    fi
    for _ in $(seq 1 120); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
    docker info >/dev/null 2>&1 || fail "dockerd did not start within 60 s (see $log)"
  fi
  bash scripts/lib/host-images.sh
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci"
  npm ci --no-audit --no-fund
fi
say "building dist/"
npm run build --silent
say "done: 'npm start' serves https://127.0.0.1:6443 (kubeconfig in .ck-apiserver/kubeconfig)"
[ "$with_test" = 1 ] && say "'npm test' runs every test"
exit 0
