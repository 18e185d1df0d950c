//===- ContractTest.cpp - Every library kernel's launch contract ----------===//
//
// For every kernel in the library's kernel index (`tile-kernels
// --out-dir=DIR` writes DIR/index.json and one manifest per kernel), without
// a GPU:
//   - a launch built from the manifest alone (the relations, divisibility
//     promises and static sizes solved for: equalities by union-find, bounds,
//     multiples, divisors) is accepted by checkAndPack, so a checker that
//     refuses everything fails;
//   - each relation broken by one element (by the divisor where the dim
//     carries a divisibility promise, so that only the relation breaks), up
//     and down, is refused with a message naming that relation (`divides`:
//     the multiple moved off it);
//   - a buffer the kernel writes, placed on another buffer argument, is
//     refused; two buffers it only reads may share memory;
//   - every dynamic dimension of every buffer is constrained by a grid
//     extent or a relation (a heuristic completeness check that prints the
//     free ones).
// A missing index, a kernel without a manifest or a manifest without the
// kernel fail; nothing here skips.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Error.h"
#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Launch.h"
#include "tile/runtime/Manifest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>

using namespace tile;
using rt::Arg;
using rt::KernelInfo;
using rt::ParamInfo;
using rt::ParamKind;
using rt::ShapeRelation;

namespace {

struct LibraryKernel {
  std::string name;
  std::string generator;
  KernelInfo info;
};

/// Every kernel of the index with its manifest's description; an error
/// message instead when the index or a manifest is missing or broken.
std::vector<LibraryKernel> loadLibrary(std::string &error) {
  std::string dir = rt::kernelDir(TILE_KERNEL_DIR_DEFAULT);
  std::string indexPath = dir + "/index.json";
  std::ifstream in(indexPath);
  if (!in) {
    error = "no kernel index " + indexPath +
            ": run tile-kernels --out-dir=" + dir +
            " first (scripts/test.sh does)";
    return {};
  }
  std::vector<LibraryKernel> kernels;
  try {
    nlohmann::json index = nlohmann::json::parse(in);
    for (const nlohmann::json &entry : index.at("kernels")) {
      std::string name = entry.at("name");
      if (!entry.contains("manifest")) {
        error = "kernel '" + name + "' has no manifest in " + indexPath;
        return {};
      }
      std::string path = dir + "/" + entry.at("manifest").get<std::string>();
      rt::ManifestInfo manifest = rt::loadManifestFile(path);
      const KernelInfo *info = manifest.findKernel(name);
      if (!info) {
        error = "manifest " + path + " has no kernel '" + name + "'";
        return {};
      }
      kernels.push_back({name, entry.value("generator", ""), *info});
    }
  } catch (const std::exception &e) {
    error = "cannot read the kernel library in " + dir + ": " + e.what();
    return {};
  }
  if (kernels.empty())
    error = indexPath + " lists no kernels";
  return kernels;
}

/// The library, loaded once; the test fails (not skips) without it.
const std::vector<LibraryKernel> &library(std::string &error) {
  static std::string loadError;
  static const std::vector<LibraryKernel> kernels = loadLibrary(loadError);
  error = loadError;
  return kernels;
}

#define LOAD_LIBRARY(kernels)                                                  \
  std::string libraryError;                                                    \
  const std::vector<LibraryKernel> &kernels = library(libraryError);           \
  ASSERT_TRUE(libraryError.empty()) << libraryError

int64_t roundUp(int64_t value, int64_t step) {
  return (value + step - 1) / step * step;
}
int64_t roundDown(int64_t value, int64_t step) { return value / step * step; }

/// One dynamic or static dimension of a buffer parameter.
struct DimVar {
  std::size_t buffer; // Index among the user parameters.
  int dim;
  int64_t staticSize; // -1: dynamic.
  int64_t divisor;    // The divisibility promise, 1 if none.
};

/// The kernel's buffer dimensions, their equality classes and the sizes of
/// a launch that satisfies its contract.
class ContractSolver {
public:
  explicit ContractSolver(const KernelInfo &kernel) : kernel_(kernel) {
    userParams_ = kernel.userParams();
    for (std::size_t i = 0; i < userParams_.size(); ++i) {
      const ParamInfo &param = *userParams_[i];
      if (param.kind != ParamKind::Buffer)
        continue;
      for (std::size_t d = 0; d < param.shape.size(); ++d)
        vars_.push_back(
            {i, static_cast<int>(d), param.shape[d],
             d < param.divisibility.size() ? param.divisibility[d] : 1});
    }
    parent_.resize(vars_.size());
    std::iota(parent_.begin(), parent_.end(), 0);
    for (const ShapeRelation &r : kernel.relations)
      if (r.op == ShapeRelation::Op::Eq && r.rhsIsDim)
        parent_[find(var(r.lhs))] = find(var(r.rhs));
  }

