#!/usr/bin/env bash
# Builds the real control plane for test/real/ from the Go module proxy only:
# kube-apiserver, kube-controller-manager, kube-scheduler (k8s/), etcd (etcd/) and kwok (kwok/).
#
# The binaries go to $KUBEWAIT_REAL_CLUSTER_CACHE/<key>/bin (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/real-cluster), outside the clone, because CI runs in
# a fresh clone on the same machine: only caches outside it survive. .cache/real-cluster/<key>
# in the clone is a symlink to that directory. <key> names every pinned version and a hash of
# the wrapper modules, so a change of any pin builds anew; an existing complete build is reused.
#
# Prints the bin directory as its last line. Usage: scripts/real-cluster/build.sh [--print-dir]
# (--print-dir prints where the binaries are or would be, and builds nothing).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

# Read the pins from the wrapper modules themselves: the go.mod files are the one place they live.
pin() { awk -v m="$2" '$1 == m && $2 ~ /^v/ { print $2; exit } $1 == "require" && $2 == m { print $3; exit }' "$here/$1/go.mod"; }
k8s_version="$(pin k8s k8s.io/kubernetes)"
etcd_version="$(pin etcd go.etcd.io/etcd/server/v3)"
kwok_version="$(pin kwok sigs.k8s.io/kwok)"
go_version="$(go env GOVERSION)"
sources_hash="$(cd "$here" && cat build.sh k8s/go.mod k8s/go.sum etcd/go.mod etcd/go.sum kwok/go.mod kwok/go.sum \
  k8s/cmd/*/main.go etcd/main.go | sha256sum | cut -c1-12)"
key="k8s-${k8s_version}_etcd-${etcd_version}_kwok-${kwok_version}_${go_version}_${sources_hash}"

cache_root="${KUBEWAIT_REAL_CLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/real-cluster}"
out="$cache_root/$key"
link="$repo/.cache/real-cluster/$key"

link_into_clone() {
  mkdir -p "$repo/.cache/real-cluster"
  if [ "$(readlink -f "$link" 2>/dev/null)" != "$(readlink -f "$out")" ]; then
    rm -rf "$link"
    ln -s "$out" "$link"
  fi
}

if [ "${1:-}" = "--print-dir" ]; then
  echo "$out/bin"
  exit 0
fi

if [ -f "$out/bin/.complete" ]; then
  link_into_clone
  echo "real cluster: reusing $out/bin" >&2
  echo "$out/bin"
  exit 0
fi

# A partial earlier build is dropped: the stamp is written only after every binary is built.
staging="$out.partial.$$"
rm -rf "$staging"
mkdir -p "$staging/bin"
trap 'rm -rf "$staging"' EXIT

export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath -mod=readonly"
export CGO_ENABLED=0
# Only the module proxy: never a VCS checkout.
export GOPROXY="${GOPROXY:-https://proxy.golang.org}"
export GONOSUMDB="" GOPRIVATE=""

# What hack/lib/version.sh stamps, so /version says v1.35.x (helm checks charts' kubeVersion
# against it, and kubectl warns on version skew) instead of v0.0.0-master.
minor="${k8s_version#v1.}"
minor="${minor%%.*}"
k8s_ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  k8s_ldflags+=" -X $pkg.gitVersion=$k8s_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  k8s_ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

step() { # name, dir, then the go build arguments
  local name="$1" dir="$2"
  shift 2
  echo "real cluster: building $name ..." >&2
  local started=$SECONDS
  (cd "$here/$dir" && nice -n 10 go build "$@")
  echo "real cluster: built $name in $((SECONDS - started)) s" >&2
}

started=$SECONDS
step "etcd $etcd_version" etcd -ldflags "-s -w" -o "$staging/bin/etcd" .
step "kwok $kwok_version" kwok -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$kwok_version" \
  -o "$staging/bin/kwok" sigs.k8s.io/kwok/cmd/kwok
step "kube-apiserver, kube-controller-manager, kube-scheduler $k8s_version" k8s \
  -ldflags "$k8s_ldflags" -o "$staging/bin/" ./cmd/kube-apiserver ./cmd/kube-controller-manager ./cmd/kube-scheduler

for b in etcd kwok kube-apiserver kube-controller-manager kube-scheduler; do
  [ -x "$staging/bin/$b" ] || { echo "real cluster: $b was not built" >&2; exit 1; }
done
printf '%s\n' "$key" "built in $((SECONDS - started)) s" > "$staging/bin/.complete"
rm -rf "$out"
mv "$staging" "$out"
trap - EXIT
link_into_clone
echo "real cluster: built all in $((SECONDS - started)) s" >&2
echo "$out/bin"
