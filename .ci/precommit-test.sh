#!/usr/bin/env bash
# End-to-end test of the pre-commit hook (.pre-commit-hooks.yaml): builds the
# hook the way pre-commit does (language: golang → `go install ./...` in a
# clone of this repository) and runs it on a throwaway repository with a
# hazard script, which must fail with the finding shown, and a safe script,
# which must pass.
#
#   .ci/precommit-test.sh [REPO]     (default: the repository holding this script)
#
# The hook repository is a snapshot of REPO's working tree (tracked and
# untracked, non-ignored files), committed in a temporary git repository, so
# uncommitted work is tested too (`pre-commit try-repo` on a dirty tree would
# only take tracked files). PRE_COMMIT_HOME and GOCACHE live in temporary
# directories; GOMODCACHE and GOPROXY come from the environment (`go env`),
# so modules already downloaded are reused.
set -euo pipefail

repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)

if ! command -v pre-commit >/dev/null 2>&1; then
	echo "precommit-test: installing pre-commit (Debian package)" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq pre-commit >/dev/null
fi
pre-commit --version

tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

export PRE_COMMIT_HOME=$tmp/pre-commit-home
export GOCACHE=$tmp/gocache
GOMODCACHE=$(go env GOMODCACHE)
GOPROXY=$(go env GOPROXY)
export GOMODCACHE GOPROXY
export GIT_AUTHOR_NAME=precommit-test GIT_AUTHOR_EMAIL=test@example.invalid
export GIT_COMMITTER_NAME=precommit-test GIT_COMMITTER_EMAIL=test@example.invalid
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp/home
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global advice.detachedHead false

pre-commit validate-manifest "$repo/.pre-commit-hooks.yaml"

# The hook repository: a committed snapshot of the working tree.
hook=$tmp/hookrepo
mkdir -p "$hook"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard) |
	(cd "$repo" && xargs -0 cp --parents -t "$hook" 2>/dev/null || true)
# Files listed but deleted in the work tree are simply absent.
git -C "$hook" init -q
git -C "$hook" add -A
git -C "$hook" commit -q -m snapshot

# The project the hook runs on.
proj=$tmp/project
mkdir -p "$proj"
cat >"$proj/hazard.py" <<'PY'
import multiprocessing as mp

import torch


def work():
    torch.zeros(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    ctx = mp.get_context("fork")
    p = ctx.Process(target=work)
    p.start()
    p.join()
PY
cat >"$proj/safe.py" <<'PY'
import multiprocessing as mp

import torch


def work():
    torch.zeros(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    ctx = mp.get_context("spawn")
    p = ctx.Process(target=work)
    p.start()
    p.join()
PY
echo "not python" >"$proj/notes.txt"
cp "$repo/testdata/py/notebooks/hazard.ipynb" "$proj/hazard.ipynb"
git -C "$proj" init -q
git -C "$proj" add -A
git -C "$proj" commit -q -m project

fail=0
echo "== hazard.py: the hook must fail and show the finding"
set +e
out=$(cd "$proj" && pre-commit try-repo "$hook" cudaforklint --files hazard.py notes.txt --verbose 2>&1)
rc=$?
set -e
echo "$out"
if [ "$rc" -eq 0 ]; then
	echo "precommit-test: FAIL: the hook passed on hazard.py" >&2
	fail=1
elif ! grep -Eq 'hazard\.py:[0-9]+:[0-9]+: CFL0[0-9]{2}' <<<"$out"; then
	echo "precommit-test: FAIL: the hook failed on hazard.py without showing a finding" >&2
	fail=1
elif grep -q 'notes\.txt' <<<"$out"; then
	echo "precommit-test: FAIL: notes.txt was passed to the hook (types_or not applied)" >&2
	fail=1
fi

echo "== hazard.ipynb: the hook must fail and show the finding in its cell"
set +e
out=$(cd "$proj" && pre-commit try-repo "$hook" cudaforklint --files hazard.ipynb --verbose 2>&1)
rc=$?
set -e
echo "$out"
if [ "$rc" -eq 0 ] || ! grep -Eq 'hazard\.ipynb:cell [0-9]+:[0-9]+:[0-9]+: CFL0[0-9]{2}' <<<"$out"; then
	echo "precommit-test: FAIL: the hook did not report hazard.ipynb's finding (types_or must include jupyter)" >&2
	fail=1
fi

echo "== safe.py: the hook must pass"
set +e
out=$(cd "$proj" && pre-commit try-repo "$hook" cudaforklint --files safe.py --verbose 2>&1)
rc=$?
set -e
echo "$out"
if [ "$rc" -ne 0 ]; then
	echo "precommit-test: FAIL: the hook failed on safe.py" >&2
	fail=1
fi

if [ "$fail" -eq 0 ]; then
	echo "precommit-test: 3 passed, 0 failed"
else
	echo "precommit-test: FAILED" >&2
fi
exit $fail
