//===- Frontend.h - Write tile kernels in C++ -------------------*- C++ -*-===//
//
// A C++ API to write tile kernels the way TileLang users write them in
// Python: a kernel with a grid and a thread count, shared and fragment
// allocations, tile copies, fills and element-wise parallel loops. It builds
// `tile` dialect IR with MLIR's builders; the same pipelines compile it.
//
//   tile::fe::Program program;
//   tile::fe::Kernel k = program.kernel("vector_add", /*threads=*/256);
//   tile::fe::Buffer A = k.tensor("A", {tile::fe::kDynamic}, program.f32());
//   ...
//   k.body({tile::fe::ceildiv(A, 0, 1024)}, [&](tile::fe::Kernel &k) {
//     tile::fe::Expr offset = k.blockIndex(0) * 1024;
//     tile::fe::Buffer a = k.allocFragment({1024}, program.f32());
//     k.copy(A.at({offset}), a);
//     k.parallel({1024}, [&](tile::fe::Indices i) { c[i] = a[i] + b[i]; });
//     k.copy(c, C.at({offset}));
//   });
//
// Every builder call records the C++ file and line of its caller, so
// verifier errors point at the user's source.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_FRONTEND_H
#define TILE_FRONTEND_FRONTEND_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <array>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tile {
class KernelOp;
enum class MemoryScope : uint32_t;
} // namespace mlir::tile

