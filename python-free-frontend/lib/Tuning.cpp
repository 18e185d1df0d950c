//===- Tuning.cpp - Configuration spaces and static pruning ---------------===//

#include "tile/Frontend/Tuning.h"

#include "tile/Target/KernelReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <mutex>
#include <thread>

namespace tile::fe {

std::optional<DeviceLimits> limitsForChip(const std::string &chip) {
  // Shared memory per block with the opt-in (cuFuncSetAttribute), from the
  // CUDA C++ programming guide's compute-capability table.
  int64_t sharedKiB = chip == "sm_90"                        ? 227
                      : chip == "sm_80"                      ? 163
                      : (chip == "sm_86" || chip == "sm_89") ? 99
                                                             : 0;
  if (!sharedKiB)
    return std::nullopt;
  DeviceLimits limits;
  limits.name = chip + " (compute-capability table)";
  limits.chip = chip;
  limits.maxSharedPerBlock = sharedKiB * 1024;
  limits.registersPerBlock = 65536;
  limits.maxThreadsPerBlock = 1024;
  return limits;
}

std::optional<DeviceLimits> readDeviceLimits(const std::string &path,
                                             std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = buffer.getError().message();
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error = "not JSON: " + llvm::toString(json.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *devices = root ? root->getArray("devices") : nullptr;
  if (!root || root->getString("format") != "tile-device-info" || !devices) {
    error = "not the output of tile-device-info --json";
    return std::nullopt;
  }
  if (devices->empty()) {
    error = "lists no device";
    if (std::optional<llvm::StringRef> why = root->getString("no_gpu_reason"))
      error += " (" + why->str() + ")";
    return std::nullopt;
  }
  const llvm::json::Object *device = devices->front().getAsObject();
  std::optional<llvm::StringRef> name =
      device ? device->getString("name") : std::nullopt;
  std::optional<llvm::StringRef> deviceChip =
      device ? device->getString("chip") : std::nullopt;
  std::optional<int64_t> shared =
      device ? device->getInteger("shared_memory_per_block_optin")
             : std::nullopt;
  std::optional<int64_t> registers =
      device ? device->getInteger("registers_per_block") : std::nullopt;
  std::optional<int64_t> threads =
      device ? device->getInteger("max_threads_per_block") : std::nullopt;
  if (!name || !deviceChip || !shared || !registers || !threads) {
    error = "its first device lacks name, chip, "
            "shared_memory_per_block_optin, registers_per_block or "
            "max_threads_per_block";
    return std::nullopt;
  }
  DeviceLimits limits;
  limits.name = name->str();
  limits.chip = deviceChip->str();
  limits.maxSharedPerBlock = *shared;
  limits.registersPerBlock = *registers;
  limits.maxThreadsPerBlock = *threads;
  return limits;
}

static int64_t bytesOf(llvm::StringRef dtype) { return dtype == "f32" ? 4 : 2; }

TuneSpace gemmTuneSpace(const std::string &inDtype, const std::string &outDtype,
                        const GemmSpaceAxes &axes) {
  TuneSpace space;
  space.generator = "gemm";
  for (int64_t blockM : axes.blockM)
    for (int64_t blockN : axes.blockN)
      for (int64_t blockK : axes.blockK)
        for (int64_t stages : axes.stages)
          for (int64_t threads : axes.threads)
            for (int64_t raster : axes.rasterPanel)
              for (int64_t divisibility : axes.divisibility) {
                GemmConfig c;
                c.blockM = blockM;
                c.blockN = blockN;
                c.blockK = blockK;
                c.stages = stages;
                c.threads = threads;
                c.rasterPanel = raster;
                c.inDtype = inDtype;
                c.outDtype = outDtype;
                c.divisibility = divisibility;
                space.candidates.push_back(gemmVariant(c));
              }
  space.sharedBytes = [](const llvm::json::Object &config) -> int64_t {
    // `stages` copies of the A (M x K) and B (K x N) tiles.
    int64_t m = *config.getInteger("block_m"),
            n = *config.getInteger("block_n"),
            k = *config.getInteger("block_k"),
            stages = *config.getInteger("stages");
    int64_t element = bytesOf(config.getString("in_dtype").value_or("f16"));
    return std::max<int64_t>(stages, 1) * (m * k + k * n) * element;
  };
  space.minRegisters = [](const llvm::json::Object &config) -> int64_t {
    // The f32 accumulator tile, spread over the block's threads.
    return *config.getInteger("block_m") * *config.getInteger("block_n") /
           std::max<int64_t>(1, *config.getInteger("threads"));
  };
  return space;
}

std::vector<TuneCandidate> pruneStatically(const TuneSpace &space,
                                           const DeviceLimits &limits) {
  std::vector<TuneCandidate> candidates;
  for (const Variant &variant : space.candidates) {
    TuneCandidate candidate;
    candidate.variant = variant;
    int64_t threads = variant.config.getInteger("threads").value_or(0);
    if (threads > limits.maxThreadsPerBlock || threads % 32 != 0)
      candidate.pruned.push_back(
          llvm::formatv("{0} threads: a block takes a multiple of 32 up to "
                        "{1}",
                        threads, limits.maxThreadsPerBlock));
    if (space.sharedBytes) {
      int64_t shared = space.sharedBytes(variant.config);
      if (shared > limits.maxSharedPerBlock)
        candidate.pruned.push_back(llvm::formatv(
            "needs {0} KiB of shared memory, {1} allows {2} KiB per block",
            shared / 1024, limits.name, limits.maxSharedPerBlock / 1024));
    }
    if (space.minRegisters) {
      int64_t registers = space.minRegisters(variant.config);
      if (registers > 255)
        candidate.pruned.push_back(llvm::formatv(
            "needs at least {0} registers per thread (its accumulator), a "
            "thread has 255",
            registers));
    }
    // The generator's own rules (warps must tile the block in whole MMA
    // tiles, copies must spread over the threads, ...).
    Program program;
    candidate.name = variant.build(program);
    std::string diagnostics = program.verify();
    if (!diagnostics.empty()) {
      // The first line says it; the rest are notes.
      std::string first = diagnostics.substr(0, diagnostics.find('\n'));
      size_t error = first.find("error: ");
      candidate.pruned.push_back(
          error == std::string::npos ? first : first.substr(error + 7));
    }
    candidates.push_back(std::move(candidate));
  }
  return candidates;
}

void compileCandidates(std::vector<TuneCandidate> &candidates,
                       const CompileOptions &options,
                       const DeviceLimits &limits, unsigned jobs,
                       const std::function<void(size_t, size_t)> &progress) {
  std::vector<TuneCandidate *> work;
  for (TuneCandidate &c : candidates)
    if (c.alive())
      work.push_back(&c);
  std::atomic<size_t> next{0}, done{0};
  std::mutex progressMutex;
  auto worker = [&] {
    for (size_t i = next++; i < work.size(); i = next++) {
      TuneCandidate &c = *work[i];
      Program program; // one MLIR context per candidate and thread
      c.variant.build(program);
      c.compiled = compile(program.module(), options, c.name + ".cubin");
      if (!c.compiled.ok) {
        c.pruned.push_back("does not compile: " + c.compiled.error);
      } else {
        std::vector<mlir::tile::KernelReport> reports =
            mlir::tile::analyzePtx(c.compiled.ptx);
        mlir::tile::addPtxasInfo(reports, c.compiled.ptxasLog);
        if (!reports.empty()) {
          c.registers = reports.front().registers;
          c.spillBytes = reports.front().spillStores.value_or(0) +
                         reports.front().spillLoads.value_or(0);
        }
        int64_t threads = c.variant.config.getInteger("threads").value_or(0);
        if (c.registers && *c.registers * threads > limits.registersPerBlock)
          c.pruned.push_back(llvm::formatv(
              "{0} registers x {1} threads exceed the {2} registers of a "
              "block",
              *c.registers, threads, limits.registersPerBlock));
      }
      std::lock_guard<std::mutex> lock(progressMutex);
      if (progress)
        progress(++done, work.size());
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < std::max(1u, jobs); ++j)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();
}

} // namespace tile::fe
