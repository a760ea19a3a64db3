//===- SymbolTables.h - What objects define and what they lack --*- C++ -*-===//
//
// A library that compiles can still fail where it is loaded: an explicit
// instantiation left behind shows up only as an undefined symbol. Whether a
// closure (`analyze --verify`) or a migrated domain (`review`) links is
// decided on mangled names, never on declared ones: a specialization's
// demangled name (`Launcher<float>::run`) never equals its declaration's.
//
//   opmig::SymbolTable Lib;
//   opmig::readSymbols("/tmp/libdomain.so", Lib);
//   opmig::RuntimeSymbols Runtime = opmig::loadRuntimeSymbols(
//       {"/site/torch/lib", "2.15.0", "/usr/local/cuda", "/usr/bin/c++"});
//   for (const std::string &S : Lib.Undefined)
//     if (!Runtime.provides(S)) ... // demangleSymbol(S) for the report
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_SYMBOLTABLES_H
#define OPMIG_SUPPORT_SYMBOLTABLES_H

#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>

namespace opmig {

/// The symbols an object or shared library defines and leaves undefined
/// (mangled; weak undefined ones may stay so and are not listed).
struct SymbolTable {
  std::set<std::string> Defined, Undefined;
};

/// Reads the symbols of the object or shared library at `Path` into
/// `Table`; a shared library through its dynamic symbol table, the one the
/// loader uses. False when the file is no object.
bool readSymbols(const std::string &Path, SymbolTable &Table);

/// The full demangled text of a symbol, kernels named as written (not by
/// their `__device_stub__`).
std::string demangleSymbol(const std::string &Mangled);

/// `ns::f` for a function symbol (kernel host stubs map to their kernel),
/// the demangled text otherwise.
std::string qualifiedNameOf(llvm::StringRef Mangled);

/// Where the libraries a CUDA extension is loaded with are.
struct RuntimeLibraries {
  std::string TorchLibDir;  ///< `torch/lib`; empty without torch.
  std::string TorchVersion; ///< For the description.
  std::string CudaPath;     ///< The toolkit root; empty without one.
  /// A host compiler asked where libstdc++, libm, libc, libgcc_s and the
  /// dynamic loader are (`-print-file-name`).
  std::string HostCompiler;
  /// What counts as missing when there is no torch, for the description.
  std::string WithoutTorch;
};

/// What a library is really loaded with: torch's libraries, the CUDA
/// runtime, the C++ runtime and libc.
struct RuntimeSymbols {
  std::set<std::string> Defined;
  bool HasTorch = false;
  std::string Description; ///< `torch 2.15.0 libraries in ..., the CUDA runtime, ...`.

  /// Whether the runtime, or the interpreter that loads an extension
  /// (Python's C API), defines `Mangled`.
  bool provides(const std::string &Mangled) const;
};

RuntimeSymbols loadRuntimeSymbols(const RuntimeLibraries &Libraries);

} // namespace opmig

#endif
