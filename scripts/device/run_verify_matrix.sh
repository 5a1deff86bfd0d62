#!/usr/bin/env bash
# Proof of `cudaforklint verify` on real CUDA (run on the GPU machine, from the repository root).
#
#   scripts/device/run_verify_matrix.sh [verify_matrix.py options: --only torch,cupy --runs 5 --no-overhead]
#
# Needs, in $BIN_DIR (default scripts/device/bin): `cudaforklint` (linux/amd64, built here with
# `GOOS=linux GOARCH=amd64 go build -o scripts/device/bin/cudaforklint ./cmd/cudaforklint`) and
# optionally `cudaforkshim.so` (else it is built from verify/shim/cudaforkshim.c with gcc or cc, the
# way `verify` itself would; when neither exists, verify builds it into its cache).
# Writes $OUT/verification.md, $OUT/verification.json and $OUT/overhead.txt. The matrix takes
# about 3 to 5 minutes (80 scenarios, 12 at a time, jax 4 at a time, 60 s timeout for the jax
# rows that hang); the overhead runs 20 torch programs one after another (2 to 3 minutes).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
bin_dir=${BIN_DIR:-$here/bin}
out=${OUT:-$root/verify-out}
mkdir -p "$out"
bin=$bin_dir/cudaforklint
if [ ! -x "$bin" ]; then
	echo "run_verify_matrix: no $bin; build it: GOOS=linux GOARCH=amd64 go build -o scripts/device/bin/cudaforklint ./cmd/cudaforklint" >&2
	exit 2
fi
shim=$bin_dir/cudaforkshim.so
if [ ! -f "$shim" ]; then
	shim=/tmp/cudaforkshim.so
	cc=$(command -v gcc || command -v cc || true)
	if [ -n "$cc" ]; then
		"$cc" -std=gnu99 -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -o "$shim" "$root/verify/shim/cudaforkshim.c" -ldl -lpthread || exit 2
	else
		shim=
	fi
fi
{
	echo "== $(date -u +%FT%TZ) $(uname -r)"
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -2
	python3 -c 'import sys; print("python", sys.version.split()[0])'
	"$bin" --version 2>&1 | head -1
} | tee "$out/harness.log"
cd "$root" || exit 2
python3 "$here/verify_matrix.py" --bin "$bin" ${shim:+--shim "$shim"} --out "$out" "$@" 2>&1 | tee -a "$out/harness.log"
