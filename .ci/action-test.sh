#!/usr/bin/env bash
# Runs the CI recipes' own steps on this machine, against examples/:
#   - the GitHub Action (action.yml): scripts/action/install.sh with the
#     linux/amd64 wheel built here (the action's `wheel` input), then
#     scripts/action/check.sh; the step output must say exit-code=1, the log
#     must hold ::error annotations, and the SARIF file must validate;
#   - the GitLab template (templates/gitlab/cudaforklint.gitlab-ci.yml): its
#     `script:` lines run in order by one shell, with CFL_WHEEL set to the
#     same wheel; the job must exit 1 and leave a Code Quality report naming
#     every default rule's example.
# Every script action.yml runs must exist. The runner's variables
# (RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT) point at files of a temporary
# directory, as a runner's do.
#
#   .ci/action-test.sh [REPO]     (default: the repository holding this script)
set -euo pipefail

repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "action-test: FAIL: $*" >&2
	exit 1
}

echo "== action.yml names scripts that exist"
grep -o '\$GITHUB_ACTION_PATH/[^"]*' "$repo/action.yml" | sed 's|\$GITHUB_ACTION_PATH/||' | while read -r s; do
	[ -f "$repo/$s" ] || fail "action.yml runs $s, which does not exist"
done
grep -q '^  using: composite' "$repo/action.yml" || fail "action.yml is not a composite action"

echo "== build the linux/amd64 wheel"
"$repo/scripts/release/build.sh" -out "$tmp/dist" linux/amd64 >/dev/null
wheel=$(ls "$tmp"/dist/cudaforklint-*-manylinux_2_17_x86_64.manylinux2014_x86_64.whl)

echo "== GitHub Action: install step"
mkdir -p "$tmp/runner"
export RUNNER_TEMP="$tmp/runner" GITHUB_PATH="$tmp/runner/path" GITHUB_OUTPUT="$tmp/runner/output"
: >"$GITHUB_PATH"
: >"$GITHUB_OUTPUT"
CFL_VERSION=0.1.0 CFL_WHEEL="$wheel" bash "$repo/scripts/action/install.sh"
[ -s "$GITHUB_PATH" ] || fail "install.sh added nothing to GITHUB_PATH"
action_path=$(cat "$GITHUB_PATH")

echo "== GitHub Action: check step on examples/"
cp -r "$repo/examples" "$tmp/gh"
(cd "$tmp/gh" && PATH="$action_path:$PATH" CFL_ARGS="--no-cache ." CFL_SARIF=cudaforklint.sarif \
	bash "$repo/scripts/action/check.sh") >"$tmp/gh.log" || fail "check.sh exited non-zero (it must leave failing to the fail step)"
grep -qx 'exit-code=1' "$GITHUB_OUTPUT" || fail "step output: $(cat "$GITHUB_OUTPUT"), want exit-code=1"
grep -q '^::error title=cudaforklint (CFL001),file=batch_inference.py' "$tmp/gh.log" || fail "no CFL001 annotation in the log:
$(cat "$tmp/gh.log")"
[ -s "$tmp/gh/cudaforklint.sarif" ] || fail "no SARIF file written"
"$repo/.ci/sarif-validate.sh" "$tmp/gh/cudaforklint.sarif"

echo "== GitLab template: its script lines on examples/"
template="$repo/templates/gitlab/cudaforklint.gitlab-ci.yml"
# The job's script is a YAML list of one-line commands under `script:`, as
# GitLab runs them: in order, in one shell, stopping at the first failure.
awk '/^  script:/{on=1; next} on && /^    - /{sub(/^    - /, ""); print; next} on{exit}' "$template" >"$tmp/gl.sh"
[ -s "$tmp/gl.sh" ] || fail "no script lines found in $template"
cp -r "$repo/examples" "$tmp/gl"
set +e
(cd "$tmp/gl" && CFL_VERSION=0.1.0 CFL_ARGS="--no-cache ." CFL_WHEEL="$wheel" bash -e "$tmp/gl.sh")
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "the GitLab job exited $rc, want 1 (findings)"
python3 - "$tmp/gl/gl-code-quality-report.json" <<'PY'
import json, sys
issues = json.load(open(sys.argv[1]))
checks = sorted({i["check_name"] for i in issues})
want = ["CFL001", "CFL002", "CFL004", "CFL005", "CFL007"]
assert checks == want, f"Code Quality report names {checks}, want {want}"
for i in issues:
    assert i["fingerprint"] and i["severity"] in ("major", "minor", "info"), i
    assert i["location"]["lines"]["begin"] >= 1, i
print(f"GitLab Code Quality report: {len(issues)} issues, {', '.join(checks)}")
PY
echo "action-test: ok"
