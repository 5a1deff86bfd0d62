#!/usr/bin/env bash
# The benchmark: cudaforklint against its floors and its peers on the same
# files, in one run, with ratios. Installs the peers if they are missing
# (pyflakes from Debian, ruff's WebAssembly build from npm), builds the
# binary, and runs scripts/bench/bench.go. See docs/performance.md.
#
#   scripts/bench/bench.sh [-runs N] [-gen N] [-doc docs/performance.md] [-golden REV]
#
# It always checks that the stdlib and the generated corpus give the same
# findings as users run it and forced full, and with -golden REV also runs
# scripts/golden/compare.sh REV (this work tree's findings against REV's on
# the fixtures, the stdlib and the generated corpus); it prints whether the
# findings were identical and exits 1 when they were not.
#
# BENCH_WORK (default ${TMPDIR:-/tmp}/cudaforklint-bench) holds the corpora
# and the npm install between runs.
set -euo pipefail
cd "$(dirname "$0")/../.."

work="${BENCH_WORK:-${TMPDIR:-/tmp}/cudaforklint-bench}"
mkdir -p "$work"

if ! /usr/bin/python3 -m pyflakes --version >/dev/null 2>&1; then
	echo "installing python3-pyflakes" >&2
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	$SUDO apt-get update -qq >/dev/null || true
	$SUDO apt-get install -y -qq python3-pyflakes >/dev/null
fi
ruff="$work/ruff"
if [ ! -d "$ruff/node_modules/@astral-sh/ruff-wasm-nodejs" ]; then
	echo "installing @astral-sh/ruff-wasm-nodejs" >&2
	mkdir -p "$ruff"
	(cd "$ruff" && npm install --no-audit --no-fund --silent @astral-sh/ruff-wasm-nodejs >/dev/null)
fi

go build -o "$work/cudaforklint" ./cmd/cudaforklint
go build -o "$work/benchtool" ./scripts/bench/bench.go
exec "$work/benchtool" run -work "$work" -cfl "$work/cudaforklint" -self "$work/benchtool" \
	-ruff "$ruff" -script scripts/bench/ruff_check.mjs "$@"
