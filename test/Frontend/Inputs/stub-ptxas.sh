#!/bin/sh
# A ptxas that runs but compiles nothing (test/Frontend/tile-tune.mlir).
if [ "$1" = "--version" ]; then
  echo "Cuda compilation tools, release 13.0, V13.0.0 (a test stub)"
  exit 0
fi
echo "ptxas fatal   : the test stub compiles nothing" >&2
exit 1