  const std::vector<DimVar> &vars() const { return vars_; }
  const std::vector<const ParamInfo *> &userParams() const {
    return userParams_;
  }

  /// The variable of `ref` (validate() checked that it exists).
  std::size_t var(const rt::DimRef &ref) const {
    for (std::size_t v = 0; v < vars_.size(); ++v)
      if (userParams_[vars_[v].buffer]->name == ref.param &&
          vars_[v].dim == ref.dim)
        return v;
    ADD_FAILURE() << "no dimension " << ref.param << "[" << ref.dim << "]";
    return 0;
  }

  std::size_t find(std::size_t v) const {
    while (parent_[v] != v)
      v = parent_[v];
    return v;
  }

  /// The dims of `v`'s equality class.
  std::vector<std::size_t> members(std::size_t v) const {
    std::vector<std::size_t> result;
    for (std::size_t u = 0; u < vars_.size(); ++u)
      if (find(u) == find(v))
        result.push_back(u);
    return result;
  }

  /// The class's static size (-1 if none), the lcm of its divisors and its
  /// bounds from relations with integers.
  struct ClassInfo {
    int64_t staticSize = -1;
    int64_t step = 1;
    int64_t lower = 0;
    int64_t upper = INT64_MAX;
  };

  std::optional<ClassInfo> classInfo(std::size_t v, std::string &why) const {
    ClassInfo info;
    for (std::size_t u : members(v)) {
      const DimVar &dim = vars_[u];
      info.step = std::lcm(info.step, dim.divisor);
      if (dim.staticSize >= 0) {
        if (info.staticSize >= 0 && info.staticSize != dim.staticSize) {
          why = "equal dims with different static sizes";
          return std::nullopt;
        }
        info.staticSize = dim.staticSize;
      }
    }
    for (const ShapeRelation &r : kernel_.relations) {
      if (r.rhsIsDim || find(var(r.lhs)) != find(v))
        continue;
      if (r.op != ShapeRelation::Op::Ge)
        info.upper = std::min(info.upper, r.value);
      if (r.op != ShapeRelation::Op::Le)
        info.lower = std::max(info.lower, r.value);
    }
    return info;
  }

  /// Sizes for every dim that satisfy every relation, the divisibility
  /// promises and the static sizes: distinct small values per class (so that
  /// a checker comparing the wrong dims shows), raised along inequalities
  /// between dims and to multiples of the dims that divide them (at least
  /// twice those, so that a checker testing `==` instead shows). Empty
  /// (with `why`) when the solver finds none.
  std::optional<std::vector<int64_t>> solve(std::string &why) const {
    std::vector<int64_t> value(vars_.size(), -1);
    std::map<std::size_t, ClassInfo> classes;
    int k = 0;
    for (std::size_t v = 0; v < vars_.size(); ++v) {
      std::size_t root = find(v);
      if (classes.count(root))
        continue;
      std::optional<ClassInfo> info = classInfo(v, why);
      if (!info)
        return std::nullopt;
      classes[root] = *info;
      int64_t x = info->staticSize;
      if (x < 0) {
        x = roundUp(std::max<int64_t>(info->lower, 40 + 24 * k++), info->step);
        if (x > info->upper)
          x = roundDown(info->upper, info->step);
      }
      if (x < info->lower || x > info->upper || x % info->step != 0) {
        why = "no size for " + name(v) + " within its bounds and multiples";
        return std::nullopt;
      }
      value[root] = x;
    }
    // Inequalities between dims: raise the larger side (or lower the
    // smaller one when the larger is static) until all hold; likewise a
    // multiple is raised to one of its divisor.
    for (int round = 0; round < 100; ++round) {
      bool changed = false;
      for (const ShapeRelation &r : kernel_.relations) {
        if (!r.rhsIsDim || r.op == ShapeRelation::Op::Eq)
          continue;
        if (r.op == ShapeRelation::Op::Divides) {
          std::size_t divisor = find(var(r.lhs)), multiple = find(var(r.rhs));
          if (r.holds(value[divisor], value[multiple]) &&
              (value[multiple] >= 2 * value[divisor] ||
               classes[multiple].staticSize >= 0))
            continue;
          changed = true;
          if (classes[multiple].staticSize >= 0 || value[divisor] == 0) {
            why = "no multiple of " + name(divisor) + " for " + r.str();
            return std::nullopt;
          }
          value[multiple] =
              roundUp(std::max(value[multiple], 2 * value[divisor]),
                      std::lcm(value[divisor], classes[multiple].step));
          continue;
        }
        std::size_t small = find(var(r.lhs)), large = find(var(r.rhs));
        if (r.op == ShapeRelation::Op::Ge)
          std::swap(small, large);
        if (value[small] <= value[large])
          continue;
        changed = true;
        if (classes[large].staticSize < 0)
          value[large] = roundUp(value[small], classes[large].step);
        else if (classes[small].staticSize < 0)
          value[small] = roundDown(value[large], classes[small].step);
        else {
          why = "static sizes break " + r.str();
          return std::nullopt;
        }
      }
      if (!changed) {
        std::vector<int64_t> sizes(vars_.size());
        for (std::size_t v = 0; v < vars_.size(); ++v)
          sizes[v] = value[find(v)];
        for (std::size_t v = 0; v < vars_.size(); ++v) {
          const ClassInfo &info = classes[find(v)];
          if (sizes[v] < info.lower || sizes[v] > info.upper) {
            why = "inequalities between dims push " + name(v) +
                  " out of its bounds";
            return std::nullopt;
          }
        }
        return sizes;
      }
    }
    why = "inequalities between dims do not settle";
    return std::nullopt;
  }

