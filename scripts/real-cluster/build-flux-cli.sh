#!/usr/bin/env bash
# Builds the flux CLI (github.com/fluxcd/flux2/v2) for bench/flux-reconcile.ts from the Go module proxy
# only: the bench compares kubewait's `reconcile` with `flux reconcile kustomization --with-source`.
#
# A sibling of build-flux.sh with the same cache rules: the binary goes to
# $KUBEWAIT_REAL_CLUSTER_CACHE/<key>/bin/flux (default ${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/real-cluster),
# outside the clone; <key> names the CLI version, the Go version and a hash of this script; an existing
# complete build is reused. It shares the Go build cache with build-flux.sh (most dependencies are the
# controllers' own), so it is much faster after the controllers were built.
#
# The module as published cannot be built as it is:
# - `go install ...@v2.9.5` refuses a module whose go.mod has a `replace` (gopkg.in/yaml.v3), so the
#   module is copied and `./cmd/flux` built inside the copy, where the replace applies as its authors meant;
# - cmd/flux embeds `manifests/*.yaml` (the controllers' install manifests for `flux install`), generated
#   by the repository's Makefile and absent from the module zip; one empty placeholder file lets it
#   compile. Only `flux install`/`bootstrap` read them; the bench uses `flux reconcile` and `flux get`.
#
# Prints the bin directory as its last line. Usage: scripts/real-cluster/build-flux-cli.sh [--print-dir]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

cli_version="v2.9.5" # uses kustomize-controller/api and source-controller/api v1.9.5, like our v1.9.6 controllers
go_version="$(go env GOVERSION)"
script_hash="$(sha256sum "$here/build-flux-cli.sh" | cut -c1-12)"
key="flux-cli-${cli_version}_${go_version}_${script_hash}"

cache_root="${KUBEWAIT_REAL_CLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/real-cluster}"
out="$cache_root/$key"

if [ "${1:-}" = "--print-dir" ]; then
  echo "$out/bin"
  exit 0
fi

if [ -f "$out/bin/.complete" ]; then
  echo "flux CLI: reusing $out/bin" >&2
  echo "$out/bin"
  exit 0
fi

# A partial earlier build is dropped: the stamp is written only after the binary is there.
staging="$out.partial.$$"
rm -rf "$staging"
mkdir -p "$staging/bin" "$staging/src"
trap 'chmod -R u+w "$staging" 2>/dev/null; rm -rf "$staging"' EXIT

export CGO_ENABLED=0
export GOFLAGS="-trimpath -buildvcs=false"
export GOPROXY="${GOPROXY:-https://proxy.golang.org}"
export GONOSUMDB="" GOPRIVATE="" GOTOOLCHAIN=local

module="github.com/fluxcd/flux2/v2"
echo "flux CLI: building $cli_version ..." >&2
started=$SECONDS
dir="$(go mod download -json "$module@$cli_version" | awk -F'"' '$2 == "Dir" { print $4 }')"
[ -d "$dir" ] || { echo "flux CLI: $module@$cli_version was not downloaded" >&2; exit 1; }
cp -r "$dir" "$staging/src/flux2"
chmod -R u+w "$staging/src/flux2"
(
  cd "$staging/src/flux2"
  # The placeholder for the generated install manifests (see above): `//go:embed manifests/*.yaml` needs one match.
  mkdir -p cmd/flux/manifests
  printf '# placeholder: built by kubewait scripts/real-cluster/build-flux-cli.sh, no install manifests\n' \
    > cmd/flux/manifests/placeholder.yaml
  nice -n 10 go build -ldflags "-s -w -X main.VERSION=${cli_version#v}" -o "$staging/bin/flux" ./cmd/flux
)

[ -x "$staging/bin/flux" ] || { echo "flux CLI: flux was not built" >&2; exit 1; }
chmod -R u+w "$staging/src"
rm -rf "$staging/src"
printf '%s\n' "$key" "built in $((SECONDS - started)) s" > "$staging/bin/.complete"
rm -rf "$out"
mv "$staging" "$out"
trap - EXIT
echo "flux CLI: built in $((SECONDS - started)) s" >&2
echo "$out/bin"
