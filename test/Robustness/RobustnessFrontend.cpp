//===- RobustnessFrontend.cpp - Hostile uses of the C++ frontend ----------===//
//
// The robustness suite's driver for tile::fe (docs/Robustness.md):
//
//   tile-robustness-frontend probe NAME [--cubin]
//       one misuse of the kernel-building API (`probe list` lists them);
//   tile-robustness-frontend gen GENERATOR [key=value ...] [--cubin]
//       a library generator with the configuration given in the kernel
//       index's keys (block_m=128 in_dtype=f16 ...; `chip`, `features`,
//       `opt`, `cuda_toolkit` set the compile options);
//   tile-robustness-frontend compile-file FILE.mlir [--cubin] [--chip=C]
//                                         [--no-diagnostics]
//       a tile module from a file through tile::fe::compile(); with
//       --no-diagnostics any diagnostic, even on success, and any ptxas
//       warning is a failure (a valid kernel compiles silently).
//
// Every case runs Program::verify() and then compile() (also when verify()
// reported errors: compile() must refuse what the verifier refuses).
// Exit status: 0 when the kernel verified and compiled with no diagnostic;
// 1 when the frontend refused it in a documented way (diagnostics from
// verify() or compile(), or a tile::fe std::invalid_argument /
// std::logic_error); 3 for a defect: compile() accepted a module that
// verify() rejects, succeeded with an error in its diagnostics, failed
// without saying why, produced PTX without an entry point, or an exception
// that the frontend does not document escaped (std::out_of_range,
// std::bad_alloc, ...). 2 is a usage error of this driver.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/Frontend.h"
#include "tile/Frontend/Kernels.h"
#include "tile/Frontend/Variants.h"
#include "tile/Registration/InputLimits.h"

#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

using namespace tile::fe;

namespace {

int usage(const std::string &why) {
  std::fprintf(stderr, "tile-robustness-frontend: %s\n", why.c_str());
  return 2;
}

struct Options {
  bool cubin = false;
  bool noDiagnostics = false;
  CompileOptions compile;
};

/// Verifies and compiles what `build` put into a fresh program; the exit
/// status of the driver.
int run(const std::function<void(Program &)> &build, Options options) {
  Program program;
  std::string stage = "building";
  try {
    build(program);
    stage = "Program::verify()";
    std::string verifyErrors = program.verify();
    stage = "compile()";
    options.compile.emitCubin = options.cubin;
    CompiledModule compiled = compile(program.module(), options.compile);
    if (!verifyErrors.empty())
      std::fprintf(stderr, "verify():\n%s\n", verifyErrors.c_str());
    if (!compiled.error.empty())
      std::fprintf(stderr, "compile() %s:\n%s\n",
                   compiled.ok ? "succeeded" : "failed",
                   compiled.error.c_str());
    bool hasKernel = false;
    program.module().walk([&](mlir::Operation *op) {
      if (op->getName().getStringRef() == "tile.kernel")
        hasKernel = true;
    });
    if (compiled.ok && !verifyErrors.empty()) {
      std::fprintf(stderr, "tile-robustness-frontend: FAIL: compile() "
                           "accepted a module that verify() rejects\n");
      return 3;
    }
    if (compiled.ok && compiled.error.find("error") != std::string::npos) {
      std::fprintf(stderr, "tile-robustness-frontend: FAIL: compile() "
                           "returned ok with an error in its diagnostics\n");
      return 3;
    }
    if (!compiled.ok && compiled.error.empty() && verifyErrors.empty()) {
      std::fprintf(stderr, "tile-robustness-frontend: FAIL: compile() "
                           "failed without a diagnostic\n");
      return 3;
    }
    if (compiled.ok && hasKernel &&
        compiled.ptx.find(".entry") == std::string::npos) {
      std::fprintf(stderr, "tile-robustness-frontend: FAIL: compile() "
                           "returned PTX without an .entry\n");
      return 3;
    }
    if (compiled.ok && options.noDiagnostics) {
      bool warned = false;
      for (llvm::StringRef line : llvm::split(compiled.ptxasLog, '\n')) {
        if (line.contains_insensitive("warning") ||
            line.contains_insensitive("error")) {
          std::fprintf(stderr, "ptxas: %s\n", line.str().c_str());
          warned = true;
        }
        if (line.contains("spill") && !line.contains(" 0 bytes spill stores"))
          std::printf("note: ptxas: %s\n", line.trim().str().c_str());
      }
      if (warned || !compiled.error.empty()) {
        std::fprintf(stderr, "tile-robustness-frontend: FAIL: a valid "
                             "kernel compiled with diagnostics\n");
        return 3;
      }
    }
    if (!compiled.ok || !verifyErrors.empty())
      return 1;
    std::printf("ok: %zu bytes of PTX, %zu of cubin\n", compiled.ptx.size(),
                compiled.cubin.size());
    return 0;
  } catch (const std::out_of_range &e) {
    std::fprintf(stderr,
                 "tile-robustness-frontend: FAIL: std::out_of_range escaped "
                 "while %s: %s\n",
                 stage.c_str(), e.what());
  } catch (const std::length_error &e) {
    std::fprintf(stderr,
                 "tile-robustness-frontend: FAIL: std::length_error escaped "
                 "while %s: %s\n",
                 stage.c_str(), e.what());
  } catch (const std::invalid_argument &e) {
    std::fprintf(stderr, "tile::fe refused (std::invalid_argument): %s\n",
                 e.what());
    return 1;
  } catch (const std::logic_error &e) {
    std::fprintf(stderr, "tile::fe refused (std::logic_error): %s\n", e.what());
    return 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr,
                 "tile-robustness-frontend: FAIL: %s escaped while %s: %s\n",
                 typeid(e).name(), stage.c_str(), e.what());
  }
  return 3;
}

