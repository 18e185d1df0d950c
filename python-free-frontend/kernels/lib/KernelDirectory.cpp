//===- KernelDirectory.cpp - A folder of compiled kernels -----------------===//

#include "tile/Frontend/KernelDirectory.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace tile::fe {

bool writeTextFile(const std::string &tool, const std::string &path,
                   const std::string &contents) {
  if (path == "-") {
    llvm::outs() << contents;
    return flushStandardOutput(tool);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << tool << ": cannot write " << path << ": " << ec.message()
                 << "\n";
    return false;
  }
  os << contents;
  os.close();
  if (os.has_error()) {
    llvm::errs() << tool << ": cannot write " << path << ": "
                 << os.error().message() << "\n";
    // Reported: the stream must not abort when it is destroyed.
    os.clear_error();
    return false;
  }
  return true;
}

bool flushStandardOutput(const std::string &tool) {
  llvm::raw_fd_ostream &os = llvm::outs();
  os.flush();
  if (!os.has_error())
    return true;
  llvm::errs() << tool
               << ": cannot write standard output: " << os.error().message()
               << "\n";
  os.clear_error();
  return false;
}

bool KernelDirectory::create() {
  if (auto ec = llvm::sys::fs::create_directories(dir)) {
    llvm::errs() << tool << ": cannot create " << dir << ": " << ec.message()
                 << "\n";
    return false;
  }
  // create_directories accepts an existing path of any kind.
  if (!llvm::sys::fs::is_directory(dir)) {
    llvm::errs() << tool << ": cannot create " << dir
                 << ": it exists and is not a folder\n";
    return false;
  }
  if (auto ec = llvm::sys::fs::access(dir, llvm::sys::fs::AccessMode::Write)) {
    llvm::errs() << tool << ": cannot write into " << dir << ": "
                 << ec.message() << "\n";
    return false;
  }
  return true;
}

bool KernelDirectory::write(const std::string &fileName,
                            const std::string &contents) {
  return writeTextFile(tool, dir + "/" + fileName, contents);
}

bool KernelDirectory::add(const Variant &variant, const std::string &name,
                          const CompiledModule &compiled,
                          const std::string &tileIR) {
  if ((!tileIR.empty() && !write(name + ".mlir", tileIR)) ||
      !write(name + ".ptx", compiled.ptx) ||
      !write(name + ".cubin", compiled.cubin) ||
      !write(name + ".manifest.json", compiled.manifest))
    return false;
  index.push_back(llvm::json::Object{
      {"name", name},
      {"generator", variant.generator},
      {"config", llvm::json::Object(variant.config)},
      {"chip", variant.chip.empty() ? chip : variant.chip},
      {"cubin", name + ".cubin"},
      {"ptx", name + ".ptx"},
      {"manifest", name + ".manifest.json"},
      {"compile_ms", compiled.compileSeconds * 1e3},
      {"compile_phases_ms",
       llvm::json::Object{{"lower", compiled.lowerSeconds * 1e3},
                          {"llvm", compiled.llvmSeconds * 1e3},
                          {"ptxas", compiled.ptxasSeconds * 1e3}}}});
  return true;
}

bool KernelDirectory::writeIndex() {
  llvm::json::Array kernels = index;
  return write("index.json",
               llvm::formatv("{0:2}\n", llvm::json::Value(llvm::json::Object{
                                            {"format", "tile-kernel-index"},
                                            {"version", 1},
                                            {"kernels", std::move(kernels)}}))
                   .str());
}

} // namespace tile::fe
