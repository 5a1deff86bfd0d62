#!/usr/bin/env bash
# The GitHub Action's check step (action.yml): runs `cudaforklint check` with
# workflow-command annotations in the log and SARIF written to CFL_SARIF, and
# records the exit code as the step's output `exit-code` for the upload and
# fail steps. It exits 0 itself, so that the upload runs after findings.
#
#   CFL_ARGS    what to check and other flags, split on spaces
#   CFL_SARIF   the SARIF file to write
#   GITHUB_OUTPUT   set by the runner (.ci/run sets it to test it)
set -uo pipefail

read -r -a args <<<"${CFL_ARGS:-.}"
cudaforklint check --output-format github --output "sarif:${CFL_SARIF:-cudaforklint.sarif}" "${args[@]}"
rc=$?
echo "exit-code=$rc" >>"${GITHUB_OUTPUT:-/dev/null}"
case $rc in
0) echo "cudaforklint: no findings" ;;
1) echo "cudaforklint: findings reported (exit 1)" ;;
*) echo "cudaforklint: some files could not be checked (exit $rc)" ;;
esac
exit 0