namespace tile::fe {

constexpr int64_t kDynamic = mlir::ShapedType::kDynamic;

class Kernel;

/// The caller's source position, captured by default arguments.
struct SourceLoc {
  const char *file;
  int line;
  SourceLoc(const char *file = __builtin_FILE(), int line = __builtin_LINE())
      : file(file), line(line) {}
};

/// A scalar value being built: an index, an integer or a float.
class Expr {
public:
  Expr() = default;
  Expr(Kernel *kernel, mlir::Value value) : kernel(kernel), val(value) {}
  mlir::Value value() const { return val; }
  /// The value's type (null for a default-constructed Expr).
  mlir::Type type() const { return val ? val.getType() : mlir::Type(); }
  Kernel *owner() const { return kernel; }

private:
  Kernel *kernel = nullptr;
  mlir::Value val;
};

using Indices = std::vector<Expr>;

class Buffer;

/// One element of a shared or fragment tile inside `Kernel::parallel`:
/// reading it loads, assigning to it stores (at the line of `tile[i]`).
class ElementRef {
public:
  ElementRef(const Buffer &buffer, Indices indices, SourceLoc loc)
      : buffer(buffer), indices(std::move(indices)), loc(loc) {}
  operator Expr() const; // NOLINT: implicit load, as in TileLang.
  ElementRef &operator=(Expr value);
  ElementRef &operator=(const ElementRef &other) {
    return *this = static_cast<Expr>(other);
  }

private:
  const Buffer &buffer;
  Indices indices;
  SourceLoc loc;
};

/// An operand of an arithmetic operator (`+ - * / % |`): an `Expr` or a
/// tile element, with the source line of the expression (operators cannot
/// take a defaulted location argument; the implicit conversion to Operand
/// captures it where the operator is used).
class Operand {
public:
  Operand(Expr expr, SourceLoc loc = {}) // NOLINT: implicit by design.
      : expr(expr), loc(loc) {}
  Operand(const ElementRef &element, SourceLoc loc = {}) // NOLINT
      : expr(element), loc(loc) {}
  Expr expr;
  SourceLoc loc;
};

/// The indices of `tile[...]`: `i` (Indices), `{a, b}`, or one Expr, with
/// the source line of the access.
struct ElementIndices {
  ElementIndices(Indices indices, SourceLoc loc = {}) // NOLINT
      : indices(std::move(indices)), loc(loc) {}
  ElementIndices(std::initializer_list<Expr> indices, // NOLINT
                 SourceLoc loc = {})
      : indices(indices), loc(loc) {}
  ElementIndices(Expr index, SourceLoc loc = {}) // NOLINT
      : indices{index}, loc(loc) {}
  ElementIndices(const ElementRef &index, SourceLoc loc = {}) // NOLINT
      : indices{Expr(index)}, loc(loc) {}
  Indices indices;
  SourceLoc loc;
};

// Arithmetic between two values of one type. The ops get the line of the
// expression.
Expr operator+(Operand lhs, Operand rhs);
Expr operator-(Operand lhs, Operand rhs);
Expr operator*(Operand lhs, Operand rhs);
/// Unsigned division for index/integers, division for floats.
Expr operator/(Operand lhs, Operand rhs);
Expr operator%(Operand lhs, Operand rhs);
// A literal on one side takes the type of the other side (an integer type
// takes only integral literals that it can represent).
Expr operator+(Operand lhs, double rhs);
Expr operator-(Operand lhs, double rhs);
Expr operator*(Operand lhs, double rhs);
Expr operator/(Operand lhs, double rhs);
Expr operator%(Operand lhs, double rhs);
Expr operator+(double lhs, Operand rhs);
Expr operator*(double lhs, Operand rhs);
/// Logical (i1) or bitwise (integer) or.
Expr operator|(Operand lhs, Operand rhs);
/// Rounding-up division of non-negative index/integer values.
Expr ceilDiv(Expr lhs, Expr rhs, SourceLoc loc = {});
Expr ceilDiv(Expr lhs, double rhs, SourceLoc loc = {});
Expr max(Expr lhs, Expr rhs, SourceLoc loc = {});
Expr min(Expr lhs, Expr rhs, SourceLoc loc = {});
/// a * b + c, rounded once (math.fma: one FFMA).
Expr fma(Expr a, Expr b, Expr c, SourceLoc loc = {});
Expr exp(Expr x, SourceLoc loc = {});
Expr exp2(Expr x, SourceLoc loc = {});
Expr log(Expr x, SourceLoc loc = {});
Expr tanh(Expr x, SourceLoc loc = {});
Expr erf(Expr x, SourceLoc loc = {});
/// sqrt(x) and 1 / sqrt(x) (math.sqrt, math.rsqrt: sqrt.approx and
/// rsqrt.approx in the PTX), e.g. LayerNorm's 1 / sqrt(var + eps).
Expr sqrt(Expr x, SourceLoc loc = {});
Expr rsqrt(Expr x, SourceLoc loc = {});
/// lhs < rhs (signed for integers and indices, ordered for floats): an i1.
Expr less(Expr lhs, Expr rhs, SourceLoc loc = {});
/// condition ? whenTrue : whenFalse.
Expr select(Expr condition, Expr whenTrue, Expr whenFalse, SourceLoc loc = {});
/// GELU, exact: x/2 (1 + erf(x / sqrt 2)), as x/2 erfc(-x / sqrt 2) with
/// erfc from Abramowitz & Stegun 7.1.26 (erf to 1.5e-7; one exp2 and an
/// approximate reciprocal, half the instructions of libdevice's erff).
Expr gelu(Expr x, SourceLoc loc = {});
/// tanh by the hardware's approximation (math.tanh fastmath<afn>, which
/// -tile-approximate-math makes one tanh.approx.f32: relative error at most
/// 2^-10.987), for f32 values whose result is rounded to 16 bits anyway.
Expr approximateTanh(Expr x, SourceLoc loc = {});
/// How closely an elementwise function follows its formula: `full`, to a
/// few f32 ulp; `sixteenBit`, to about the rounding of an f16 result (2^-11
/// relative), through the hardware's approximations, for f16 and bf16
/// outputs.
enum class Accuracy { full, sixteenBit };
/// GELU, tanh approximation: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
/// `full`: built as the logistic function it equals (one exp2 and an
/// approximate reciprocal, no tanh); `sixteenBit`: with approximateTanh
/// (one MUFU operation instead of two; at most |x| 2^-12 from the formula).
Expr geluTanh(Expr x, Accuracy accuracy = Accuracy::full, SourceLoc loc = {});
/// Converts between float types (extf/truncf; f16 <-> bf16 through f32),
/// integer/index types, and integers/indices and floats.
Expr cast(Expr x, mlir::Type type, SourceLoc loc = {});

/// A tile region of a buffer at given offsets, for `Kernel::copy`.
struct BufferRegion {
  const Buffer *buffer;
  Indices offsets;
};

/// A global tensor parameter, a shared tile or a fragment.
class Buffer {
public:
  Buffer() = default;
  mlir::Value value() const;
  mlir::Type type() const;
  /// The tile of this buffer starting at `offsets`: of a global tensor, or
  /// of a fragment at constant offsets (`k.index(n)`), a window that
  /// Kernel::copy stores to a shared tile (e.g. one band of an
  /// accumulator).
  BufferRegion at(Indices offsets) const { return {this, std::move(offsets)}; }
  ElementRef operator[](ElementIndices indices) const {
    return {*this, std::move(indices.indices), indices.loc};
  }
  /// Size of dimension `dim` (a kernel parameter when dynamic).
  Expr dim(int64_t dim, SourceLoc loc = {}) const;
  Kernel *owner() const { return kernel; }
  /// The parameter index of a tensor parameter, -1 for a tile.
  int parameterIndex() const { return paramIndex; }

private:
  friend class Kernel;
  Kernel *kernel = nullptr;
  mlir::Value val;     // set for tiles
  int paramIndex = -1; // set for kernel parameters
};

/// Prints `file:line:col: error: message` and its notes.
void printDiagnostic(llvm::raw_ostream &os, mlir::Diagnostic &diag);

/// One grid dimension: a constant or ceildiv(size of a tensor dim, n).
struct GridExtent {
  int paramIndex = -1;
  int64_t dim = 0;
  int64_t divisor = 1;
};
GridExtent ceildiv(const Buffer &tensor, int64_t dim, int64_t divisor);
GridExtent constant(int64_t size);

/// The size of dimension `dim` of a tensor parameter at launch, for the
/// launch contract (`Kernel::require`); `Buffer::dim` is its value inside
/// the body.
struct TensorSize {
  Kernel *kernel;
  int paramIndex;
  int64_t dim;
};
TensorSize size(const Buffer &tensor, int64_t dim, SourceLoc loc = {});

/// One relation of a launch contract: `size(A, 1) == size(B, 0)`,
/// `size(X, 1) <= 4096`, `divides(size(K, 1), size(Q, 1))`.
struct SizeRelation {
  enum class Predicate { Equal, AtMost, AtLeast, Divides };
  TensorSize lhs;
  Predicate predicate;
  /// The size on the right, or none for the constant `value`.
  std::optional<TensorSize> rhs;
  int64_t value = 0;
};
SizeRelation operator==(TensorSize lhs, TensorSize rhs);
SizeRelation operator<=(TensorSize lhs, TensorSize rhs);
SizeRelation operator>=(TensorSize lhs, TensorSize rhs);
SizeRelation operator==(TensorSize lhs, int64_t value);
SizeRelation operator<=(TensorSize lhs, int64_t value);
SizeRelation operator>=(TensorSize lhs, int64_t value);
/// `lhs` divides `rhs` (`rhs` is a multiple of it; 0 divides only 0): the
/// K/V heads of grouped-query attention and the query heads.
SizeRelation divides(TensorSize lhs, TensorSize rhs);

/// Owns the MLIR context and the module that kernels are added to.
class Program {
public:
  Program();
  ~Program();
  Program(const Program &) = delete;
  Program &operator=(const Program &) = delete;

