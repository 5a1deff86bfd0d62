#!/usr/bin/env bash
# End-to-end test of the pre-commit hooks (.pre-commit-hooks.yaml) with real
# pre-commit, on a throwaway repository with a hazard script, which must fail
# with the finding shown, and a safe script, which must pass (and, for the
# golang hook, a script that cannot be parsed, which must fail with the
# syntax error shown):
#   - cudaforklint: built the way pre-commit does (language: golang →
#     `go install ./...` in a clone of this repository);
#   - cudaforklint-wheel (language: python): pre-commit pip-installs the
#     repository (setup.py) and the linux/amd64 wheel built here by
#     scripts/release/build.sh, with no package index but a local one
#     (PIP_FIND_LINKS, PIP_NO_INDEX) and with PATH holding neither Go nor a C
#     compiler; once with the wheel resolved from that index by version
#     (additional_dependencies: cudaforklint==VERSION, as the manifest's pin
#     is resolved from PyPI), once given as a file URL (cudaforklint @ file://).
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
# The CI's hazard and its spawn look-alike (shared with wheel-test.sh).
cp "$repo/testdata/ci/hazard.py" "$repo/testdata/ci/safe.py" "$proj/"
printf 'def broken(:\n    pass\n' >"$proj/broken.py"
echo "not python" >"$proj/notes.txt"
cp "$repo/testdata/py/notebooks/hazard.ipynb" "$proj/hazard.ipynb"
git -C "$proj" init -q
git -C "$proj" add -A
git -C "$proj" commit -q -m project

fail=0
# expect_hazard_found HOOK RC OUT: a run of HOOK on hazard.py and notes.txt
# must fail, show a finding in hazard.py, and never be handed notes.txt
# (types_or).
expect_hazard_found() {
	if [ "$2" -eq 0 ]; then
		echo "precommit-test: FAIL: $1 passed on hazard.py" >&2
		fail=1
	elif ! grep -Eq 'hazard\.py:[0-9]+:[0-9]+: CFL0[0-9]{2}' <<<"$3"; then
		echo "precommit-test: FAIL: $1 failed on hazard.py without showing a finding" >&2
		fail=1
	elif grep -q 'notes\.txt' <<<"$3"; then
		echo "precommit-test: FAIL: notes.txt was passed to $1 (types_or not applied)" >&2
		fail=1
	fi
}

echo "== hazard.py: the hook must fail and show the finding"
set +e
out=$(cd "$proj" && pre-commit try-repo "$hook" cudaforklint --files hazard.py notes.txt --verbose 2>&1)
rc=$?
set -e
echo "$out"
expect_hazard_found "the hook" "$rc" "$out"

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

echo "== broken.py: a file that cannot be parsed must fail the hook"
set +e
out=$(cd "$proj" && pre-commit try-repo "$hook" cudaforklint --files broken.py --verbose 2>&1)
rc=$?
set -e
echo "$out"
if [ "$rc" -eq 0 ]; then
	echo "precommit-test: FAIL: the hook passed on broken.py" >&2
	fail=1
elif ! grep -Eq 'broken\.py:1:[0-9]+: SyntaxError' <<<"$out"; then
	echo "precommit-test: FAIL: the hook failed on broken.py without showing the syntax error" >&2
	fail=1
fi

echo "== cudaforklint-wheel: the wheel and a local package index"
"$repo/scripts/release/build.sh" -out "$tmp/dist" linux/amd64
wheels=("$tmp"/dist/cudaforklint-*-manylinux_2_17_x86_64*.whl)
whl=${wheels[0]}
version=$(basename "$whl" | cut -d- -f2 | tr _ -)
# The index: the wheel, and the build backend pip may need for the hook
# repository's setup.py (pip builds it in isolation when the venv lacks
# setuptools and wheel): Debian's wheels, which come with python3-virtualenv.
mkdir -p "$tmp/index" "$tmp/backend"
cp /usr/share/python-wheels/setuptools-*.whl /usr/share/python-wheels/wheel-*.whl "$tmp/backend/"
cp "$tmp/backend"/*.whl "$whl" "$tmp/index/"

# The user's PATH: the system's programs (git and pre-commit, and the shell
# tools git-submodule runs) but no Go and no C compiler.
mkdir -p "$tmp/tools"
for prog in /usr/bin/*; do
	case ${prog##*/} in
	go | gofmt | *gcc* | *g++* | *cpp* | cc | c++ | c89 | c99 | clang* | tcc) continue ;;
	esac
	[ -x "$prog" ] && ln -s "$prog" "$tmp/tools/${prog##*/}"
