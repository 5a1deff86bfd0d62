#!/usr/bin/env bash
# Validate SARIF files with the SARIF Multitool, using GitHub's ingestion
# rules as well as the SARIF spec rules: `validate --rule-kind "Sarif;Gh"`.
#
#   .ci/sarif-validate.sh FILE.sarif...
#
# The multitool exits 0 even when it finds errors, so this script counts the
# error-level results in its output log and fails when there is any. Warnings
# and notes are printed but do not fail. The tool (@microsoft/sarif-multitool,
# a self-contained .NET binary shipped inside the npm package) is installed
# with npm into $SARIF_MULTITOOL_DIR (default: a cache directory) when missing.
set -euo pipefail

if [ "$#" -eq 0 ]; then
	echo "usage: $0 FILE.sarif..." >&2
	exit 2
fi

dir=${SARIF_MULTITOOL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cudaforklint/sarif-multitool}
tool=$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ ! -x "$tool" ]; then
	echo "sarif-validate: installing @microsoft/sarif-multitool into $dir" >&2
	mkdir -p "$dir"
	(cd "$dir" && npm install --no-save --no-package-lock --no-audit --no-fund @microsoft/sarif-multitool >&2)
	# npm may skip the package's postinstall (chmod u+x); the file is
	# executable in the tarball, but make sure.
	chmod u+x "$tool" 2>/dev/null || true
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failed=0
for f in "$@"; do
	if [ ! -f "$f" ]; then
		echo "sarif-validate: $f: no such file" >&2
		failed=1
		continue
	fi
	out=$tmp/$(basename "$f").validation.sarif
	# Booleans need a value; "Sarif;Gh" is one argument (no shell in between).
	if ! "$tool" validate "$f" --rule-kind "Sarif;Gh" --level "Error;Warning" \
		-o "$out" --log ForceOverwrite >"$tmp/log" 2>&1; then
		echo "sarif-validate: $f: the multitool failed:" >&2
		cat "$tmp/log" >&2
		failed=1
		continue
	fi
	# Count and show the results by level (node comes with npm).
	if ! node - "$out" "$f" <<'JS'
const fs = require("fs");
const [out, name] = process.argv.slice(2);
const log = JSON.parse(fs.readFileSync(out, "utf8").replace(/^\uFEFF/, ""));
let errors = 0, warnings = 0;
for (const run of log.runs || []) {
  for (const r of run.results || []) {
    const level = r.level || "warning";
    if (level === "error") errors++;
    else if (level === "warning") warnings++;
    else continue;
    const loc = ((r.locations || [])[0] || {}).physicalLocation || {};
    const line = (loc.region || {}).startLine;
    const text = (r.message || {}).text ||
      ((r.message || {}).arguments || []).join(", ");
    console.log(`${name}: ${level} ${r.ruleId}${line ? ` (line ${line})` : ""}: ${text}`);
  }
}
console.log(`${name}: ${errors} error(s), ${warnings} warning(s)`);
process.exit(errors > 0 ? 1 : 0);
JS
	then
		failed=1
	fi
done
exit $failed