  /// Starts a kernel; declare its parameters, then build its body.
  Kernel kernel(const std::string &name, int64_t threads, SourceLoc loc = {});

  mlir::MLIRContext &context() { return *ctx; }
  mlir::ModuleOp module() { return *mod; }
  /// Runs the verifier; returns the diagnostics ("" when the IR is valid).
  std::string verify();
  /// The module as text (tile dialect).
  std::string str();

  mlir::Type f16();
  mlir::Type bf16();
  mlir::Type f32();
  mlir::Type f64();
  mlir::Type i32();
  mlir::Type i64();

private:
  std::unique_ptr<mlir::MLIRContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> mod;
};

/// Who prints a tile.print: one thread or the 32 lanes of one warp, of one
/// block (default block (0, 0, 0)).
struct PrintFrom {
  static PrintFrom thread(int64_t index) { return {index, std::nullopt}; }
  static PrintFrom warp(int64_t index) { return {std::nullopt, index}; }
  PrintFrom inBlock(int64_t x, int64_t y = 0, int64_t z = 0) const {
    PrintFrom from = *this;
    from.block = {x, y, z};
    return from;
  }
  std::optional<int64_t> threadIndex, warpIndex;
  std::array<int64_t, 3> block = {0, 0, 0};
};

/// A kernel under construction. Buffers keep a pointer to it: keep it where
/// `Program::kernel` put it.
///
/// Misuse of the API throws when the call is made, with the caller's
/// `file:line: error: ` in front of the message: std::invalid_argument for
/// a bad argument (a grid dimension or parameter that the kernel lacks, a
/// type a tile cannot have, operands of different types or kernels, a
/// default-constructed Expr or Buffer), std::logic_error for a call in the
/// wrong place (an op built outside `body`, a parameter declared inside
/// it). What needs the whole kernel (the dialect's rules: layouts, fragment
/// sizes against the thread count, op operand types) is reported by
/// `Program::verify` and `compile` as diagnostics at the caller's line.
class Kernel {
public:
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  /// Declares a global tensor parameter; `shape` may contain kDynamic.
  Buffer tensor(const std::string &name, std::vector<int64_t> shape,
                mlir::Type elementType, SourceLoc loc = {});
  /// Declares a scalar parameter (f32, i32, ...); use `scalar(i)` in the body.
  int scalarParam(const std::string &name, mlir::Type type, SourceLoc loc = {});

