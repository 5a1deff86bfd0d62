#!/usr/bin/env bash
# End-to-end test of the release wheel for a user who has neither Go nor a C
# compiler: builds the linux/amd64 wheel with scripts/release/build.sh, checks
# its checksums and its RECORD (with Python's zipfile and hashlib, not the Go
# code that wrote it), installs it with pip into a fresh venv from the file (no
# index), and then, with a PATH that holds only the venv's bin (no go, gcc, cc,
# clang, tcc...), an empty environment and an empty cache, runs:
#   - cudaforklint check on a hazard (exit 1, the finding printed) and on a
#     safe script (exit 0);
#   - cudaforklint verify -- python3 on a script that forks without CUDA
#     (exit 0, both processes seen: the wrapper shipped in the binary was
#     preloaded), and on one that initializes a stand-in CUDA driver and forks
#     a child that uses it (exit 1, CFL001 confirmed).
#
#   .ci/wheel-test.sh [REPO]     (default: the repository holding this script)
#
# The stand-in driver (verify/testdata/fakecuda) is compiled before the
# compilers are taken away; it is the program's library, not cudaforklint's.
set -euo pipefail

repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
failed() {
	echo "wheel-test: FAIL: $*" >&2
	fail=1
}

echo "== build the linux/amd64 wheel"
"$repo/scripts/release/build.sh" -out "$tmp/dist" linux/amd64
wheels=("$tmp"/dist/cudaforklint-*-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
	echo "wheel-test: FAIL: want one linux/amd64 wheel in dist, got: $(ls "$tmp/dist")" >&2
	exit 1
fi
whl=${wheels[0]}
(cd "$tmp/dist" && sha256sum -c SHA256SUMS)

echo "== the wheel's contents, read by Python"
python3 - "$whl" <<'PY'
import base64, csv, hashlib, io, stat, sys, zipfile

path = sys.argv[1]
name = path.rsplit("/", 1)[1]
dist, version = name.split("-")[:2]
zf = zipfile.ZipFile(path)
names = zf.namelist()
info = f"{dist}-{version}.dist-info/"
script = f"{dist}-{version}.data/scripts/cudaforklint"
want = [script, info + "METADATA", info + "WHEEL", info + "RECORD"]
assert names == want, f"entries {names}, want {want}"
mode = zf.getinfo(script).external_attr >> 16
assert stat.S_ISREG(mode) and mode & 0o111, f"{script}: mode {oct(mode)}, want an executable file"
assert zf.read(script)[:4] == b"\x7fELF", "the script is not an ELF executable"
rows = list(csv.reader(io.StringIO(zf.read(info + "RECORD").decode())))
assert sorted(r[0] for r in rows) == sorted(names), f"RECORD lists {[r[0] for r in rows]}"
for file, digest, size in rows:
    if file == info + "RECORD":
        assert digest == size == "", "RECORD's own row has a hash"
        continue
    data = zf.read(file)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert digest == want and int(size) == len(data), f"RECORD row for {file} is wrong"
wheel = zf.read(info + "WHEEL").decode()
for line in ("Root-Is-Purelib: false", "Tag: py3-none-manylinux_2_17_x86_64", "Tag: py3-none-manylinux2014_x86_64"):
    assert line in wheel.splitlines(), f"WHEEL has no {line!r}:\n{wheel}"
meta = zf.read(info + "METADATA").decode().splitlines()
assert f"Name: {dist}" in meta and f"Version: {version.replace('_', '-')}" in meta, "\n".join(meta)
print(f"{name}: {len(names)} entries, RECORD digests match")
PY

echo "== the stand-in CUDA driver (compiled while a compiler is still there)"
mkdir -p "$tmp/fakecuda"
gcc -O2 -fPIC -shared -Wl,-soname,libcuda.so.1 -o "$tmp/fakecuda/libcuda.so.1" "$repo/verify/testdata/fakecuda/fakecuda.c"

echo "== a fresh venv, the wheel installed from the file"
py=$(python3 -c 'import sys; print(sys.executable)') # the interpreter, not a pyenv shell shim
"$py" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --no-index --no-cache-dir --disable-pip-version-check -q "$whl"

# The user's environment: the venv's bin alone on PATH, nothing inherited.
mkdir -p "$tmp/home" "$tmp/work"
user=(env -i HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache" LANG=C.UTF-8 PATH="$tmp/venv/bin")
for tool in go gcc cc clang tcc c99 c89 x86_64-linux-gnu-gcc; do
	if found=$("${user[@]}" /bin/sh -c "command -v $tool"); then
		failed "$tool is reachable in the test's environment: $found"
	fi
done
got=$("${user[@]}" /bin/sh -c 'command -v cudaforklint') || true
if [ "$got" != "$tmp/venv/bin/cudaforklint" ]; then
	failed "cudaforklint is not the venv's: '$got'"
fi
"${user[@]}" cudaforklint version

cp "$repo/testdata/ci/hazard.py" "$tmp/work/"
sed 's/"fork"/"spawn"/' "$tmp/work/hazard.py" >"$tmp/work/safe.py"
cat >"$tmp/work/fork_plain.py" <<'PY'
import os

pid = os.fork()
if pid == 0:
    print("CHILD_OK", flush=True)
    os._exit(0)
_, status = os.waitpid(pid, 0)
print("CHILD_EXIT", os.waitstatus_to_exitcode(status), flush=True)
PY
cat >"$tmp/work/fork_cuda.py" <<'PY'
import ctypes
import os

cu = ctypes.CDLL("libcuda.so.1")
assert cu.cuInit(0) == 0
pid = os.fork()
if pid == 0:
    dev = ctypes.c_int()
    rc = cu.cuDeviceGet(ctypes.byref(dev), 0)
    print("CHILD_RC", rc, flush=True)
    os._exit(1 if rc else 0)
_, status = os.waitpid(pid, 0)
print("CHILD_EXIT", os.waitstatus_to_exitcode(status), flush=True)
PY

# run NAME WANT_RC [VAR=VALUE...] CMD...: runs CMD in the user's environment
# (plus the variables) in $tmp/work; its output is left in $out.
out=
run() {
	local name=$1 want=$2 rc vars=()
	shift 2
	while [[ $1 == *=* ]]; do
		vars+=("$1")
		shift
	done
	echo "== $name (want exit $want)"
	set +e
	out=$(cd "$tmp/work" && "${user[@]}" "${vars[@]}" "$@" 2>&1)
	rc=$?
	set -e
	echo "$out"
	if [ "$rc" -ne "$want" ]; then
		failed "$name: exit $rc, want $want"
	fi
}

run "check hazard.py" 1 cudaforklint check hazard.py
grep -Eq '^hazard\.py:[0-9]+:[0-9]+: CFL001 ' <<<"$out" || failed "check hazard.py printed no CFL001 finding"
run "check safe.py" 0 cudaforklint check safe.py

run "verify a fork without CUDA" 0 cudaforklint verify -- python3 fork_plain.py
grep -q 'process tree (2 processes seen)' <<<"$out" || failed "verify did not see both processes (was the wrapper preloaded?)"
grep -q 'CHILD_EXIT 0' <<<"$out" || failed "the program did not run to its end"
shims=("$tmp"/cache/cudaforklint/cudaforkshim-*.so)
if [ ! -f "${shims[0]}" ]; then
	failed "no wrapper was written to the empty cache ($tmp/cache/cudaforklint)"
fi

run "verify a fork after cuInit, the child using CUDA" 1 \
	LD_LIBRARY_PATH="$tmp/fakecuda" cudaforklint verify -- python3 fork_cuda.py
grep -Eq 'fork_cuda\.py:[0-9]+:[0-9]+: CFL001 ' <<<"$out" || failed "verify did not confirm CFL001"
grep -q 'CUDA_ERROR_NOT_INITIALIZED' <<<"$out" || failed "verify did not report the child's CUDA_ERROR_NOT_INITIALIZED"

if [ "$fail" -eq 0 ]; then
	echo "wheel-test: passed"
else
	echo "wheel-test: FAILED" >&2
fi
exit $fail
