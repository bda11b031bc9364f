#!/usr/bin/env bash
# `npm test`: the type-check and lint (scripts/check.sh) beside jest, not before it. Each keeps cores busy
# only part of the time (jest's e2e suites wait on deadlines and child processes), so side by side they
# end sooner than one after the other. Fails when either fails, and prints the check's output after
# jest's, so that a type or lint error is the last thing said. Arguments go to jest.
set -uo pipefail
check_log=$(mktemp)
trap 'rm -f "$check_log"' EXIT
bash "$(dirname "$0")/check.sh" >"$check_log" 2>&1 &
check=$!
NODE_OPTIONS='--experimental-vm-modules --disable-warning=ExperimentalWarning' npx jest "$@"
tests=$?
wait "$check"
checked=$?
if [ "$checked" -ne 0 ]; then
  cat "$check_log"
  echo "npm test: the type-check or lint failed (scripts/check.sh): see above"
fi
exit $(( tests != 0 || checked != 0 ))
