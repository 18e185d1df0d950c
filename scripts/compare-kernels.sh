#!/usr/bin/env bash
# The refactor check: compiles the whole kernel library (tile-kernels
# --out-dir) at two revisions and compares every kernel's PTX and manifest
# byte for byte.
#
#   scripts/compare-kernels.sh BASE [HEAD]
#
# BASE and HEAD are git revisions; HEAD defaults to the working tree (built
# into ${TILE_BUILD_DIR:-build}). BASE may also be a folder that
# `tile-kernels --out-dir` wrote earlier (a saved reference: no build of the
# base). Set TMPDIR to give concurrent runs their own scratch folders. A revision is checked out into a temporary
# worktree and built into its own folder (ccache makes this cheap). Prints
# one line per kernel whose PTX or manifest differs (or that exists on one
# side only) and a summary; exits 1 when anything differs, 0 when every file
# is byte-identical.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[ $# -ge 1 ] || { echo "usage: $0 BASE [HEAD]" >&2; exit 2; }
scratch=${TMPDIR:-/tmp}/tile-compare
mkdir -p "$scratch"
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}

# kernels REV OUT: the library at REV ("" = working tree) into folder OUT.
kernels() {
  local rev=$1 out=$2 src build
  if [ -z "$rev" ]; then
    src=$root
    build=${TILE_BUILD_DIR:-$root/build}
  else
    local sha
    sha=$(git rev-parse --short "$rev^{commit}")
    src=$scratch/src-$sha
    build=$scratch/build-$sha
    if [ ! -d "$src" ]; then
      git worktree add --detach "$src" "$sha" > /dev/null
    fi
  fi
  (cd "$src" && TILE_BUILD_DIR=$build scripts/build.sh > "$out.build.log" 2>&1) ||
    { echo "compare-kernels: build of ${rev:-the working tree} failed (log: $out.build.log)" >&2; exit 2; }
  rm -rf "$out"
  "$build/bin/tile-kernels" --out-dir="$out" > "$out.log" 2>&1 ||
    { echo "compare-kernels: tile-kernels at ${rev:-the working tree} failed (log: $out.log)" >&2; exit 2; }
}

if [ -d "$1" ]; then
  base_out=$(cd "$1" && pwd)
else
  base_out=$scratch/kernels-base
  kernels "$1" "$base_out"
fi
head_out=$scratch/kernels-head
kernels "${2:-}" "$head_out"

changed=0 same=0
names=$( (cd "$base_out" && ls *.ptx *.manifest.json; cd "$head_out" && ls *.ptx *.manifest.json) 2>/dev/null | sort -u)
for file in $names; do
  if [ ! -f "$base_out/$file" ]; then
    echo "only in ${2:-the working tree}: $file"; changed=$((changed + 1))
  elif [ ! -f "$head_out/$file" ]; then
    echo "only in $1: $file"; changed=$((changed + 1))
  elif cmp -s "$base_out/$file" "$head_out/$file"; then
    same=$((same + 1))
  else
    echo "differs: $file"; changed=$((changed + 1))
  fi
done
echo "compare-kernels: $same files byte-identical, $changed differ ($1 vs ${2:-the working tree}; outputs in $scratch)"
[ "$changed" -eq 0 ]