//===----------------------------------------------------------------------===//
// gen: library generators with arbitrary configurations
//===----------------------------------------------------------------------===//

using Fields = std::map<std::string, std::string>;

/// Moves the value of `key` from `fields` into `out` (integers in any base
/// strtoll reads, bools as 0/1/true/false, strings as given).
bool take(Fields &fields, const char *key, int64_t &out) {
  auto it = fields.find(key);
  if (it == fields.end())
    return false;
  out = std::strtoll(it->second.c_str(), nullptr, 0);
  fields.erase(it);
  return true;
}
bool take(Fields &fields, const char *key, bool &out) {
  auto it = fields.find(key);
  if (it == fields.end())
    return false;
  out = it->second == "1" || it->second == "true";
  fields.erase(it);
  return true;
}
bool take(Fields &fields, const char *key, std::string &out) {
  auto it = fields.find(key);
  if (it == fields.end())
    return false;
  out = it->second;
  fields.erase(it);
  return true;
}

/// The generator's default configuration with the fields of `fields` that
/// are its keys (Config::forEachField) moved into it.
template <typename Config>
Variant takeConfig(Fields &fields, Variant (*variant)(const Config &)) {
  Config c;
  Config::forEachField(
      c, [&](const auto &key, auto &field) { take(fields, key.name, field); });
  return variant(c);
}

int gen(const std::string &generator, Fields fields, Options options) {
  int64_t opt = options.compile.target.optLevel;
  take(fields, "chip", options.compile.target.chip);
  take(fields, "features", options.compile.target.features);
  take(fields, "cuda_toolkit", options.compile.cudaToolkit);
  if (take(fields, "opt", opt))
    options.compile.target.optLevel = unsigned(opt);
  Variant variant;
  if (generator == tile::config::vector_add::generator)
    variant = takeConfig(fields, vectorAddVariant);
  else if (generator == tile::config::print_demo::generator)
    variant = takeConfig(fields, printDemoVariant);
  else if (generator == tile::config::bias_gelu::generator)
    variant = takeConfig(fields, biasGeluVariant);
  else if (generator == tile::config::gemm_softmax::generator)
    variant = takeConfig(fields, gemmSoftmaxVariant);
  else if (generator == tile::config::attention::generator)
    variant = takeConfig(fields, attentionVariant);
  else if (generator == tile::config::softmax::generator)
    variant = takeConfig(fields, softmaxVariant);
  else if (generator == tile::config::gemm::generator)
    variant = takeConfig(fields, gemmVariant);
  else
    return usage("unknown generator '" + generator + "'");
  if (!fields.empty())
    return usage("generator '" + generator + "' has no field '" +
                 fields.begin()->first + "'");
  return run([&](Program &program) { (void)variant.build(program); }, options);
}

//===----------------------------------------------------------------------===//
// probe: misuse of the kernel-building API
//===----------------------------------------------------------------------===//

