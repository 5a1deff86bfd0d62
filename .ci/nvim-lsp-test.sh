#!/usr/bin/env bash
# The language server against a real client: headless Neovim (Debian's
# package, 0.7) opens a hazard, waits for the diagnostic at the right range,
# applies the quick fix, checks the buffer, then edits the file by hand and
# sees the diagnostic come back and go, then types a syntax error and sees
# it reported and cleared (testdata/lsp/nvim_client.lua). Notebooks are
# tested in Go only (server/notebook_test.go): Neovim 0.7 has no notebook
# synchronization.
# Installs neovim with apt when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvim >/dev/null; then
	echo "installing neovim" >&2
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	$SUDO apt-get update -qq >/dev/null
	$SUDO apt-get install -y -qq neovim >/dev/null
fi
nvim --version | head -1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/cudaforklint" ./cmd/cudaforklint
mkdir -p "$work/ws"
cp testdata/lsp/workspace/* "$work/ws/"

set +e
CFL_BIN="$work/cudaforklint" CFL_WORKSPACE="$work/ws" CFL_RESULT="$work/result.json" \
	XDG_CONFIG_HOME="$work/xdg/config" XDG_DATA_HOME="$work/xdg/data" \
	XDG_STATE_HOME="$work/xdg/state" XDG_CACHE_HOME="$work/xdg/cache" \
	timeout 300 nvim --headless --clean -n -c "luafile testdata/lsp/nvim_client.lua"
rc=$?
set -e
if [ ! -s "$work/result.json" ]; then
	echo "nvim exited $rc without a report" >&2
	exit 1
fi
python3 - "$work/result.json" "$rc" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for s in report["steps"]:
    print("ok:", s["step"], json.dumps(s.get("detail", "")))
if not report["ok"] or sys.argv[2] != "0":
    print("FAILED (nvim exit %s): %s" % (sys.argv[2], report.get("error")), file=sys.stderr)
    sys.exit(1)
print("Neovim drove cudaforklint server through every step.")
PY
