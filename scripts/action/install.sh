#!/usr/bin/env bash
# The GitHub Action's install step (action.yml): installs cudaforklint's wheel
# into a virtual environment of its own and puts its bin directory on the
# job's PATH.
#
#   CFL_VERSION   the release to download (its wheel is checked against the
#                 release's SHA256SUMS)
#   CFL_WHEEL     a wheel file or URL to install instead (no checksum: you
#                 chose the file)
#   RUNNER_TEMP, GITHUB_PATH   set by the runner (.ci/run sets them to test it)
set -euo pipefail

: "${CFL_VERSION:?}"
venv="${RUNNER_TEMP:-/tmp}/cudaforklint-venv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

case "$(uname -m)" in
x86_64) plat=manylinux_2_17_x86_64.manylinux2014_x86_64 ;;
aarch64 | arm64) plat=manylinux_2_17_aarch64.manylinux2014_aarch64 ;;
*)
	echo "cudaforklint: no release wheel for $(uname -m); set the wheel input" >&2
	exit 2
	;;
esac

wheel=${CFL_WHEEL:-}
if [ -z "$wheel" ]; then
	base="https://github.com/cudaforklint/cudaforklint/releases/download/v$CFL_VERSION"
	name="cudaforklint-$CFL_VERSION-py3-none-$plat.whl"
	(cd "$work" && curl -fsSL -O "$base/$name" -O "$base/SHA256SUMS" &&
		sha256sum -c --ignore-missing SHA256SUMS)
	wheel="$work/$name"
elif [[ "$wheel" == http://* || "$wheel" == https://* ]]; then
	name=$(basename "${wheel%%\?*}")
	curl -fsSL -o "$work/$name" "$wheel"
	wheel="$work/$name"
fi

python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --no-index --no-deps "$wheel"
echo "$venv/bin" >>"${GITHUB_PATH:-/dev/null}"
"$venv/bin/cudaforklint" version