  std::string name(std::size_t v) const {
    return userParams_[vars_[v].buffer]->name + "[" +
           std::to_string(vars_[v].dim) + "]";
  }

  /// Raw device addresses 64 GiB apart, 16-byte aligned: no two buffers of
  /// a solved launch overlap.
  static CUdeviceptr address(std::size_t slot) {
    return CUdeviceptr(slot + 1) << 36;
  }

  /// The arguments for `sizes` (one per dim), buffer i at `addresses[i]`.
  std::vector<Arg> args(const std::vector<int64_t> &sizes,
                        const std::vector<CUdeviceptr> &addresses) const {
    std::vector<std::vector<int64_t>> shapes(userParams_.size());
    for (std::size_t v = 0; v < vars_.size(); ++v)
      shapes[vars_[v].buffer].push_back(sizes[v]);
    std::vector<Arg> result;
    for (std::size_t i = 0; i < userParams_.size(); ++i) {
      const ParamInfo &param = *userParams_[i];
      if (param.kind == ParamKind::Buffer) {
        result.push_back(Arg::buffer(addresses[i], param.dtype, shapes[i]));
        continue;
      }
      switch (param.dtype) {
      case rt::DType::f32:
        result.push_back(Arg::scalar(1.0f));
        break;
      case rt::DType::f64:
        result.push_back(Arg::scalar(1.0));
        break;
      case rt::DType::i32:
        result.push_back(Arg::scalar(int32_t(1)));
        break;
      default:
        result.push_back(Arg::scalar(int64_t(1)));
        break;
      }
    }
    return result;
  }

