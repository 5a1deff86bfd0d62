#!/usr/bin/env bash
# Builds the release files into dist/: for each platform a self-contained
# cudaforklint executable and a platform wheel that installs it without Go or a
# C compiler, and SHA256SUMS. See scripts/release/release.go for what it does
# and checks, docs/install.md for how the files are used.
#
#   scripts/release/build.sh [-out DIR] [linux/amd64] [linux/arm64] [windows/amd64]
#
# Default: all three. It needs Go and, per platform, a C
# compiler: the host's for the host, else Debian's cross compilers
# (apt-get install gcc-aarch64-linux-gnu gcc-mingw-w64-x86-64).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec go run ./scripts/release/release.go "$@"
