#!/usr/bin/env bash
# Builds the real Flux controllers for test/real/flux.test.ts from the Go module proxy only:
# source-controller and kustomize-controller, and keeps their CRDs (config/crd/bases of the same
# module versions) next to them.
#
# A sibling of build.sh with the same cache rules: the binaries go to
# $KUBEWAIT_REAL_CLUSTER_CACHE/<key>/bin (default ${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/real-cluster),
# outside the clone, the CRDs to <key>/crds; <key> names both versions, the Go version and a hash of this
# script; an existing complete build is reused.
#
# The controllers' own go.mod files cannot be built as they are published:
# - each has `replace github.com/fluxcd/<controller>/api => ./api`, a path outside the module zip's
#   meaning for a build from the proxy; dropped, so the api module of the required version comes from
#   the proxy like every other dependency;
# - source-controller v1.9.6 requires github.com/fluxcd/pkg/artifact v0.18.3, which the proxy refuses
#   (not found); v0.18.0 has the same API the controller uses and builds.
#
# Prints the bin directory as its last line. Usage: scripts/real-cluster/build-flux.sh [--print-dir]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

flux_version="v1.9.6" # source-controller and kustomize-controller, released together
artifact_version="v0.18.0"
go_version="$(go env GOVERSION)"
script_hash="$(sha256sum "$here/build-flux.sh" | cut -c1-12)"
key="flux-${flux_version}_${go_version}_${script_hash}"

cache_root="${KUBEWAIT_REAL_CLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/real-cluster}"
out="$cache_root/$key"

if [ "${1:-}" = "--print-dir" ]; then
  echo "$out/bin"
  exit 0
fi

if [ -f "$out/bin/.complete" ]; then
  echo "flux controllers: reusing $out/bin" >&2
  echo "$out/bin"
  exit 0
fi

# A partial earlier build is dropped: the stamp is written only after both binaries and the CRDs are there.
staging="$out.partial.$$"
rm -rf "$staging"
mkdir -p "$staging/bin" "$staging/crds" "$staging/src"
trap 'chmod -R u+w "$staging" 2>/dev/null; rm -rf "$staging"' EXIT

export CGO_ENABLED=0
# Only the module proxy: never a VCS checkout. -mod=mod: the edited go.mod needs go.sum lines the
# published go.sum lacks (the api module, the older artifact module); they are checked against sum.golang.org.
export GOFLAGS="-trimpath -mod=mod -buildvcs=false"
export GOPROXY="${GOPROXY:-https://proxy.golang.org}"
export GONOSUMDB="" GOPRIVATE="" GOTOOLCHAIN=local

build_controller() { # name, then extra `go mod edit` flags
  local name="$1"
  shift
  local module="github.com/fluxcd/$name"
  echo "flux controllers: building $name $flux_version ..." >&2
  local started=$SECONDS
  local dir
  dir="$(go mod download -json "$module@$flux_version" | awk -F'"' '$2 == "Dir" { print $4 }')"
  [ -d "$dir" ] || { echo "flux controllers: $module@$flux_version was not downloaded" >&2; exit 1; }
  cp -r "$dir" "$staging/src/$name"
  chmod -R u+w "$staging/src/$name"
  cp "$dir"/config/crd/bases/*.yaml "$staging/crds/"
  (
    cd "$staging/src/$name"
    go mod edit -dropreplace "$module/api" "$@"
    nice -n 10 go build -ldflags "-s -w" -o "$staging/bin/$name" .
  )
  echo "flux controllers: built $name in $((SECONDS - started)) s" >&2
}

started=$SECONDS
build_controller source-controller -require "github.com/fluxcd/pkg/artifact@$artifact_version"
build_controller kustomize-controller

for b in source-controller kustomize-controller; do
  [ -x "$staging/bin/$b" ] || { echo "flux controllers: $b was not built" >&2; exit 1; }
done
chmod -R u+w "$staging/src"
rm -rf "$staging/src"
printf '%s\n' "$key" "built in $((SECONDS - started)) s" > "$staging/bin/.complete"
rm -rf "$out"
mv "$staging" "$out"
trap - EXIT
echo "flux controllers: built both in $((SECONDS - started)) s" >&2
echo "$out/bin"
