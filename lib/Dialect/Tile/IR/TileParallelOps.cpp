//===- TileParallelOps.cpp - tile.parallel, element accesses, print -------===//
//
// tile.parallel (builder, format, verifier, its element-wise operands), the
// element accesses of its body (tile.load, tile.store), and tile.print.
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

using mlir::tile::detail::formatShape;

//===----------------------------------------------------------------------===//
// ParallelOp
//===----------------------------------------------------------------------===//

void ParallelOp::build(OpBuilder &builder, OperationState &state,
                       ArrayRef<int64_t> extents, bool rolled) {
  state.addAttribute(getExtentsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(extents));
  if (rolled)
    state.addAttribute(getRolledAttrName(state.name), builder.getUnitAttr());
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (size_t i = 0; i < extents.size(); ++i)
    block->addArgument(builder.getIndexType(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  YieldOp::create(builder, state.location);
}

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder builder(parser.getContext());
  SmallVector<OpAsmParser::Argument> ivs;
  SmallVector<int64_t> extents;
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(extents.emplace_back());
      }))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("rolled")))
    result.addAttribute(getRolledAttrName(result.name), builder.getUnitAttr());
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addAttribute(getExtentsAttrName(result.name),
                      builder.getDenseI64ArrayAttr(extents));
  for (OpAsmParser::Argument &iv : ivs)
    iv.type = builder.getIndexType();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ivs))
    return failure();
  ParallelOp::ensureTerminator(*body, builder, result.location);
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getInductionVars(), p,
                        [&](Value iv) { p.printOperand(iv); });
  p << ") in [";
  llvm::interleaveComma(getExtents(), p);
  p << ']';
  if (getRolled())
    p << " rolled";
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getExtentsAttrName(), getRolledAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult PrintOp::verify() {
  if (getThread().has_value() == getWarp().has_value())
    return emitOpError("expected exactly one of thread(N) and warp(N)");
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("expected to be inside a tile.kernel");
  int64_t threads = kernel.getThreads();
  if (std::optional<int64_t> thread = getThread())
    if (*thread < 0 || *thread >= threads)
      return emitOpError("expected thread in [0, ")
             << threads << "), but got " << *thread;
  if (std::optional<int64_t> warp = getWarp())
    if (*warp < 0 || *warp >= threads / 32)
      return emitOpError("expected warp in [0, ")
             << threads / 32 << "), but got " << *warp;
  if (std::optional<ArrayRef<int64_t>> block = getBlock()) {
    if (block->size() != 3)
      return emitOpError("expected a block of 3 indices, but got ")
             << block->size();
    if (llvm::any_of(*block, [](int64_t b) { return b < 0; }))
      return emitOpError("expected non-negative block indices");
  }
  Type type = getValue().getType();
  if (auto buffer = dyn_cast<BufferType>(type)) {
    if (buffer.isGlobal())
      return emitOpError("cannot print a global tensor; copy a tile of it "
                         "to shared memory or a fragment first");
    if (buffer.isShared() && !getThread())
      return emitOpError("expected thread(N) to print a shared tile (one "
                         "thread prints the whole tile)");
    if (buffer.getRank() > 2)
      return emitOpError("expected a tile of rank 1 or 2, but got rank ")
             << buffer.getRank();
    Type element = buffer.getElementType();
    if (!element.isIntOrIndexOrFloat())
      return emitOpError("cannot print elements of type ") << element;
    return success();
  }
  if (!type.isIntOrIndexOrFloat())
    return emitOpError("expected an integer, index or float scalar, or a "
                       "shared or fragment tile, but got ")
           << type;
  return success();
}

