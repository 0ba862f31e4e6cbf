#!/usr/bin/env bash
# Configures (or reconfigures) and builds a Meson build directory: ci/setup.sh [DIR] [meson options]
# Meson 1.0 refuses `setup` on an existing build dir and `--reconfigure` on a new one.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
if [ -f "$dir/build.ninja" ]; then
	meson setup --reconfigure "$dir" "$@"
else
	meson setup "$dir" "$@"
fi
meson compile -C "$dir"