/// A kernel with a 1-D dynamic f32 tensor A, a second one B and a scalar s;
/// `inBody` runs inside its body after a 128-element fragment f is copied
/// in from A, and f is copied out to B at the end.
struct Skeleton {
  std::string name = "k";
  int64_t threads = 128;
  std::string secondName = "B";
  std::function<void(Kernel &, Buffer &, Buffer &)> beforeBody;
  std::function<std::vector<GridExtent>(Buffer &)> grid;
  std::function<void(Kernel &, Buffer &, Buffer &, Buffer &)> inBody;

  void build(Program &program) const {
    Kernel k = program.kernel(name, threads);
    Buffer A = k.tensor("A", {kDynamic}, program.f32());
    Buffer B = k.tensor(secondName, {kDynamic}, program.f32());
    (void)k.scalarParam("s", program.f32());
    if (beforeBody)
      beforeBody(k, A, B);
    std::vector<GridExtent> extents =
        grid ? grid(A) : std::vector<GridExtent>{ceildiv(A, 0, 128)};
    k.body(extents, [&](Kernel &k) {
      Buffer f = k.allocFragment({128}, program.f32());
      Expr offset = k.blockIndex(0) * 128.0;
      k.copy(A.at({offset}), f);
      if (inBody)
        inBody(k, A, B, f);
      k.copy(f, B.at({offset}));
    });
  }
};

using Probe = std::function<void(Program &)>;

Probe inBody(std::function<void(Kernel &, Buffer &, Buffer &, Buffer &)> f) {
  return [f](Program &program) {
    Skeleton s;
    s.inBody = f;
    s.build(program);
  };
}
Probe withGrid(std::function<std::vector<GridExtent>(Buffer &)> grid) {
  return [grid](Program &program) {
    Skeleton s;
    s.grid = grid;
    s.build(program);
  };
}
Probe beforeBody(std::function<void(Kernel &, Buffer &, Buffer &)> f) {
  return [f](Program &program) {
    Skeleton s;
    s.beforeBody = f;
    s.build(program);
  };
}
Probe named(std::string name) {
  return [name](Program &program) {
    Skeleton s;
    s.name = name;
    s.build(program);
  };
}
Probe threads(int64_t n) {
  return [n](Program &program) {
    Skeleton s;
    s.threads = n;
    s.build(program);
  };
}
/// A fragment of `shape` and `type` allocated in the skeleton's body, and
/// filled (so that it is used).
Probe fragment(std::vector<int64_t> shape,
               std::function<mlir::Type(Program &)> type) {
  return [shape, type](Program &program) {
    Skeleton s;
    s.inBody = [&](Kernel &k, Buffer &A, Buffer &B, Buffer &) {
      Buffer g = k.allocFragment(shape, type(program));
      k.clear(g);
      // Used, so that no pass may drop it: through the f32 tensors.
      if (shape.size() == 1 && type(program) == program.f32()) {
        k.copy(A.at({k.index(0)}), g);
        k.copy(g, B.at({k.index(0)}));
      }
    };
    s.build(program);
  };
}
Probe shared(std::vector<int64_t> shape) {
  return [shape](Program &program) {
    Skeleton s;
    s.inBody = [&](Kernel &k, Buffer &A, Buffer &, Buffer &) {
      Buffer t = k.allocShared(shape, program.f32());
      k.copy(A.at({k.index(0)}), t);
    };
    s.build(program);
  };
}
/// A kernel whose tensor parameter A has `shape`.
Probe tensor(std::vector<int64_t> shape) {
  return [shape](Program &program) {
    Kernel k = program.kernel("k", 128);
    Buffer A = k.tensor("A", shape, program.f32());
    k.body({constant(1)}, [&](Kernel &k) {
      Buffer f = k.allocFragment({128}, program.f32());
      k.clear(f);
      (void)A;
    });
  };
}
/// The tile-level GEMM of `m x k` by `k x n` shared tiles of `type` into an
/// f32 `m x n` fragment (the accumulator shape given separately).
Probe gemm(std::vector<int64_t> a, std::vector<int64_t> b,
           std::vector<int64_t> c, std::function<mlir::Type(Program &)> type) {
  return [=](Program &program) {
    Kernel k = program.kernel("k", 128);
    Buffer A = k.tensor("A", {kDynamic, kDynamic}, type(program));
    Buffer C = k.tensor("C", {kDynamic, kDynamic}, program.f32());
    k.body({constant(1)}, [&](Kernel &k) {
      Buffer as = k.allocShared(a, type(program));
      Buffer bs = k.allocShared(b, type(program));
      Buffer acc = k.allocFragment(c, program.f32());
      k.clear(acc);
      k.copy(A.at({k.index(0), k.index(0)}), as);
      k.copy(A.at({k.index(0), k.index(0)}), bs);
      k.gemm(as, bs, acc);
      k.copy(acc, C.at({k.index(0), k.index(0)}));
    });
  };
}
Probe compileWith(std::function<void(CompileOptions &)> set,
                  std::string generator = "vector_add");