  std::vector<CUdeviceptr> distinctAddresses() const {
    std::vector<CUdeviceptr> addresses;
    for (std::size_t i = 0; i < userParams_.size(); ++i)
      addresses.push_back(address(i));
    return addresses;
  }

private:
  const KernelInfo &kernel_;
  std::vector<const ParamInfo *> userParams_;
  std::vector<DimVar> vars_;
  std::vector<std::size_t> parent_;
};

/// The error checkAndPack raises for `args`, or "" when it accepts them.
std::string refusal(const KernelInfo &kernel, const std::vector<Arg> &args) {
  try {
    rt::checkAndPack(kernel, args);
  } catch (const rt::Error &error) {
    return error.what();
  }
  return "";
}

std::string shapesText(const ContractSolver &solver,
                       const std::vector<int64_t> &sizes) {
  std::ostringstream text;
  for (std::size_t v = 0; v < sizes.size(); ++v)
    text << (v ? ", " : "") << solver.name(v) << " = " << sizes[v];
  return text.str();
}

TEST(Contracts, LibraryIsComplete) {
  // Every kernel of the index has a manifest that describes it (loading
  // validates it: one dim parameter per dynamic dim, references, limits).
  LOAD_LIBRARY(kernels);
  std::size_t relations = 0, minRelations = SIZE_MAX, maxRelations = 0;
  std::map<std::string, int> perGenerator;
  for (const LibraryKernel &kernel : kernels) {
    relations += kernel.info.relations.size();
    minRelations = std::min(minRelations, kernel.info.relations.size());
    maxRelations = std::max(maxRelations, kernel.info.relations.size());
    ++perGenerator[kernel.generator];
  }
  std::cout << kernels.size() << " kernels, " << relations << " relations ("
            << minRelations << " to " << maxRelations << " per kernel):";
  for (const auto &[generator, count] : perGenerator)
    std::cout << " " << generator << " " << count;
  std::cout << "\n";
}

TEST(Contracts, SolvedLaunchIsAccepted) {
  LOAD_LIBRARY(kernels);
  for (const LibraryKernel &kernel : kernels) {
    SCOPED_TRACE(kernel.name);
    ContractSolver solver(kernel.info);
    std::string why;
    std::optional<std::vector<int64_t>> sizes = solver.solve(why);
    if (!sizes) {
      ADD_FAILURE() << "no launch satisfies the contract (" << why << ")";
      continue;
    }
    std::string error =
        refusal(kernel.info, solver.args(*sizes, solver.distinctAddresses()));
    EXPECT_EQ(error, "") << "a launch that keeps the contract ("
                         << shapesText(solver, *sizes) << ") was refused";
  }
}

TEST(Contracts, EachBrokenRelationIsRefusedByName) {
  LOAD_LIBRARY(kernels);
  int broken = 0, unbreakable = 0;
  for (const LibraryKernel &kernel : kernels) {
    SCOPED_TRACE(kernel.name);
    ContractSolver solver(kernel.info);
    std::string why;
    std::optional<std::vector<int64_t>> valid = solver.solve(why);
    if (!valid) {
      ADD_FAILURE() << "no launch satisfies the contract (" << why << ")";
      continue;
    }
    std::vector<CUdeviceptr> addresses = solver.distinctAddresses();
    for (const ShapeRelation &r : kernel.info.relations) {
      SCOPED_TRACE(r.str());
      // Launches that break r: one dim moved (an equality), or a whole
      // equality class moved (an inequality, so its equalities still hold).
      std::vector<std::vector<int64_t>> attempts;
      auto moveDim = [&](std::size_t v, int64_t delta) {
        std::vector<int64_t> sizes = *valid;
        sizes[v] += delta;
        if (sizes[v] >= 0)
          attempts.push_back(sizes);
      };
      auto moveClass = [&](std::size_t v, int64_t to) {
        std::vector<int64_t> sizes = *valid;
        for (std::size_t u : solver.members(v))
          sizes[u] = to;
        if (to >= 0)
          attempts.push_back(sizes);
      };
      std::size_t lhs = solver.var(r.lhs);
      std::string whyNot;
      if (r.op == ShapeRelation::Op::Divides) {
        // The multiple's class off the divisor's multiples by its step
        // (kept where that still holds: a step the divisor divides).
        std::size_t rhs = solver.var(r.rhs);
        ContractSolver::ClassInfo rhsClass = *solver.classInfo(rhs, whyNot);
        if (rhsClass.staticSize < 0)
          for (int64_t delta : {rhsClass.step, -rhsClass.step})
            if (!r.holds((*valid)[lhs], (*valid)[rhs] + delta))
              moveClass(rhs, (*valid)[rhs] + delta);
      } else if (r.op == ShapeRelation::Op::Eq && r.rhsIsDim) {
        std::size_t rhs = solver.var(r.rhs);
        std::size_t moved = solver.vars()[rhs].staticSize < 0 ? rhs : lhs;
        if (solver.vars()[moved].staticSize < 0) {
          moveDim(moved, solver.vars()[moved].divisor);
          moveDim(moved, -solver.vars()[moved].divisor);
        }
      } else {
        // An inequality: move the lhs class across the bound (or the rhs
        // class when the lhs is static).
        // (solve() succeeded, so every class has an info.)
        ContractSolver::ClassInfo lhsClass = *solver.classInfo(lhs, whyNot);
        int64_t bound = r.rhsIsDim ? (*valid)[solver.var(r.rhs)] : r.value;
        bool le = r.op == ShapeRelation::Op::Le;
        if (lhsClass.staticSize < 0) {
          int64_t step = lhsClass.step;
          moveClass(lhs, le ? roundDown(bound, step) + step
                            : roundUp(bound, step) - step);
        } else if (r.rhsIsDim) {
          std::size_t rhs = solver.var(r.rhs);
          ContractSolver::ClassInfo rhsClass = *solver.classInfo(rhs, whyNot);
          if (rhsClass.staticSize < 0) {
            int64_t step = rhsClass.step, at = (*valid)[lhs];
            moveClass(rhs, le ? roundUp(at, step) - step
                              : roundDown(at, step) + step);
          }
        }
      }
      if (attempts.empty()) {
        // Static on both sides, or a bound no size crosses (X[0] >= 0):
        // every launch keeps it.
        ++unbreakable;
        std::cout << kernel.name << ": " << r.str()
                  << " cannot be broken (static sizes or a bound no size "
                     "crosses)\n";
        continue;
      }
      for (const std::vector<int64_t> &sizes : attempts) {
        std::string error = refusal(kernel.info, solver.args(sizes, addresses));
        ++broken;
        std::string expected = "requires " + r.str() + ", but ";
        EXPECT_NE(error.find(expected), std::string::npos)
            << "breaking " << r.str() << " (" << shapesText(solver, sizes)
            << ") was "
            << (error.empty() ? "accepted" : "refused with: " + error);
        EXPECT_EQ(error.rfind("kernel '" + kernel.name + "': ", 0), 0u)
            << error;
      }
    }
  }
  std::cout << broken << " launches with a broken relation refused, "
            << unbreakable << " relations no launch can break\n";
}

TEST(Contracts, WrittenBufferOnAnotherArgumentIsRefused) {
  LOAD_LIBRARY(kernels);
  int refused = 0, shared = 0;
  for (const LibraryKernel &kernel : kernels) {
    SCOPED_TRACE(kernel.name);
    ContractSolver solver(kernel.info);
    std::string why;
    std::optional<std::vector<int64_t>> sizes = solver.solve(why);
    if (!sizes) {
      ADD_FAILURE() << "no launch satisfies the contract (" << why << ")";
      continue;
    }
    const std::vector<const ParamInfo *> &params = solver.userParams();
    for (std::size_t w = 0; w < params.size(); ++w) {
      if (params[w]->kind != ParamKind::Buffer)
        continue;
      bool written = rt::isWritten(params[w]->access);
      for (std::size_t o = 0; o < params.size(); ++o) {
        if (o == w || params[o]->kind != ParamKind::Buffer)
          continue;
        // w at o's address, then 16 bytes into o.
        for (CUdeviceptr offset : {0, 16}) {
          std::vector<CUdeviceptr> addresses = solver.distinctAddresses();
          addresses[w] = addresses[o] + offset;
          std::string error =
              refusal(kernel.info, solver.args(*sizes, addresses));
          if (!written && !rt::isWritten(params[o]->access)) {
            // Two buffers the kernel only reads may share memory.
            EXPECT_EQ(error, "")
                << params[w]->name << " on " << params[o]->name;
            ++shared;
            continue;
          }
          // (Every solved size is >= 16 bytes, so the ranges overlap.)
          EXPECT_NE(error.find("overlaps parameter '"), std::string::npos)
              << params[w]->name << " at " << params[o]->name << " + " << offset
              << " was "
              << (error.empty() ? "accepted" : "refused with: " + error);
          EXPECT_NE(error.find("'" + params[w]->name + "'"), std::string::npos)
              << error;
          EXPECT_NE(error.find("'" + params[o]->name + "'"), std::string::npos)
              << error;
          ++refused;
        }
      }
    }
  }
  std::cout << refused << " aliased launches refused, " << shared
            << " read-only overlaps accepted\n";
}

TEST(Contracts, EveryDynamicDimIsConstrained) {
  // Heuristic completeness: a dynamic dim that no grid extent covers and no
  // relation ties to another dim or bounds is one the kernel trusts blindly.
  LOAD_LIBRARY(kernels);
  std::vector<std::string> free;
  for (const LibraryKernel &kernel : kernels) {
    for (const ParamInfo &param : kernel.info.params) {
      if (param.kind != ParamKind::Buffer)
        continue;
      for (std::size_t d = 0; d < param.shape.size(); ++d) {
        if (param.shape[d] >= 0)
          continue;
        auto is = [&](const rt::DimRef &ref) {
          return ref.param == param.name && ref.dim == static_cast<int>(d);
        };
        bool constrained = false;
        for (const rt::GridExtent &extent : kernel.info.grid)
          constrained |= extent.kind == rt::GridExtent::Kind::CeilDiv &&
                         extent.param == param.name &&
                         extent.dim == static_cast<int>(d);
        for (const ShapeRelation &r : kernel.info.relations)
          constrained |= is(r.lhs) || (r.rhsIsDim && is(r.rhs));
        if (!constrained)
          free.push_back(kernel.name + ": " + param.name + "[" +
                         std::to_string(d) + "]");
      }
    }
  }
  for (const std::string &dim : free)
    std::cout << "unconstrained: " << dim << "\n";
  EXPECT_TRUE(free.empty())
      << free.size()
      << " dynamic dims are neither in the grid nor in a relation (listed "
         "above)";
}

} // namespace
