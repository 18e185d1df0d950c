//===- KernelReport.cpp - What a compiled kernel got ----------------------===//
//
// PTX is read instruction by instruction (opcode = first token after an
// optional predicate); resources come from `ptxas -v`, run on the same PTX.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/KernelReport.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

std::map<std::string, KernelExpectations>
tile::collectExpectations(ModuleOp module) {
  std::map<std::string, KernelExpectations> expected;
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    KernelExpectations &e = expected[kernel.getSymName().str()];
    kernel.walk([&](Operation *op) {
      if (isa<GemmOp>(op))
        e.hasGemm = true;
      if (auto copy = dyn_cast<CopyOp>(op))
        for (Value operand : {copy.getSource(), copy.getDest()})
          if (auto type = dyn_cast<BufferType>(operand.getType()))
            e.copiesGlobal |= type.isGlobal();
    });
  }
  return expected;
}

/// The opcode of a PTX instruction line ("" for anything else).
static StringRef opcodeOf(StringRef line) {
  line = line.trim();
  if (line.empty() || line.starts_with("//") || line.starts_with(".") ||
      line.starts_with("{") || line.starts_with("}") || line.ends_with(":"))
    return "";
  if (line.starts_with("@")) // predicate
    line =
        line.drop_until([](char c) { return c == ' ' || c == '\t'; }).ltrim();
  return line.take_until(
      [](char c) { return c == ' ' || c == '\t' || c == ';'; });
}

static bool isVectorAccess(StringRef opcode) {
  return opcode.contains(".v2") || opcode.contains(".v4") ||
         opcode.contains(".v8");
}

std::vector<KernelReport> tile::analyzePtx(StringRef ptx) {
  std::vector<KernelReport> reports;
  SmallVector<StringRef> lines;
  ptx.split(lines, '\n');
  KernelReport *current = nullptr;
  for (StringRef line : lines) {
    size_t entry = line.find(".entry ");
    if (entry != StringRef::npos) {
      StringRef name = line.drop_front(entry + 7).take_until(
          [](char c) { return c == '(' || c == ' '; });
      reports.push_back(KernelReport());
      current = &reports.back();
      current->name = name.str();
    }
    if (!current)
      continue;
    current->ptxBytes += line.size() + 1;
    if (line.contains(".local"))
      current->usesLocalMemory = true;
    StringRef op = opcodeOf(line);
    if (op.empty())
      continue;
    if (op.starts_with("mma.sync") || op.starts_with("wgmma.mma_async"))
      ++current->mma;
    else if (op.starts_with("ldmatrix"))
      ++current->ldmatrix;
    else if (op.starts_with("cp.async.cg.") || op.starts_with("cp.async.ca.") ||
             op.starts_with("cp.async.bulk.tensor"))
      ++current->cpAsync;
    else if (op.starts_with("bar.sync") || op.starts_with("barrier.sync"))
      ++current->barriers;
    else if (op.starts_with("shfl.sync"))
      ++current->shuffles;
    else if (op.starts_with("ex2.approx"))
      ++current->exp2;
    else if (op.starts_with("ld.global"))
      ++(isVectorAccess(op) ? current->globalVectorLoads
                            : current->globalScalarLoads);
    else if (op.starts_with("st.global"))
      ++(isVectorAccess(op) ? current->globalVectorStores
                            : current->globalScalarStores);
  }
  return reports;
}

/// Parses `ptxas -v` output into the reports (matched by entry name).
static void parsePtxasInfo(StringRef log, std::vector<KernelReport> &reports) {
  auto find = [&](StringRef name) -> KernelReport * {
    for (KernelReport &r : reports)
      if (r.name == name)
        return &r;
    return nullptr;
  };
  // The number just before `unit` in `line`, e.g. "12 bytes spill stores".
  auto numberBefore = [](StringRef line,
                         StringRef unit) -> std::optional<int64_t> {
    size_t at = line.find(unit);
    if (at == StringRef::npos)
      return std::nullopt;
    StringRef head = line.take_front(at).rtrim();
    StringRef digits =
        head.take_back(head.size() - head.find_last_not_of("0123456789") - 1);
    int64_t value;
    if (digits.getAsInteger(10, value))
      return std::nullopt;
    return value;
  };
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  KernelReport *current = nullptr;
  for (StringRef line : lines) {
    for (StringRef marker :
         {"Compiling entry function '", "Function properties for "}) {
      size_t at = line.find(marker);
      if (at != StringRef::npos)
        current = find(line.drop_front(at + marker.size())
                           .take_until([](char c) { return c == '\''; })
                           .trim());
    }
    // Performance losses name their function, but C7508 does not.
    if (size_t at = line.find("(C75"); at != StringRef::npos) {
      StringRef marker = "in the function '";
      size_t named = line.find(marker);
      KernelReport *target =
          named == StringRef::npos
              ? current
              : find(line.drop_front(named + marker.size())
                         .take_until([](char c) { return c == '\''; }));
      if (target)
        target->warnings.push_back("ptxas: " +
                                   line.drop_front(at).trim().str());
      continue;
    }
    if (!current)
      continue;
    if (auto v = numberBefore(line, " bytes stack frame"))
      current->stackFrame = v;
    if (auto v = numberBefore(line, " bytes spill stores"))
      current->spillStores = v;
    if (auto v = numberBefore(line, " bytes spill loads"))
      current->spillLoads = v;
    if (line.contains("Used ")) {
      size_t at = line.find("Used ");
      int64_t value;
      if (!line.drop_front(at + 5)
               .take_until([](char c) { return c == ' '; })
               .getAsInteger(10, value))
        current->registers = value;
    }
  }
}

