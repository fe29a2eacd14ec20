#!/usr/bin/env bash
# Build local/etcd:3.4 and local/node:20 FROM scratch out of this machine's own binaries and the
# shared libraries `ldd` lists for them, so the test suite needs no image registry. An image is
# rebuilt only when its inputs change (their digest is kept in the label ck.inputs) or when
# REBUILD_IMAGES=1. Called by scripts/setup.sh --test.
set -euo pipefail
export DOCKER_BUILDKIT=0   # the classic builder needs no buildx plugin and pulls nothing
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf '[setup] %s\n' "$*"; }

# add_binary ROOTFS FILE...: copy each file and the libraries it links, at the same paths.
add_binary() {
  local root=$1 file lib
  shift
  for file in "$@"; do
    install -D -m 0755 "$(readlink -f "$file")" "$root$file"
    ldd "$file" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
      [ -e "$lib" ] && install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
    done
  done
}

# base_files ROOTFS: the few files a scratch image needs for users, DNS and temp files.
base_files() {
  mkdir -p "$1/etc" "$1/tmp" && chmod 1777 "$1/tmp"
  printf 'root:x:0:0::/root:/sbin/nologin\nnonroot:x:65532:65532::/home/nonroot:/sbin/nologin\n' >"$1/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' >"$1/etc/group"
  printf 'hosts: files dns\n' >"$1/etc/nsswitch.conf"
  [ -f /etc/ssl/certs/ca-certificates.crt ] && install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$1/etc/ssl/certs/ca-certificates.crt"
  return 0
}

# build TAG DIR: docker build DIR unless TAG already carries the same input digest.
build() {
  local tag=$1 dir=$2 digest have
  digest=$(cd "$dir" && find . -type f -exec sha256sum {} + | sort | sha256sum | cut -c1-16)
  have=$(docker image inspect -f '{{ index .Config.Labels "ck.inputs" }}' "$tag" 2>/dev/null || true)
  if [ "${REBUILD_IMAGES:-0}" != 1 ] && [ "$have" = "$digest" ]; then
    say "$tag is up to date"
    return
  fi
  say "building $tag"
  docker build -q --pull=false --label "ck.inputs=$digest" -t "$tag" "$dir" >/dev/null
}

e="$work/etcd"
base_files "$e/rootfs"
add_binary "$e/rootfs" /usr/bin/etcd /usr/bin/etcdctl
cat >"$e/Dockerfile" <<'EOF'
FROM scratch
COPY rootfs/ /
ENV PATH=/usr/bin:/bin
EXPOSE 2379 2380
ENTRYPOINT ["/usr/bin/etcd"]
EOF
build local/etcd:3.4 "$e"

n="$work/node"
base_files "$n/rootfs"
add_binary "$n/rootfs" /usr/bin/node /usr/bin/env /bin/sh
npm_root=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
mkdir -p "$n/rootfs/usr/lib/node_modules" "$n/rootfs/usr/bin"
cp -a "$npm_root" "$n/rootfs/usr/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$n/rootfs/usr/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$n/rootfs/usr/bin/npx"
cat >"$n/Dockerfile" <<'EOF'
FROM scratch
COPY rootfs/ /
ENV PATH=/usr/bin:/bin NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
WORKDIR /tmp
CMD ["node"]
EOF
build local/node:20 "$n"

[ "$(docker run --rm --network none local/node:20 node -p 1+1)" = 2 ] || { echo 'local/node:20 does not run node' >&2; exit 1; }
docker run --rm --network none local/etcd:3.4 --version >/dev/null || { echo 'local/etcd:3.4 does not run etcd' >&2; exit 1; }
say "local/etcd:3.4 and local/node:20 ready"
