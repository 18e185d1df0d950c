//===- TestUtil.h - Helpers shared by the runtime unit tests ----*- C++ -*-===//
//
// EXPECT_TILE_ERROR and the contract's example manifest.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TEST_TESTUTIL_H
#define TILE_RUNTIME_TEST_TESTUTIL_H

#include "tile/runtime/Error.h"
#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <string>

/// Expects `statement` to throw a tile::rt::Error whose message contains
/// `expected`.
#define EXPECT_TILE_ERROR(statement, expected)                                 \
  do {                                                                         \
    try {                                                                      \
      statement;                                                               \
      ADD_FAILURE() << "expected a tile::rt::Error containing: " << expected;  \
    } catch (const tile::rt::Error &error) {                                   \
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos)   \
          << "the message was: " << error.what();                              \
    }                                                                          \
  } while (false)

/// Why the GPU tests cannot run here ("no CUDA GPU: ..."), or "" when a
/// device is present: what their fixtures skip with.
inline std::string noGpuReason() {
  if (tile::rt::deviceCount() > 0)
    return "";
  std::string whyNot;
  tile::rt::isDriverAvailable(&whyNot);
  return "no CUDA GPU: " +
         (whyNot.empty() ? std::string("no devices") : whyNot);
}

/// The manifest of the compiler's contract (runtime/README.md).
inline constexpr const char *kVectorAddManifest = R"json({
  "format": "tile-manifest", "version": 1,
  "target": {"chip": "sm_90", "features": "+ptx80"},
  "kernels": [
    {
      "name": "vector_add",
      "block": [256, 1, 1],
      "grid": [ {"kind": "ceildiv", "param": "A", "dim": 0, "divisor": 1024} ],
      "dynamic_shared_memory": 0,
      "requires": [
        {"lhs": {"param": "B", "dim": 0}, "op": "==", "rhs": {"param": "A", "dim": 0}},
        {"lhs": {"param": "C", "dim": 0}, "op": "==", "rhs": {"param": "A", "dim": 0}}
      ],
      "params": [
        {"name": "A", "kind": "buffer", "dtype": "f32", "shape": [-1], "access": "read"},
        {"name": "B", "kind": "buffer", "dtype": "f32", "shape": [-1], "access": "read"},
        {"name": "C", "kind": "buffer", "dtype": "f32", "shape": [-1], "access": "write"},
        {"name": "A.dim0", "kind": "dim", "type": "i64", "buffer": "A", "dim": 0},
        {"name": "B.dim0", "kind": "dim", "type": "i64", "buffer": "B", "dim": 0},
        {"name": "C.dim0", "kind": "dim", "type": "i64", "buffer": "C", "dim": 0},
        {"name": "scale", "kind": "scalar", "type": "f32"}
      ]
    }
  ]
})json";

#endif // TILE_RUNTIME_TEST_TESTUTIL_H
