//===- CudaArchList.cpp - The GPU archs a validation builds for -----------===//

#include "opmig/validate/CudaArchList.h"

#include "opmig/support/Errors.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

namespace opmig::validate {

namespace {

/// `9.0a` -> `90a`; `sm_90a`, `compute_90a` and `90a` stay `90a`; empty
/// when `Entry` is no arch.
std::string archNumber(llvm::StringRef Entry) {
  if (!Entry.consume_front("sm_"))
    Entry.consume_front("compute_");
  static const llvm::Regex Dotted("^([0-9]+)\\.([0-9])([af]?)$");
  static const llvm::Regex Plain("^([0-9]{2,3})([af]?)$");
  llvm::SmallVector<llvm::StringRef, 4> Match;
  if (Dotted.match(Entry, &Match))
    return (Match[1] + Match[2] + Match[3]).str();
  if (Plain.match(Entry, &Match))
    return Entry.str();
  return "";
}

} // namespace

std::string CudaArch::torchSpelling() const {
  llvm::StringRef Digits = llvm::StringRef(Number).rtrim("af");
  llvm::StringRef Suffix = llvm::StringRef(Number).drop_front(Digits.size());
  return (Digits.drop_back() + "." + Digits.take_back() + Suffix + (Ptx ? "+PTX" : "")).str();
}

std::vector<std::string> CudaArch::gencodeFlags() const {
  std::vector<std::string> Flags = {"-gencode=arch=compute_" + Number + ",code=sm_" + Number};
  if (Ptx)
    Flags.push_back("-gencode=arch=compute_" + Number + ",code=compute_" + Number);
  return Flags;
}

llvm::Expected<std::vector<CudaArch>> parseCudaArchList(llvm::StringRef List,
                                                        llvm::StringRef Origin) {
  llvm::SmallVector<llvm::StringRef> Entries;
  llvm::SplitString(List, Entries, "; ,\t");
  std::vector<CudaArch> Archs;
  for (llvm::StringRef Entry : Entries) {
    CudaArch Arch;
    Arch.Ptx = Entry.consume_back("+PTX");
    Arch.Number = archNumber(Entry);
    if (Arch.Number.empty())
      return inputError(Origin.str(), ": '", Entry.str(),
                        "' is no CUDA arch; write them as torch does, e.g. 9.0a;8.9");
    if (llvm::find(Archs, Arch) == Archs.end())
      Archs.push_back(std::move(Arch));
  }
  if (Archs.empty())
    return inputError(Origin.str(), " names no CUDA arch");
  return Archs;
}

std::string torchArchList(const std::vector<CudaArch> &Archs) {
  llvm::SmallVector<std::string> Spelled;
  for (const CudaArch &A : Archs)
    Spelled.push_back(A.torchSpelling());
  return llvm::join(Spelled, ";");
}

} // namespace opmig::validate