std::map<std::string, Probe> &probes() {
  static std::map<std::string, Probe> table;
  return table;
}
std::map<std::string, std::function<void(CompileOptions &)>> &compileProbes() {
  static std::map<std::string, std::function<void(CompileOptions &)>> table;
  return table;
}

mlir::Type f32(Program &p) { return p.f32(); }
mlir::Type f16(Program &p) { return p.f16(); }

void registerProbes() {
  auto &t = probes();
  // The findings of issue 16 (frontend-probe.cpp).
  t["block-index-out-of-grid"] =
      inBody([](Kernel &k, Buffer &A, Buffer &, Buffer &f) {
        k.copy(A.at({k.blockIndex(2)}), f);
      });
  t["block-index-before-body"] =
      beforeBody([](Kernel &k, Buffer &, Buffer &) { (void)k.blockIndex(0); });
  t["scalar-index-out-of-range"] = inBody(
      [](Kernel &k, Buffer &, Buffer &, Buffer &f) { k.fill(f, k.scalar(7)); });
  t["default-expr-in-arithmetic"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &) {
        (void)(k.index(1) + Expr());
      });
  t["fragment-i1"] = fragment({128}, [](Program &p) {
    return mlir::Type(mlir::IntegerType::get(&p.context(), 1));
  });
  t["fragment-index"] = fragment({128}, [](Program &p) {
    return mlir::Type(mlir::IndexType::get(&p.context()));
  });
  t["shared-dynamic-size"] = shared({kDynamic});
  t["kernel-name-space"] = named("my kernel");
  t["fragment-negative-size"] = fragment({-128}, f32);
  t["element-index-float"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.parallel({128}, [&](const Indices &i) { f[i] = f[i[0] + 1.0]; });
      });
  t["duplicate-parameter-names"] = [](Program &program) {
    Skeleton s;
    s.secondName = "A";
    s.build(program);
  };
  t["tensor-rank-0"] = tensor({});
  t["tensor-rank-5"] = tensor({kDynamic, 2, 2, 2, 2});
  t["tensor-negative-size"] = tensor({-128});
  t["tensor-zero-size"] = tensor({0});
  // Locations of errors (issue 16 #13): element accesses, select on f32,
  // exp of an index.
  t["element-store-type-mismatch"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.parallel({128}, [&](const Indices &i) { f[i] = k.index(3); });
      });
  t["select-f32-condition"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.parallel({128}, [&](const Indices &i) {
          Expr x = f[i];
          f[i] = select(x, x, x);
        });
      });
  t["exp-of-index"] = inBody(
      [](Kernel &k, Buffer &, Buffer &, Buffer &) { (void)exp(k.index(3)); });
  // Names.
  t["kernel-name-empty"] = named("");
  t["kernel-name-dash"] = named("a-b");
  t["kernel-name-utf8"] = named("k\xE2\x82\xAC");
  t["kernel-name-quote"] = named("a\"b");
  t["kernel-name-digit-first"] = named("1k");
  t["kernel-name-ptx-keyword"] = named("ret");
  t["kernel-name-very-long"] = named(std::string(100000, 'k'));
  t["two-kernels-same-name"] = [](Program &program) {
    Skeleton s;
    s.build(program);
    s.build(program);
  };
  // Threads.
  t["threads-zero"] = threads(0);
  t["threads-negative"] = threads(-1);
  t["threads-huge"] = threads(int64_t(1) << 40);
  t["threads-33"] = threads(33);
  // Grids.
  t["grid-dim-out-of-range"] =
      withGrid([](Buffer &A) { return std::vector{ceildiv(A, 3, 128)}; });
  t["grid-divisor-zero"] =
      withGrid([](Buffer &A) { return std::vector{ceildiv(A, 0, 0)}; });
  t["grid-divisor-negative"] =
      withGrid([](Buffer &A) { return std::vector{ceildiv(A, 0, -128)}; });
  t["grid-constant-negative"] =
      withGrid([](Buffer &) { return std::vector{constant(-1)}; });
  t["grid-constant-huge"] = withGrid(
      [](Buffer &) { return std::vector{constant(int64_t(1) << 40)}; });
  t["grid-four-extents"] = withGrid([](Buffer &A) {
    return std::vector{ceildiv(A, 0, 128), constant(1), constant(1),
                       constant(1)};
  });
  t["grid-empty"] =
      withGrid([](Buffer &) { return std::vector<GridExtent>{}; });
  // Launch promises.
  t["divisible-by-zero"] =
      beforeBody([](Kernel &k, Buffer &A, Buffer &) { k.divisible(A, 0, 0); });
  t["divisible-negative"] =
      beforeBody([](Kernel &k, Buffer &A, Buffer &) { k.divisible(A, 0, -8); });
  t["divisible-dim-out-of-range"] =
      beforeBody([](Kernel &k, Buffer &A, Buffer &) { k.divisible(A, 3, 8); });
  t["raster-panel-negative"] =
      beforeBody([](Kernel &k, Buffer &, Buffer &) { k.rasterPanel(-1); });
  // Tile sizes.
  t["fragment-zero-size"] = fragment({0}, f32);
  t["fragment-rank-5"] = fragment({2, 2, 2, 2, 8}, f32);
  t["fragment-huge"] = fragment({1 << 20}, f32);
  t["fragment-element-count-overflow"] =
      fragment({int64_t(1) << 32, int64_t(1) << 32}, f32);
  t["shared-huge"] = shared({65536, 65536});
  t["shared-negative-size"] = shared({-128});
  // Operations on the wrong things.
  t["copy-shape-mismatch"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        Buffer g = k.allocFragment({64}, k.program().f32());
        k.copy(f, g);
      });
  t["copy-default-buffer"] =
      inBody([](Kernel &k, Buffer &A, Buffer &, Buffer &) {
        Buffer none;
        k.copy(A.at({k.index(0)}), none);
      });
  t["fill-type-mismatch"] = inBody(
      [](Kernel &k, Buffer &, Buffer &, Buffer &f) { k.fill(f, k.index(1)); });
  t["fill-global-tensor"] =
      inBody([](Kernel &k, Buffer &A, Buffer &, Buffer &) {
        k.fill(A, k.constant(0, k.program().f32()));
      });
  t["element-of-global-tensor"] =
      inBody([](Kernel &k, Buffer &A, Buffer &, Buffer &f) {
        k.parallel({128}, [&](const Indices &i) { f[i] = A[i]; });
      });
  t["reduce-rank-1"] = inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
    Buffer m = k.allocFragment({1}, k.program().f32());
    k.reduceMax(f, m);
  });
  t["subview-too-many-indices"] =
      inBody([](Kernel &k, Buffer &A, Buffer &, Buffer &) {
        (void)k.subview(A, {k.index(0), k.index(0)});
      });
  t["gemm-f32-operands"] = gemm({64, 32}, {32, 64}, {64, 64}, f32);
  t["gemm-shape-mismatch"] = gemm({64, 32}, {16, 64}, {64, 64}, f16);
  t["gemm-tiny"] = gemm({1, 1}, {1, 1}, {1, 1}, f16);
  // Loops and parallel regions.
  t["for-step-zero"] = inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
    k.forLoop(k.index(0), k.index(4), 0, [&](Expr) { k.clear(f); });
  });
  t["for-step-negative"] = inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
    k.forLoop(k.index(0), k.index(4), -1, [&](Expr) { k.clear(f); });
  });
  auto pipelined = [](int64_t stages) {
    return inBody([stages](Kernel &k, Buffer &A, Buffer &, Buffer &f) {
      Buffer t = k.allocShared({128}, k.program().f32());
      k.pipelined(k.index(0), k.index(4), stages, [&](Expr i) {
        k.copy(A.at({i * 128.0}), t);
        k.copy(t, f);
      });
    });
  };
  t["pipelined-stages-zero"] = pipelined(0);
  t["pipelined-stages-negative"] = pipelined(-1);
  t["pipelined-stages-huge"] = pipelined(int64_t(1) << 31);
  t["parallel-no-extents"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.parallel({}, [&](const Indices &) { k.clear(f); });
      });
  t["parallel-zero-extent"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.parallel({0}, [&](const Indices &i) { f[i] = f[i]; });
      });
  t["parallel-negative-extent"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.parallel({-1}, [&](const Indices &i) { f[i] = f[i]; });
      });
  t["parallel-huge-extent"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.parallel({int64_t(1) << 40}, [&](const Indices &i) { f[i] = f[i]; });
      });
  t["parallel-extent-mismatch"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.parallel({64, 2}, [&](const Indices &i) { f[i] = f[i]; });
      });
  // Device printing.
  t["print-format-directives"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &) {
        k.print("%s%s%s%n", k.index(1), PrintFrom::thread(0));
      });
  t["print-thread-negative"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &) {
        k.print("x", k.index(1), PrintFrom::thread(-1));
      });
  t["print-warp-out-of-block"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        k.print("f", f, PrintFrom::warp(1000).inBlock(-1, 1 << 30));
      });
  t["print-label-huge"] = inBody([](Kernel &k, Buffer &, Buffer &, Buffer &) {
    k.print(std::string(100000, 'x'), k.index(1), PrintFrom::thread(0));
  });
  // Values from elsewhere.
  t["expr-from-another-program"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &f) {
        static Program other;
        static Kernel *otherKernel = nullptr;
        static Expr foreign;
        if (!otherKernel) {
          static Kernel ok = other.kernel("other", 128);
          otherKernel = &ok;
          ok.body({constant(1)},
                  [&](Kernel &o) { foreign = o.constant(2, other.f32()); });
        }
        k.fill(f, foreign);
      });
  t["buffer-from-another-kernel"] = [](Program &program) {
    Buffer leaked;
    Kernel k1 = program.kernel("k1", 128);
    k1.body({constant(1)}, [&](Kernel &k) {
      leaked = k.allocFragment({128}, program.f32());
      k.clear(leaked);
    });
    Kernel k2 = program.kernel("k2", 128);
    k2.body({constant(1)}, [&](Kernel &k) { k.clear(leaked); });
  };
  t["use-after-body"] = [](Program &program) {
    Kernel k = program.kernel("k", 128);
    Buffer A = k.tensor("A", {kDynamic}, program.f32());
    Buffer f;
    k.body({ceildiv(A, 0, 128)}, [&](Kernel &k) {
      f = k.allocFragment({128}, program.f32());
      k.copy(A.at({k.index(0)}), f);
    });
    k.copy(f, A.at({k.index(0)}));
  };
  t["body-twice"] = [](Program &program) {
    Kernel k = program.kernel("k", 128);
    Buffer A = k.tensor("A", {kDynamic}, program.f32());
    k.body({ceildiv(A, 0, 128)}, [&](Kernel &) {});
    k.body({ceildiv(A, 0, 128)}, [&](Kernel &) {});
  };
  t["tensor-after-body"] = [](Program &program) {
    Kernel k = program.kernel("k", 128);
    Buffer A = k.tensor("A", {kDynamic}, program.f32());
    k.body({ceildiv(A, 0, 128)}, [&](Kernel &) {});
    (void)k.tensor("B", {kDynamic}, program.f32());
  };
  t["mixed-type-arithmetic"] =
      inBody([](Kernel &k, Buffer &, Buffer &, Buffer &) {
        (void)(k.index(1) + k.constant(1, k.program().f32()));
      });
  t["cast-f32-to-index"] = inBody([](Kernel &k, Buffer &, Buffer &, Buffer &) {
    (void)cast(k.constant(1.5, k.program().f32()),
               mlir::IndexType::get(&k.program().context()));
  });
  t["scalar-param-f16"] = [](Program &program) {
    Kernel k = program.kernel("k", 128);
    Buffer A = k.tensor("A", {kDynamic}, program.f16());
    int s = k.scalarParam("s", program.f16());
    k.body({ceildiv(A, 0, 128)}, [&](Kernel &k) {
      Buffer f = k.allocFragment({128}, program.f16());
      k.fill(f, k.scalar(s));
      k.copy(f, A.at({k.index(0)}));
    });
  };
  t["empty-module"] = [](Program &) {};
  t["kernel-without-body"] = [](Program &program) {
    Kernel k = program.kernel("k", 128);
    (void)k.tensor("A", {kDynamic}, program.f32());
  };
  // Compile options (on the vector-add generator).
  auto &c = compileProbes();
  c["chip-empty"] = [](CompileOptions &o) { o.target.chip = ""; };
  c["chip-garbage"] = [](CompileOptions &o) { o.target.chip = "garbage"; };
  c["chip-sm_75"] = [](CompileOptions &o) { o.target.chip = "sm_75"; };
  c["chip-sm_99999"] = [](CompileOptions &o) { o.target.chip = "sm_99999"; };
  c["features-garbage"] = [](CompileOptions &o) {
    o.target.features = "garbage";
  };
  c["features-empty"] = [](CompileOptions &o) { o.target.features = ""; };
  c["opt-level-99"] = [](CompileOptions &o) { o.target.optLevel = 99; };
  c["cuda-toolkit-nonexistent"] = [](CompileOptions &o) {
    o.cudaToolkit = "/nonexistent/cuda";
  };
}

} // namespace

