#!/usr/bin/env bash
# Regenerates docs/generated/ (dialect, type, attribute and pass reference)
# from the ODS definitions.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TILE_BUILD_DIR:-build}
ninja -C "$build" mlir-doc
rm -rf docs/generated
mkdir -p docs/generated
cp "$build"/docs/Dialects/*.md "$build"/docs/Passes/*.md docs/generated/
ls docs/generated
