//===- SymbolTables.cpp - What objects define and what they lack ----------===//

#include "opmig/support/SymbolTables.h"

#include "opmig/support/CapturedOutput.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <vector>

namespace opmig {

namespace fs = llvm::sys::fs;

bool readSymbols(const std::string &Path, SymbolTable &Table) {
  auto Binary = llvm::object::ObjectFile::createObjectFile(Path);
  if (!Binary) {
    llvm::consumeError(Binary.takeError());
    return false;
  }
  const llvm::object::ObjectFile *Object = Binary->getBinary();
  auto Add = [&](const llvm::object::SymbolRef &Symbol) {
    auto Flags = Symbol.getFlags();
    auto Name = Symbol.getName();
    if (!Flags || !Name) {
      llvm::consumeError(Flags.takeError());
      llvm::consumeError(Name.takeError());
      return;
    }
    if (!(*Flags & llvm::object::SymbolRef::SF_Undefined))
      Table.Defined.insert(Name->str());
    else if (!(*Flags & llvm::object::SymbolRef::SF_Weak))
      Table.Undefined.insert(Name->str());
  };
  const auto *Elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(Object);
  if (Elf && Elf->getEType() == llvm::ELF::ET_DYN) {
    for (const llvm::object::ELFSymbolRef &Symbol : Elf->getDynamicSymbolIterators())
      Add(Symbol);
    return true;
  }
  for (const llvm::object::SymbolRef &Symbol : Object->symbols())
    Add(Symbol);
  return true;
}

std::string demangleSymbol(const std::string &Mangled) {
  std::string Text = llvm::demangle(Mangled);
  llvm::StringRef View(Text);
  if (View.consume_front("__device_stub__"))
    return View.str();
  return Text;
}

std::string qualifiedNameOf(llvm::StringRef Mangled) {
  // The demangler keeps pointing into the string it was given.
  std::string Text = Mangled.str();
  llvm::ItaniumPartialDemangler Demangler;
  if (Demangler.partialDemangle(Text.c_str()))
    return Text;
  if (!Demangler.isFunction()) {
    char *Full = Demangler.finishDemangle(nullptr, nullptr);
    std::string Name = Full ? Full : Text;
    std::free(Full);
    return Name;
  }
  size_t Size = 0;
  char *Context = Demangler.getFunctionDeclContextName(nullptr, &Size);
  char *Base = Demangler.getFunctionBaseName(nullptr, &Size);
  std::string Name = Context && *Context ? std::string(Context) + "::" : "";
  llvm::StringRef BaseName = Base ? Base : "";
  BaseName.consume_front("__device_stub__");
  Name += BaseName.str();
  std::free(Context);
  std::free(Base);
  return Name;
}

namespace {

/// A shared library the host compiler links against, as it finds it.
std::string compilerLibrary(const std::string &Compiler, llvm::StringRef Name) {
  if (Compiler.empty())
    return "";
  std::string Flag = ("-print-file-name=" + Name).str();
  std::optional<std::string> Output = captureOutput(Compiler, {Compiler, Flag});
  std::string Path = Output ? llvm::StringRef(*Output).trim().str() : "";
  return llvm::sys::path::is_absolute(Path) && fs::exists(Path) ? Path : "";
}

std::vector<std::string> sharedLibrariesIn(const std::string &Dir) {
  std::vector<std::string> Libraries;
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(llvm::sys::path::filename(It->path())).contains(".so"))
      Libraries.push_back(It->path());
  return Libraries;
}

std::string cudaRuntime(const std::string &CudaPath) {
  if (CudaPath.empty())
    return "";
  for (llvm::StringRef Dir : {"lib64", "targets/x86_64-linux/lib"})
    if (std::string Cudart = CudaPath + "/" + Dir.str() + "/libcudart.so"; fs::exists(Cudart))
      return Cudart;
  return "";
}

} // namespace

bool RuntimeSymbols::provides(const std::string &Mangled) const {
  // Python's C API comes from the interpreter that loads an extension.
  llvm::StringRef Name(Mangled);
  return Defined.count(Mangled) || Name.starts_with("Py") || Name.starts_with("_Py");
}

RuntimeSymbols loadRuntimeSymbols(const RuntimeLibraries &From) {
  RuntimeSymbols Runtime;
  std::vector<std::string> Libraries;
  if (!From.TorchLibDir.empty())
    Libraries = sharedLibrariesIn(From.TorchLibDir);
  Runtime.HasTorch = !Libraries.empty();
  std::string Cudart = cudaRuntime(From.CudaPath);
  if (!Cudart.empty())
    Libraries.push_back(Cudart);
  // The dynamic loader defines what thread-local storage needs (`__tls_get_addr`).
  for (llvm::StringRef Name :
       {"libstdc++.so.6", "libm.so.6", "libc.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2"})
    if (std::string Path = compilerLibrary(From.HostCompiler, Name); !Path.empty())
      Libraries.push_back(Path);
  for (const std::string &Library : Libraries) {
    SymbolTable Table;
    if (readSymbols(Library, Table))
      Runtime.Defined.insert(Table.Defined.begin(), Table.Defined.end());
  }
  Runtime.Description = Runtime.HasTorch
                            ? "torch " + From.TorchVersion + " libraries in " + From.TorchLibDir
                            : "no torch libraries (torch is not installed with its lib/ folder): " +
                                  From.WithoutTorch;
  Runtime.Description += Cudart.empty() ? ", no CUDA runtime" : ", the CUDA runtime";
  Runtime.Description += ", the C++ runtime and libc";
  return Runtime;
}

} // namespace opmig
