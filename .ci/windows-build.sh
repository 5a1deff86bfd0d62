#!/usr/bin/env bash
# The windows/amd64 release: cross-compiled with Debian's MinGW-w64 (installed
# with apt when missing) by scripts/release/build.sh, which itself checks that
# the executable is PE32+ for amd64 and needs no MinGW runtime DLL. This
# machine cannot run it; what is checked here, by other tools than the Go code
# that built it: `file` calls it a PE32+ x86-64 console executable, and
# Python's zipfile finds the wheel tagged win_amd64 with cudaforklint.exe (an
# "MZ" image, the same bytes as the release's .exe) as its only script.
#
#   .ci/windows-build.sh [REPO]     (default: the repository holding this script)
set -euo pipefail

repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
	echo "windows-build: installing gcc-mingw-w64-x86-64 (Debian package)" >&2
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq >/dev/null
	$SUDO apt-get install -y -qq gcc-mingw-w64-x86-64 file >/dev/null
fi
if ! command -v file >/dev/null; then
	echo "windows-build: FAIL: no file(1) (apt-get install file)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$repo/scripts/release/build.sh" -out "$tmp/dist" windows/amd64
(cd "$tmp/dist" && sha256sum -c SHA256SUMS)

exes=("$tmp"/dist/cudaforklint-*-windows-amd64.exe)
wheels=("$tmp"/dist/cudaforklint-*-py3-none-win_amd64.whl)
if [ "${#exes[@]}" -ne 1 ] || [ ! -f "${exes[0]}" ] || [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
	echo "windows-build: FAIL: want one .exe and one win_amd64 wheel, got: $(ls "$tmp/dist")" >&2
	exit 1
fi
kind=$(file -b "${exes[0]}")
echo "file: $kind"
case $kind in
"PE32+ executable (console) x86-64"*"for MS Windows"*) ;;
*)
	echo "windows-build: FAIL: ${exes[0]} is not a PE32+ x86-64 console executable" >&2
	exit 1
	;;
esac

python3 - "${wheels[0]}" "${exes[0]}" <<'PY'
import sys, zipfile

path, exe = sys.argv[1], sys.argv[2]
name = path.rsplit("/", 1)[1]
dist, version = name.split("-")[:2]
zf = zipfile.ZipFile(path)
info = f"{dist}-{version}.dist-info/"
script = f"{dist}-{version}.data/scripts/cudaforklint.exe"
want = [script, info + "METADATA", info + "WHEEL", info + "RECORD"]
assert zf.namelist() == want, f"entries {zf.namelist()}, want {want}"
data = zf.read(script)
assert data[:2] == b"MZ", "the script is not a Windows executable"
assert data == open(exe, "rb").read(), "the wheel's cudaforklint.exe differs from the release's .exe"
wheel = zf.read(info + "WHEEL").decode().splitlines()
assert "Tag: py3-none-win_amd64" in wheel and "Root-Is-Purelib: false" in wheel, "\n".join(wheel)
print(f"{name}: {script}, {len(data)} bytes, tagged py3-none-win_amd64")
PY
echo "windows-build: passed"