void tile::addPtxasInfo(std::vector<KernelReport> &reports, StringRef log) {
  parsePtxasInfo(log, reports);
}

std::vector<std::string> tile::findPtxasPerformanceLoss(StringRef log) {
  std::vector<std::string> found;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    size_t at = line.find("(C75");
    if (at != StringRef::npos)
      found.push_back(line.drop_front(at).trim().str());
  }
  return found;
}

void tile::addLaunchResources(std::vector<KernelReport> &reports,
                              ModuleOp module) {
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    auto kernels = gpuModule->getAttrOfType<ArrayAttr>("tile.kernels");
    if (!kernels)
      continue;
    for (Attribute entry : kernels) {
      // Anything else the manifest refuses; the report only reads.
      auto launch = dyn_cast<LaunchAttr>(entry);
      if (!launch)
        continue;
      for (KernelReport &r : reports)
        if (r.name == launch.getName())
          r.dynamicSharedBytes = launch.getDynamicSharedMemory();
    }
  }
}

void tile::addWarnings(
    std::vector<KernelReport> &reports,
    const std::map<std::string, KernelExpectations> &expected) {
  for (KernelReport &r : reports) {
    auto it = expected.find(r.name);
    if (it != expected.end()) {
      if (it->second.hasGemm && r.mma == 0)
        r.warnings.push_back("tile.gemm compiled without tensor-core "
                             "instructions (no mma in the PTX)");
      if (it->second.copiesGlobal && r.globalVectorLoads == 0 &&
          r.globalVectorStores == 0 && r.cpAsync == 0)
        r.warnings.push_back(
            "global tile.copy moves one element per access (no vector "
            "loads/stores, no cp.async): check the fragment layout's vec "
            "and the tile's row length");
    }
    if (r.spillStores.value_or(0) > 0 || r.spillLoads.value_or(0) > 0)
      r.warnings.push_back(llvm::formatv("register spills: {0} bytes stored, "
                                         "{1} bytes loaded ({2} registers)",
                                         r.spillStores.value_or(0),
                                         r.spillLoads.value_or(0),
                                         r.registers.value_or(0))
                               .str());
    else if (r.usesLocalMemory)
      r.warnings.push_back("uses local memory (a private array that LLVM "
                           "did not promote to registers)");
  }
}

std::string tile::formatReports(ArrayRef<KernelReport> reports) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto opt = [](std::optional<int64_t> v) {
    return v ? std::to_string(*v) : std::string("-");
  };
  os << llvm::formatv("{0,-44} {1,5} {2,6} {3,6} {4,5} {5,5} {6,5} {7,4} "
                      "{8,9} {9,9} {10,5} {11,6} {12,8}\n",
                      "kernel", "regs", "spill", "smem_K", "mma", "ldmat",
                      "cp.as", "bar", "ld.g v/s", "st.g v/s", "shfl", "ex2",
                      "PTX B");
  for (const KernelReport &r : reports) {
    std::string spill =
        r.spillStores
            ? std::to_string(*r.spillStores + r.spillLoads.value_or(0))
            : "-";
    std::string smem =
        r.dynamicSharedBytes
            ? llvm::formatv("{0:F1}", *r.dynamicSharedBytes / 1024.0).str()
            : "-";
    os << llvm::formatv(
        "{0,-44} {1,5} {2,6} {3,6} {4,5} {5,5} {6,5} {7,4} {8,9} {9,9} "
        "{10,5} {11,6} {12,8}\n",
        r.name, opt(r.registers), spill, smem, r.mma, r.ldmatrix, r.cpAsync,
        r.barriers,
        std::to_string(r.globalVectorLoads) + "/" +
            std::to_string(r.globalScalarLoads),
        std::to_string(r.globalVectorStores) + "/" +
            std::to_string(r.globalScalarStores),
        r.shuffles, r.exp2, r.ptxBytes);
  }
  for (const KernelReport &r : reports)
    for (const std::string &warning : r.warnings)
      os << "warning: " << r.name << ": " << warning << "\n";
  return text;
}

llvm::json::Value tile::toJSON(ArrayRef<KernelReport> reports) {
  llvm::json::Array kernels;
  for (const KernelReport &r : reports) {
    llvm::json::Object o{{"name", r.name},
                         {"mma", r.mma},
                         {"ldmatrix", r.ldmatrix},
                         {"cp_async", r.cpAsync},
                         {"barriers", r.barriers},
                         {"shuffles", r.shuffles},
                         {"ex2", r.exp2},
                         {"global_vector_loads", r.globalVectorLoads},
                         {"global_scalar_loads", r.globalScalarLoads},
                         {"global_vector_stores", r.globalVectorStores},
                         {"global_scalar_stores", r.globalScalarStores},
                         {"local_memory", r.usesLocalMemory},
                         {"ptx_bytes", r.ptxBytes}};
    auto put = [&](StringRef key, std::optional<int64_t> v) {
      if (v)
        o[key] = *v;
    };
    put("registers", r.registers);
    put("spill_stores", r.spillStores);
    put("spill_loads", r.spillLoads);
    put("stack_frame", r.stackFrame);
    put("dynamic_shared_memory", r.dynamicSharedBytes);
    llvm::json::Array warnings;
    for (const std::string &w : r.warnings)
      warnings.push_back(w);
    o["warnings"] = std::move(warnings);
    kernels.push_back(std::move(o));
  }
  return llvm::json::Object{{"kernels", std::move(kernels)}};
}
