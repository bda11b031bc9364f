#!/usr/bin/env bash
# Builds the real Argo CD application controller and repo server for test/real/argocd.test.ts from the
# Go module proxy only, and keeps the Application and AppProject CRDs (manifests/crds of the same
# module version) next to them.
#
# Opt-in, and not part of `npm run cluster:real:build`: Argo CD is a large build (about 15-25 minutes
# of CPU on a cold Go cache here), which would push a cold CI run past its budget. A sibling of
# build-flux.sh with the same cache rules: the binary goes to
# $KUBEWAIT_REAL_CLUSTER_CACHE/<key>/bin (default ${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/real-cluster),
# outside the clone, the CRDs to <key>/crds; <key> names the version, the Go version and a hash of this
# script; an existing complete build is reused.
#
# What is built differs from the published module in two ways:
# - its go.mod says `go 1.27.0`, newer than this machine's Go: GOTOOLCHAIN names the approved
#   toolchain, which the go command fetches from the module proxy like a module (no other source);
# - `replace github.com/argoproj/argo-cd/gitops-engine/v3 => ./gitops-engine` points at a directory
#   the module zip does not hold; dropped, so gitops-engine of the required version (v3.6.2, served)
#   comes from the proxy like every other dependency.
# Only the two commands the suite runs are linked (a small main beside cmd/main.go dispatching on the
# first argument), not the multicall binary with the API server, Dex, the CLI and the UI: fewer packages
# to compile. It leaves out cmd/main.go's call of util/grpc.DisableSRVLookups(): that turns off the SRV lookups
# grpc's grpclb balancer turns on in its init, and panics when they are off already, as they are without
# grpclb, which these two commands do not link.
#
# Prints the bin directory as its last line. Usage: scripts/real-cluster/build-argocd.sh [--print-dir]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

argocd_version="v3.6.2"
# Argo CD v3.6 needs Go 1.27; go1.27.4 is the toolchain the module proxy serves for it.
export GOTOOLCHAIN="${KUBEWAIT_ARGOCD_GOTOOLCHAIN:-go1.27.4}"
go_version="$(go env GOVERSION)"
script_hash="$(sha256sum "$here/build-argocd.sh" | cut -c1-12)"
key="argocd-${argocd_version}_${go_version}_${script_hash}"

cache_root="${KUBEWAIT_REAL_CLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/real-cluster}"
out="$cache_root/$key"

if [ "${1:-}" = "--print-dir" ]; then
  echo "$out/bin"
  exit 0
fi

if [ -f "$out/bin/.complete" ]; then
  echo "argo cd: reusing $out/bin" >&2
  echo "$out/bin"
  exit 0
fi

# A partial earlier build is dropped: the stamp is written only after the binary and the CRDs are there.
staging="$out.partial.$$"
rm -rf "$staging"
mkdir -p "$staging/bin" "$staging/crds" "$staging/src"
trap 'chmod -R u+w "$staging" 2>/dev/null; rm -rf "$staging"' EXIT

export CGO_ENABLED=0
# Only the module proxy: never a VCS checkout. -mod=mod: the edited go.mod needs go.sum lines the
# published go.sum lacks (gitops-engine from the proxy); they are checked against sum.golang.org.
export GOFLAGS="-trimpath -mod=mod -buildvcs=false"
export GOPROXY="${GOPROXY:-https://proxy.golang.org}"
export GONOSUMDB="" GOPRIVATE=""

module="github.com/argoproj/argo-cd/v3"
started=$SECONDS
echo "argo cd: building $argocd_version with $go_version ..." >&2
dir="$(go mod download -json "$module@$argocd_version" | awk -F'"' '$2 == "Dir" { print $4 }')"
[ -d "$dir" ] || { echo "argo cd: $module@$argocd_version was not downloaded" >&2; exit 1; }
cp -r "$dir" "$staging/src/argo-cd"
chmod -R u+w "$staging/src/argo-cd"
cp "$dir"/manifests/crds/application-crd.yaml "$dir"/manifests/crds/appproject-crd.yaml "$staging/crds/"
# The repo server runs `git-verify-wrapper.sh <sha>` from PATH for every commit it renders (the image has the
# hack/ wrappers in /usr/local/bin): without it every manifest generation fails with "permission denied".
install -m 0755 "$dir"/hack/git-verify-wrapper.sh "$dir"/hack/gpg-wrapper.sh "$staging/bin/"

mkdir -p "$staging/src/argo-cd/cmd/kubewait-argocd"
cat > "$staging/src/argo-cd/cmd/kubewait-argocd/main.go" <<'EOF'
// The two Argo CD commands kubewait's real suite runs, as cmd/main.go wires them.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/klog/v2"

	appcontroller "github.com/argoproj/argo-cd/v3/cmd/argocd-application-controller/commands"
	reposerver "github.com/argoproj/argo-cd/v3/cmd/argocd-repo-server/commands"
	"github.com/argoproj/argo-cd/v3/util/log"
)

func init() {
	klog.SetLogger(log.NewLogrusLogger(log.NewWithCurrentConfig()))
}

func main() {
	// No util/grpc.DisableSRVLookups() as in cmd/main.go: without grpclb linked (it turns SRV lookups on in
	// its init) they are off already, and it panics ("enableSRVLookups expected to be true").
	commands := map[string]func() *cobra.Command{
		"argocd-application-controller": appcontroller.NewCommand,
		"argocd-repo-server":            reposerver.NewCommand,
	}
	if len(os.Args) < 2 || commands[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: argocd argocd-application-controller|argocd-repo-server [flags]")
		os.Exit(2)
	}
	command := commands[os.Args[1]]()
	command.SetArgs(os.Args[2:])
	// A failure ends the log with its error, not with the usage after it.
	command.SilenceUsage = true
	if err := command.Execute(); err != nil {
		os.Exit(1)
	}
}
EOF

(
  cd "$staging/src/argo-cd"
  go mod edit -dropreplace "github.com/argoproj/argo-cd/gitops-engine/v3"
  nice -n 10 go build -ldflags "-s -w -X $module/common.version=${argocd_version#v}" -o "$staging/bin/argocd" ./cmd/kubewait-argocd
)

[ -x "$staging/bin/argocd" ] || { echo "argo cd: the binary was not built" >&2; exit 1; }
chmod -R u+w "$staging/src"
rm -rf "$staging/src"
printf '%s\n' "$key" "built in $((SECONDS - started)) s" > "$staging/bin/.complete"
rm -rf "$out"
mv "$staging" "$out"
trap - EXIT
echo "argo cd: built in $((SECONDS - started)) s" >&2
echo "$out/bin"
