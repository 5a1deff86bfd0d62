#!/usr/bin/env bash
# The golden comparison: the findings of two builds of cudaforklint, byte for
# byte, on the shipped fixtures, python3's standard library and the generated
# CUDA-heavy corpus. A refactor or a speed-up must leave them identical; a
# change of behaviour shows up here as a diff to read.
#
#   scripts/golden/compare.sh [BASE_REV]        # default BASE_REV: HEAD
#
# BASE_REV is built from a temporary git worktree; the other side is the
# work tree as it is (uncommitted changes included). Each corpus is checked
# with --select ALL in the full and json formats, once as users run it and
# once with the prefilter off (CUDAFORKLINT_FORCE_FULL=1). Exit 0 when every
# output is identical, 1 with the diffs printed otherwise.
# GOLDEN_WORK (default ${TMPDIR:-/tmp}/cudaforklint-golden) keeps the corpora.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$PWD
base_rev=${1:-HEAD}
work="${GOLDEN_WORK:-${TMPDIR:-/tmp}/cudaforklint-golden}"
mkdir -p "$work"

# The corpora: the stdlib copied out of its tree (no .gitignore above it),
# and the benchmark's generated jobs.
if [ ! -d "$work/stdlib" ]; then
	src=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
	mkdir -p "$work/stdlib"
	(cd "$src" && tar --exclude=site-packages --exclude=__pycache__ -cf - .) | (cd "$work/stdlib" && tar -xf -)
fi
if [ ! -d "$work/generated" ]; then
	go run ./scripts/bench/bench.go gen "$work/generated" 300 >/dev/null
fi

base_dir="$work/base-src"
rm -rf "$base_dir"
git worktree add --detach -f "$base_dir" "$base_rev" >/dev/null 2>&1
trap 'git -C "$top" worktree remove --force "$base_dir" >/dev/null 2>&1 || true' EXIT
(cd "$base_dir" && go build -o "$work/cfl-base" ./cmd/cudaforklint)
go build -o "$work/cfl-head" ./cmd/cudaforklint

# run BIN OUTDIR: every corpus, every format, both prefilter settings.
run() {
	local bin=$1 out=$2
	rm -rf "$out"
	mkdir -p "$out"
	for corpus in fixtures stdlib generated; do
		case $corpus in
		fixtures) dir="$top/testdata/py" ;;
		*) dir="$work/$corpus" ;;
		esac
		for full in 0 1; do
			for format in full json; do
				(cd "$dir" && CUDAFORKLINT_FORCE_FULL=$full NO_COLOR=1 "$bin" check --select ALL \
					--no-respect-gitignore --format "$format" . >"$out/$corpus.$format.force$full" 2>"$out/$corpus.$format.force$full.stderr") || true
			done
		done
	done
}
run "$work/cfl-base" "$work/out-base"
run "$work/cfl-head" "$work/out-head"

if diff -r "$work/out-base" "$work/out-head" >"$work/golden.diff"; then
	n=$(cat "$work"/out-head/*.json.force1 | grep -c '"code"' || true)
	echo "golden: identical ($base_rev vs work tree; $n findings over the corpora with the prefilter off)"
	exit 0
fi
echo "golden: outputs differ ($base_rev vs work tree):"
cat "$work/golden.diff"
exit 1