int main(int argc, char **argv) {
  // Stack traces on crashes, as the tools print them.
  llvm::InitLLVM init(argc, argv);
  if (argc < 2)
    return usage("usage: probe NAME | gen GENERATOR [key=value...] | "
                 "compile-file FILE [--cubin] [--chip=C] [--no-diagnostics]");
  std::string mode = argv[1];
  Options options;
  std::vector<std::string> positional;
  Fields fields;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--cubin")
      options.cubin = true;
    else if (arg == "--no-diagnostics")
      options.noDiagnostics = true;
    else if (arg.rfind("--chip=", 0) == 0)
      options.compile.target.chip = arg.substr(7);
    else if (arg.find('=') != std::string::npos && mode == "gen")
      fields[arg.substr(0, arg.find('='))] = arg.substr(arg.find('=') + 1);
    else
      positional.push_back(arg);
  }
  registerProbes();
  if (mode == "probe" && positional.size() == 1) {
    std::string name = positional[0];
    if (name == "list") {
      for (auto &[probe, _] : probes())
        std::printf("%s\n", probe.c_str());
      for (auto &[probe, _] : compileProbes())
        std::printf("compile-%s\n", probe.c_str());
      return 0;
    }
    if (name.rfind("compile-", 0) == 0) {
      auto it = compileProbes().find(name.substr(8));
      if (it == compileProbes().end())
        return usage("unknown probe '" + name + "'");
      it->second(options.compile);
      return gen("vector_add", {}, options);
    }
    auto it = probes().find(name);
    if (it == probes().end())
      return usage("unknown probe '" + name + "' (probe list lists them)");
    return run(it->second, options);
  }
  if (mode == "gen" && positional.size() == 1)
    return gen(positional[0], fields, options);
  if (mode == "compile-file" && positional.size() == 1) {
    std::string path = positional[0];
    return run(
        [&](Program &program) {
          llvm::SourceMgr sourceMgr;
          std::string errorText;
          llvm::raw_string_ostream errors(errorText);
          mlir::ScopedDiagnosticHandler handler(&program.context(),
                                                [&](mlir::Diagnostic &diag) {
                                                  printDiagnostic(errors, diag);
                                                  return mlir::success();
                                                });
          // Bounded like tile-opt's and tile-translate's input.
          auto file = llvm::MemoryBuffer::getFile(path);
          if (!file)
            throw std::invalid_argument("cannot read " + path + ": " +
                                        file.getError().message());
          if (mlir::failed(mlir::tile::checkInputLimits(
                  (*file)->getMemBufferRef(), errors)))
            throw std::invalid_argument(errorText);
          sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
          mlir::OwningOpRef<mlir::ModuleOp> parsed =
              mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr,
                                                    &program.context());
          if (!parsed)
            throw std::invalid_argument("cannot parse " + path + ":\n" +
                                        errorText);
          // Move the kernels into the program's module.
          mlir::Block *into = program.module().getBody();
          for (mlir::Operation &op :
               llvm::make_early_inc_range(parsed->getBody()->getOperations()))
            op.moveBefore(into, into->end());
        },
        options);
  }
  return usage("unknown mode '" + mode + "' or wrong arguments");
}
