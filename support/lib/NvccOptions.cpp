//===- NvccOptions.cpp - What each nvcc option means ----------------------===//

#include "opmig/support/NvccOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <iterator>

namespace opmig {

namespace {

constexpr NvccOption NvccOptions[] = {
    {"arch", true, NvccAction::Arch},
    {"gpu-architecture", true, NvccAction::Arch},
    {"code", true, NvccAction::Code},
    {"gpu-code", true, NvccAction::Code},
    {"gencode", true, NvccAction::GenCode},
    {"generate-code", true, NvccAction::GenCode},
    {"rdc", true, NvccAction::Rdc},
    {"relocatable-device-code", true, NvccAction::Rdc},
    {"dc", false, NvccAction::DeviceC},
    {"device-c", false, NvccAction::DeviceC},
    {"use_fast_math", false, NvccAction::FastMath},
    {"Xcompiler", true, NvccAction::HostArgs},
    {"compiler-options", true, NvccAction::HostArgs},
    {"optf", true, NvccAction::OptionsFile},
    {"options-file", true, NvccAction::OptionsFile},
    {"x", true, NvccAction::Language},
    {"std", true, NvccAction::Std},
    {"D", true, NvccAction::Define},
    {"define-macro", true, NvccAction::Define},
    {"U", true, NvccAction::Undefine},
    {"undefine-macro", true, NvccAction::Undefine},
    {"I", true, NvccAction::Include},
    {"include-path", true, NvccAction::Include},
    {"isystem", true, NvccAction::SystemInclude},
    {"system-include", true, NvccAction::SystemInclude},
    {"iquote", true, NvccAction::QuoteInclude},
    {"include", true, NvccAction::PreInclude},
    {"pre-include", true, NvccAction::PreInclude},
    {"O", true, NvccAction::Optimize},
    {"optimize", true, NvccAction::Optimize},
    // Options for nvcc's own stages (device code generation, ptxas, the
    // device linker, the host compiler's location) and its diagnostics.
    {"expt-relaxed-constexpr", false, NvccAction::NvccLanguage},
    {"expt-extended-lambda", false, NvccAction::NvccLanguage},
    {"extended-lambda", false, NvccAction::NvccLanguage},
    {"lineinfo", false, NvccAction::Drop},
    {"generate-line-info", false, NvccAction::Drop},
    {"G", false, NvccAction::Drop},
    {"device-debug", false, NvccAction::Drop},
    {"keep", false, NvccAction::Drop},
    {"forward-unknown-to-host-compiler", false, NvccAction::Drop},
    {"resource-usage", false, NvccAction::Drop},
    {"display-error-number", false, NvccAction::Drop},
    {"Xptxas", true, NvccAction::Drop},
    {"ptxas-options", true, NvccAction::Drop},
    {"Xcudafe", true, NvccAction::Drop},
    {"Xnvlink", true, NvccAction::Drop},
    {"nvlink-options", true, NvccAction::Drop},
    {"Xlinker", true, NvccAction::Drop},
    {"linker-options", true, NvccAction::Drop},
    {"threads", true, NvccAction::Drop},
    {"t", true, NvccAction::Drop},
    {"ccbin", true, NvccAction::Drop},
    {"compiler-bindir", true, NvccAction::Drop},
    {"maxrregcount", true, NvccAction::NvccCodegen},
    {"default-stream", true, NvccAction::Drop},
    {"diag-suppress", true, NvccAction::Drop},
    {"diag-error", true, NvccAction::Drop},
    {"diag-warn", true, NvccAction::Drop},
    // nvcc's -Werror takes nvcc's warning kinds (cross-execution-space-call,
    // ...); a host -Werror would come through -Xcompiler.
    {"Werror", true, NvccAction::Drop},
    {"ftz", true, NvccAction::NvccCodegen},
    {"prec-div", true, NvccAction::NvccCodegen},
    {"prec-sqrt", true, NvccAction::NvccCodegen},
    {"fmad", true, NvccAction::NvccCodegen},
    {"static-global-template-stub", true, NvccAction::Drop},
    // Before the glued -O<level> rule would turn these into a bad -O.
    {"Ofc", true, NvccAction::Drop},
    {"Ofast-compile", true, NvccAction::Drop},
};

} // namespace

const NvccOption *findNvccOption(llvm::StringRef Name) {
  const auto *It = llvm::find_if(NvccOptions, [&](const NvccOption &O) { return O.Name == Name; });
  return It == std::end(NvccOptions) ? nullptr : It;
}

std::optional<std::string> carriedNvccFlag(llvm::StringRef Name, llvm::StringRef Value) {
  const NvccOption *Option = findNvccOption(Name);
  if (!Option)
    return std::nullopt;
  switch (Option->Action) {
  case NvccAction::NvccLanguage:
  case NvccAction::FastMath:
    return Value.empty() ? std::optional("--" + Name.str()) : std::nullopt;
  case NvccAction::NvccCodegen: {
    bool Valid = Name == "maxrregcount" ? !Value.empty() && llvm::all_of(Value, llvm::isDigit)
                                        : Value == "true" || Value == "false";
    return Valid ? std::optional("--" + Name.str() + "=" + Value.str()) : std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

bool isCarriedNvccFlag(llvm::StringRef Flag) {
  if (!Flag.starts_with("--"))
    return false;
  auto [Name, Value] = Flag.drop_front(2).split('=');
  std::optional<std::string> Carried = carriedNvccFlag(Name, Value);
  return Carried && *Carried == Flag;
}

bool isCudaArch(llvm::StringRef Arch) {
  if (!Arch.consume_front("sm_"))
    return false;
  if (!Arch.consume_back("a"))
    Arch.consume_back("f");
  return Arch.size() >= 2 && llvm::all_of(Arch, [](char C) { return llvm::isDigit(C); });
}

} // namespace opmig
