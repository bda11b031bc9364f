#!/usr/bin/env bash
# `npm run check`: the type-check and lint side by side (each keeps about one core busy, and each takes
# a good part of the loop alone); fails when either fails, after both have said why.
set -uo pipefail
npx tsc --noEmit &
tsc=$!
npm run lint --silent
lint=$?
wait "$tsc"
typecheck=$?
exit $(( typecheck != 0 || lint != 0 ))