  /// Rasterize a 2-D grid in panels of `rows` grid rows for L2 reuse (the
  /// kernel's raster_panel); call before `body`. 0 turns it off.
  void rasterPanel(int64_t rows, SourceLoc loc = {});
  /// Makes the first warpgroup a TMA producer and the others wgmma compute
  /// warpgroups (the kernel's `warp_specialized`, sm_90a); call before
  /// `body`.
  void warpSpecialized(SourceLoc loc = {});
  /// Launches one block per multiprocessor, each walking the grid's tiles
  /// (the kernel's `persistent`; with warpSpecialized); call before `body`.
  void persistent(SourceLoc loc = {});
  /// Launches the blocks in thread-block clusters of `extents` blocks along
  /// the grid's dimensions (the kernel's `cluster`, e.g. {1, 2}: pairs of
  /// tiles one above the other; with persistent; the verifier checks the
  /// extents); call before `body`.
  void cluster(std::vector<int64_t> extents, SourceLoc loc = {});
  /// Runs `count` sets of compute threads that take the tiles in turn, one
  /// set's epilogue overlapping the next one's products (the kernel's
  /// `consumers`, ping-pong; with persistent, no cluster); call before
  /// `body`.
  void consumers(int64_t count, SourceLoc loc = {});
  /// Splits the tiles of a partial last round into K chunks that the
  /// blocks take in turn, summed through a workspace the runtime provides
  /// (the kernel's `stream_k`; with persistent, one set of compute threads,
  /// no cluster); call before `body`.
  void streamK(SourceLoc loc = {});
  /// Promises that dimension `dim` of tensor parameter `tensor` is a
  /// multiple of `divisor` at every launch (the kernel's `divisible`; the
  /// runtime checks it); call before `body`.
  void divisible(const Buffer &tensor, int dim, int64_t divisor,
                 SourceLoc loc = {});
  /// Adds a relation between tensor sizes that every launch must meet (the
  /// kernel's `requires`; the runtime refuses launches that break it), e.g.
  /// `k.require(size(A, 1) == size(B, 0))`; call before `body`. (Not named
  /// `requires`: that is a keyword in C++20.)
  void require(const SizeRelation &relation, SourceLoc loc = {});
  /// Creates the kernel with its grid and fills its body by calling `build`.
  void body(std::vector<GridExtent> grid,
            const std::function<void(Kernel &)> &build, SourceLoc loc = {});