LogicalResult ParallelOp::verify() {
  ArrayRef<int64_t> extents = getExtents();
  if (extents.empty() || extents.size() > 4)
    return emitOpError("expected 1 to 4 extents, but got ") << extents.size();
  if (llvm::any_of(extents, [](int64_t e) { return e <= 0; }))
    return emitOpError("expected positive extents");
  // The lowering unrolls the iterations over the threads (or loops over
  // them, rolled): no more than the elements of the largest tile.
  std::optional<int64_t> iterations = 1;
  for (int64_t extent : extents)
    iterations =
        iterations ? llvm::checkedMul(*iterations, extent) : std::nullopt;
  if (!iterations || *iterations > kMaxParallelIterations)
    return emitOpError("expected at most ")
           << kMaxParallelIterations
           << " iterations (the elements of the largest tile), but got "
           << formatShape(extents)
           << (iterations ? " = " + std::to_string(*iterations) : "");
  if (getBodyBlock().getNumArguments() != extents.size())
    return emitOpError("expected ")
           << extents.size() << " induction variables, but got "
           << getBodyBlock().getNumArguments();
  for (auto [i, iv] : llvm::enumerate(getInductionVars()))
    if (!iv.getType().isIndex())
      return emitOpError("expected induction variable #")
             << i << " to be of type index, but got " << iv.getType();
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("expected to be inside a tile.kernel");
  if ((*this)->getParentOfType<ParallelOp>())
    return emitOpError("expected no nesting inside another tile.parallel");
  // Unrolled, the body is emitted once per iteration of each thread.
  if (int64_t threads = kernel.getThreads(); threads >= 1 && !getRolled()) {
    int64_t perThread = llvm::divideCeil(*iterations, threads);
    if (perThread > kMaxUnrolledPerThread)
      return emitOpError("expected at most ")
             << kMaxUnrolledPerThread
             << " iterations per thread (the loop is unrolled; a loop over "
                "shared tiles may be `rolled`), but its "
             << *iterations << " iterations over the kernel's " << threads
             << " threads are " << perThread;
  }
  // The body is run once per element; only element accesses (and sizes) of
  // tiles can be, not whole-tile ops. A nested tile.parallel reports itself.
  Operation *wholeTileOp = nullptr;
  getBody().walk([&](Operation *op) {
    if (!isa_and_nonnull<TileDialect>(op->getDialect()) ||
        isa<LoadOp, StoreOp, DimOp, YieldOp, ParallelOp>(op))
      return WalkResult::advance();
    wholeTileOp = op;
    return WalkResult::interrupt();
  });
  if (wholeTileOp)
    return emitOpError("expected only tile.load, tile.store and tile.dim "
                       "among the tile ops of the body, but got '")
           << wholeTileOp->getName() << "'";
  // A rolled loop runs over a thread's elements in a loop, where a fragment's
  // registers cannot be indexed.
  if (getRolled()) {
    Operation *fragmentAccess = nullptr;
    getBody().walk([&](Operation *op) {
      Value buffer;
      if (auto load = dyn_cast<LoadOp>(op))
        buffer = load.getBuffer();
      else if (auto store = dyn_cast<StoreOp>(op))
        buffer = store.getBuffer();
      if (buffer && cast<BufferType>(buffer.getType()).isFragment()) {
        fragmentAccess = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (fragmentAccess) {
      InFlightDiagnostic diag = emitOpError(
          "expected a rolled loop to access shared tiles only, but it "
          "accesses a fragment");
      diag.attachNote(fragmentAccess->getLoc()) << "fragment accessed here";
      return diag;
    }
  }
  return success();
}

SmallVector<Value> mlir::tile::getElementwiseOperands(ParallelOp loop) {
  SmallVector<Value> operands;
  loop.getBody().walk([&](Operation *inner) {
    Value buffer;
    if (auto load = dyn_cast<LoadOp>(inner))
      buffer = load.getBuffer();
    else if (auto store = dyn_cast<StoreOp>(inner))
      buffer = store.getBuffer();
    if (buffer &&
        cast<BufferType>(buffer.getType()).getShape() == loop.getExtents())
      operands.push_back(buffer);
  });
  return operands;
}

//===----------------------------------------------------------------------===//
// LoadOp, StoreOp
//===----------------------------------------------------------------------===//

/// Element accesses happen inside tile.parallel, on shared or fragment tiles;
/// a fragment is indexed by the loop's own induction variables.
static LogicalResult verifyElementAccess(Operation *op, Value buffer,
                                         ValueRange indices) {
  auto type = cast<BufferType>(buffer.getType());
  if (type.isGlobal())
    return op->emitOpError("expected a shared or fragment tile, but got a "
                           "global buffer; move global data with tile.copy");
  if (static_cast<int64_t>(indices.size()) != type.getRank())
    return op->emitOpError("expected ")
           << type.getRank() << " indices, but got " << indices.size();
  auto loop = op->getParentOfType<ParallelOp>();
  if (!loop)
    return op->emitOpError("expected to be inside tile.parallel");
  if (!type.isFragment()) {
    // A shared tile may be indexed freely, but a constant index must be
    // inside it (a computed one is the program's to keep there).
    for (auto [d, index] : llvm::enumerate(indices)) {
      APInt value;
      if (matchPattern(index, m_ConstantInt(&value)) &&
          (value.isNegative() || value.uge(type.getDimSize(d))))
        return op->emitOpError("expected index #")
               << d << " from 0 to " << type.getDimSize(d) - 1 << ", but got "
               << value.getSExtValue();
    }
    return success();
  }
  // A row's value (a tile.reduce result) read at every column: broadcast.
  ArrayRef<int64_t> extents = loop.getExtents();
  if (isa<LoadOp>(op) && type.getRank() == 1 && extents.size() == 2 &&
      type.getDimSize(0) == extents[0]) {
    if (indices[0] != loop.getInductionVars()[0])
      return op->emitOpError("expected the index of a broadcast row value "
                             "to be induction variable #0 of the enclosing "
                             "tile.parallel");
    if (type.getLayout() && !isa<SliceLayoutAttr>(type.getLayout()))
      return op->emitOpError("expected a broadcast row value to have a "
                             "#tile.slice layout, but got ")
             << type.getLayout();
    return success();
  }
  if (type.getShape() != loop.getExtents())
    return op->emitOpError("expected the fragment shape ")
           << formatShape(type.getShape())
           << " to match the tile.parallel extents "
           << formatShape(loop.getExtents());
  for (auto [i, index] : llvm::enumerate(indices))
    if (index != loop.getInductionVars()[i])
      return op->emitOpError("expected fragment index #")
             << i << " to be induction variable #" << i
             << " of the enclosing tile.parallel";
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyElementAccess(*this, getBuffer(), getIndices());
}

LogicalResult StoreOp::verify() {
  return verifyElementAccess(*this, getBuffer(), getIndices());
}