done
for tool in go gcc cc clang tcc c99 x86_64-linux-gnu-gcc; do
	if found=$(env -i PATH="$tmp/tools" /bin/sh -c "command -v $tool"); then
		echo "precommit-test: FAIL: $tool is reachable in the wheel hook's environment: $found" >&2
		fail=1
	fi
done

cat >"$proj/index.yaml" <<YAML
repos:
  - repo: $hook
    rev: $(git -C "$hook" rev-parse HEAD)
    hooks:
      - id: cudaforklint-wheel
        additional_dependencies: ["cudaforklint==$version"]
YAML
cat >"$proj/url.yaml" <<YAML
repos:
  - repo: $hook
    rev: $(git -C "$hook" rev-parse HEAD)
    hooks:
      - id: cudaforklint-wheel
        additional_dependencies: ["cudaforklint @ file://$whl"]
YAML
git -C "$proj" add index.yaml url.yaml
git -C "$proj" commit -q -m configs

# wheelhook CONFIG LINKS ARGS...: pre-commit run in the user's environment.
wheelhook() {
	local config=$1 links=$2
	shift 2
	(cd "$proj" && env -i HOME="$HOME" PATH="$tmp/tools" LANG=C.UTF-8 \
		PRE_COMMIT_HOME="$PRE_COMMIT_HOME" GIT_CONFIG_NOSYSTEM=1 \
		GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid \
		GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid \
		PIP_NO_INDEX=1 PIP_FIND_LINKS="$links" PIP_DISABLE_PIP_VERSION_CHECK=1 \
		pre-commit run -c "$config" "$@" 2>&1)
}

passed=4 # the golang hook: hazard.py, hazard.ipynb, safe.py, broken.py
for config in index url; do
	links=$tmp/index
	if [ "$config" = url ]; then
		links=$tmp/backend # the index lacks the wheel: only the URL can supply it
	fi
	echo "== cudaforklint-wheel ($config.yaml), hazard.py: the hook must fail and show the finding"
	set +e
	out=$(wheelhook "$config.yaml" "$links" --files hazard.py notes.txt --verbose)
	rc=$?
	set -e
	echo "$out"
	expect_hazard_found "the wheel hook ($config)" "$rc" "$out"
	echo "== cudaforklint-wheel ($config.yaml), safe.py: the hook must pass"
	set +e
	out=$(wheelhook "$config.yaml" "$links" --files safe.py --verbose)
	rc=$?
	set -e
	echo "$out"
	if [ "$rc" -ne 0 ]; then
		echo "precommit-test: FAIL: the wheel hook ($config) failed on safe.py" >&2
		fail=1
	fi
	passed=$((passed + 2))
done
# The hook ran the wheel's executable, in both environments, not one built
# from source.
exe=$tmp/dist/cudaforklint-$(basename "$whl" | cut -d- -f2)-linux-amd64
envs=0
for envbin in "$PRE_COMMIT_HOME"/repo*/py_env-*/bin/cudaforklint; do
	[ -e "$envbin" ] || continue
	envs=$((envs + 1))
	if ! cmp -s "$envbin" "$exe"; then
		echo "precommit-test: FAIL: $envbin is not the wheel's executable" >&2
		fail=1
	fi
done
if [ "$envs" -ne 2 ]; then
	echo "precommit-test: FAIL: $envs python hook environments hold cudaforklint, want 2" >&2
	fail=1
fi

if [ "$fail" -eq 0 ]; then
	echo "precommit-test: $passed passed, 0 failed"
else
	echo "precommit-test: FAILED" >&2
fi
exit $fail
