//go:build tools

// Package tools records sigs.k8s.io/kwok/cmd/kwok as a dependency, so go mod tidy keeps
// every module it needs in go.sum; build.sh builds that package by its import path.
package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