  // Inside the body.
  Expr blockIndex(int dim, SourceLoc loc = {}) const;
  Expr scalar(int paramIndex, SourceLoc loc = {}) const;
  Expr index(int64_t value, SourceLoc loc = {});
  Expr constant(double value, mlir::Type type, SourceLoc loc = {});
  /// The global buffer of `tensor`'s trailing dimensions at the leading
  /// indices `leading` (tile.subview): e.g. one head's S x D matrix of a
  /// B x H x S x D tensor, whose copies are masked at S.
  Buffer subview(const Buffer &tensor, Indices leading, SourceLoc loc = {});
  Buffer allocShared(std::vector<int64_t> shape, mlir::Type elementType,
                     SourceLoc loc = {});
  Buffer allocFragment(std::vector<int64_t> shape, mlir::Type elementType,
                       SourceLoc loc = {});
  void copy(const BufferRegion &source, const Buffer &dest, SourceLoc loc = {});
  void copy(const Buffer &source, const BufferRegion &dest, SourceLoc loc = {});
  void copy(const Buffer &source, const Buffer &dest, SourceLoc loc = {});
  /// dest[offsets + i] += source[i] for each element of the fragment inside
  /// the f32 tensor, with atomics (tile.atomic_add): blocks that cover the
  /// same tile (split-K) sum into it. A tensor only atomic adds touch is
  /// zero-filled by the runtime before the launch.
  void atomicAdd(const Buffer &source, const BufferRegion &dest,
                 SourceLoc loc = {});
  void fill(const Buffer &dest, Expr value, SourceLoc loc = {});
  void clear(const Buffer &dest, SourceLoc loc = {});
  /// C += A x B on tensor cores: A, B shared f16/bf16 tiles, C an f32
  /// fragment. With `transposeB`, B is stored N x K; with `transposeA`, A is
  /// stored K x M. A may be an f16/bf16 fragment instead (registers; it
  /// takes C's MMA layout with one warp column).
  /// `clearAccum` computes C = A x B instead of C += A x B.
  void gemm(const Buffer &a, const Buffer &b, const Buffer &c,
            bool transposeB = false, bool transposeA = false,
            bool clearAccum = false, SourceLoc loc = {});
  /// dst[r] = max / sum / min over the columns of the rank-2 fragment src;
  /// with `accumulate`, combined with dst's values (tile.reduce).
  void reduceMax(const Buffer &src, const Buffer &dst, bool accumulate = false,
                 SourceLoc loc = {});
  void reduceSum(const Buffer &src, const Buffer &dst, bool accumulate = false,
                 SourceLoc loc = {});
  void reduceMin(const Buffer &src, const Buffer &dst, bool accumulate = false,
                 SourceLoc loc = {});
  /// The smallest of the elements of an f32 fragment that the calling
  /// thread holds, with no communication (tile.thread_reduce min): the
  /// value differs between threads, for `when` conditions on register-only
  /// work.
  Expr threadMin(const Buffer &fragment, SourceLoc loc = {});
  /// A sequential loop `for (i = lower; i < upper; i += step)` run by every
  /// thread of the block (scf.for), e.g. over the K tiles of a GEMM.
  void forLoop(Expr lower, Expr upper, int64_t step,
               const std::function<void(Expr)> &body, SourceLoc loc = {});
  /// `forLoop` whose global -> shared copies (at the start of the body) run
  /// `stages - 1` iterations ahead as cp.async copies into `stages`-deep
  /// shared tiles (tile-pipeline), like TileLang's T.Pipelined.
  void pipelined(Expr lower, Expr upper, int64_t stages,
                 const std::function<void(Expr)> &body, SourceLoc loc = {});
  /// Runs `body` only when `condition` holds (scf.if). The condition is the
  /// same for the whole block (from block indices and loop counters), or,
  /// when the body only computes on fragments (no shared tiles, no
  /// barriers), it may differ between threads (e.g. from threadMin).
  void when(Expr condition, const std::function<void()> &body,
            SourceLoc loc = {});
  /// Device printf (tile.print) of a scalar, or of a shared tile (from a
  /// thread) or a fragment (the elements the chosen threads hold), e.g.
  /// `k.print("m", runningMax, PrintFrom::warp(0))`.
  void print(const std::string &label, Expr value, PrintFrom from,
             SourceLoc loc = {});
  void print(const std::string &label, const Buffer &tile, PrintFrom from,
             SourceLoc loc = {});
  /// An element-wise loop over `extents`, spread over the block's threads.
  void parallel(std::vector<int64_t> extents,
                const std::function<void(const Indices &)> &body,
                SourceLoc loc = {});
  /// A tile.parallel over shared tiles only, lowered as a loop over each
  /// thread's elements instead of unrolled (`rolled`): less code for
  /// long bodies, e.g. an epilogue over a staged accumulator.
  void rolledParallel(std::vector<int64_t> extents,
                      const std::function<void(const Indices &)> &body,
                      SourceLoc loc = {});

  mlir::OpBuilder &builder() { return b; }
  mlir::Location location(SourceLoc loc);
  Program &program() { return *prog; }
  /// Whether `body`'s build function is running: ops can be built only then.
  bool building() const { return inBody; }

private:
  friend class Program;
  friend class Buffer;
  friend class ElementRef;
  Kernel(Program &program, std::string name, int64_t threads, SourceLoc loc);
  mlir::Operation *buildForLoop(Expr lower, Expr upper, int64_t step,
                                const std::function<void(Expr)> &body,
                                SourceLoc loc);
  /// Throws unless ops can be built here (inside `body`).
  void requireBody(SourceLoc loc, const char *what) const;
  /// The value of `buffer` or `expr`, which must belong to this kernel.
  mlir::Value use(const Buffer &buffer, SourceLoc loc, const char *what) const;
  mlir::Value use(const Expr &expr, SourceLoc loc, const char *what) const;
  template <typename AllocOp>
  Buffer allocTile(std::vector<int64_t> shape, mlir::Type elementType,
                   mlir::tile::MemoryScope scope, SourceLoc loc);
  void copyImpl(const Buffer &source, const Indices &sourceOffsets,
                const Buffer &dest, const Indices &destOffsets, SourceLoc loc);

  Program *prog;
  std::string name;
  int64_t threads;
  SourceLoc declLoc;
  std::vector<mlir::Type> paramTypes;
  std::vector<std::string> paramNames;
  int64_t raster = 0;
  bool specialized = false;
  bool persistentTiles = false;
  std::vector<int64_t> clusterExtents;
  int64_t consumerSets = 1;
  bool streamKShares = false;
  struct Divisibility {
    int param, dim;
    int64_t divisor;
  };
  std::vector<Divisibility> divisibility;
  std::vector<SizeRelation> contract;
  mlir::OpBuilder b;
  // The tile.kernel once `body` is called; declared tensors resolve to its
  // block arguments from then on.
  mlir::Operation *op = nullptr;
  bool inBody = false;
};

} // namespace tile::fe

#endif // TILE_FRONTEND_FRONTEND_H
