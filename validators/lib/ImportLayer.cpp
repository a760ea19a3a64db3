//===- ImportLayer.cpp - Layer 2: import safety and loading ---------------===//
//
// Each case runs in a child process of its own (ImportHarness.h):
//
//   import-without-extension      the package imports with the extension hidden
//                                 (veomni: with its JIT build failing)
//   import-extension-unavailable  <domain>_extension_is_available() is False,
//                                 the load error is kept (veomni: the failed
//                                 build is kept, not retried on every call)
//   import-build-command          each op raises RuntimeError naming the build
//                                 (veomni: the folder it builds from)
//   import-load                   the built extension/library loads
//   import-missing-symbol         nothing it needs is undefined
//   import-registered-ops         (generic) it registers exactly the manifest's ops
//
//===----------------------------------------------------------------------===//

#include "ImportLayer.h"

#include "DomainBuilders.h"
#include "DomainNames.h"
#include "ImportHarness.h"
#include "opmig/support/SymbolTables.h"
#include "opmig/validate/MissingSymbols.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <set>

namespace opmig::validate {

namespace {

/// A check from the harness' `{"ok": ..., "detail": ...}`.
CheckResult fromAnswer(const std::string &Name, const nlohmann::json &Check,
                       const std::string &File) {
  std::string Detail = Check.value("detail", std::string("no detail"));
  return Check.value("ok", false) ? passed(Name, Detail) : failed(Name, Detail, File);
}

/// Every check of a case that gave no answer fails with the case's outcome.
std::vector<CheckResult> allFailed(const std::vector<std::string> &Names, const HarnessRun &Run,
                                   const std::string &File) {
  std::vector<CheckResult> Checks;
  for (const std::string &Name : Names)
    Checks.push_back(failed(Name, Run.failure(), File));
  return Checks;
}

std::string hostCompiler() {
  for (llvm::StringRef Name : {"c++", "g++"})
    if (llvm::ErrorOr<std::string> Path = llvm::sys::findProgramByName(Name))
      return *Path;
  return "";
}

/// Every symbol the library leaves to a loader that nothing it is loaded
/// with defines (LinkCheck's tables), the loader's own first.
std::vector<std::string> undefinedSymbols(const LayerContext &Ctx, const std::string &Library,
                                          const std::string &LoaderSymbol) {
  std::vector<std::string> Symbols = {LoaderSymbol};
  SymbolTable Table;
  if (!readSymbols(Library, Table))
    return Symbols;
  RuntimeSymbols Runtime =
      loadRuntimeSymbols({Ctx.Toolchain.Torch.LibDir, Ctx.Toolchain.Torch.Version,
                          Ctx.Toolchain.CudaPath, hostCompiler(), ""});
  if (!Runtime.HasTorch)
    return Symbols;
  for (const std::string &Symbol : Table.Undefined)
    if (Symbol != LoaderSymbol && !Runtime.provides(Symbol))
      Symbols.push_back(Symbol);
  return Symbols;
}

std::vector<std::string> manifestFiles(const Manifest &M) {
  std::vector<std::string> Files;
  for (const MigratedFileRecord &F : M.Files)
    Files.push_back(F.TargetPath);
  for (const GeneratedFileRecord &G : M.Generated)
    if (G.Blocks.empty())
      Files.push_back(G.TargetPath);
  return Files;
}

/// import-load and import-missing-symbol from a load's answer.
std::vector<CheckResult> loadChecks(const LayerContext &Ctx, const nlohmann::json &Loads,
                                    const std::string &What) {
  const BuiltDomain &Built = *Ctx.Built;
  if (Loads.value("ok", false))
    return {passed("import-load", Loads.value("detail", What + " loads")),
            passed("import-missing-symbol", "the loader found every symbol " + What + " needs")};
  std::string Symbol = Loads.value("undefined_symbol", std::string());
  if (Symbol.empty())
    return {fromAnswer("import-load", Loads, Ctx.ManifestPath),
            skipped("import-missing-symbol", What + " did not load for another reason")};
  CheckResult Missing;
  Missing.Name = "import-missing-symbol";
  Missing.State = Status::Fail;
  for (const std::string &Mangled : undefinedSymbols(Ctx, Built.Library, Symbol)) {
    SymbolHome Home = homeOfSymbol(Mangled, Ctx.Root, manifestFiles(Ctx.M), Built.Plan.ManifestTUs,
                                   Built.CompiledTUs);
    Finding F;
    F.Id = Missing.Name;
    F.Producer = "validate";
    F.File = Home.File;
    F.Message = "undefined symbol `" + demangleSymbol(Mangled) + "` (" + Mangled + ") when " +
                What + " loads: " + Home.Explanation;
    Missing.Findings.push_back(std::move(F));
  }
  Missing.Reason = Missing.Findings.front().Message;
  Missing.Figures["undefined_symbols"] = Missing.Findings.size();
  return {skipped("import-load", "a symbol is missing (import-missing-symbol)"),
          std::move(Missing)};
}

/// The three checks of a case that hides the extension, from its answer.
std::vector<CheckResult> hiddenChecks(const HarnessRun &Run, const std::string &File) {
  std::vector<std::string> CheckNames = {"import-without-extension", "import-extension-unavailable",
                                         "import-build-command"};
  if (!Run.answered())
    return allFailed(CheckNames, Run, File);
  const nlohmann::json &A = Run.Answer;
  std::vector<CheckResult> Checks = {fromAnswer(CheckNames[0], A["imports"], File)};
  for (auto [Name, Key] :
       {std::pair{CheckNames[1], "unavailable"}, {CheckNames[2], "build_command"}})
    Checks.push_back(A.contains(Key) ? fromAnswer(Name, A[Key], File)
                                     : skipped(Name, "the package does not import"));
  return Checks;
}

std::vector<CheckResult> hiddenExtensionChecks(const LayerContext &Ctx) {
  CacheDitNames Names = cacheDitNames(Ctx);
  const std::string &ModuleFile = Names.DomainFile;
  nlohmann::json Request = {
      {"path", Names.SourceRoot},     {"module", Names.DomainModule},
      {"extension", Names.Extension}, {"domain", Ctx.M.Domain},
      {"ops", opNames(Ctx.M)},        {"build_command", cacheDitBuildCommand(Ctx.M.Domain)}};
  Ctx.progress("import: " + Names.DomainModule + " with " + Names.Extension + " hidden");
  HarnessRun Run = runHarnessCase(*Ctx.Harness->Servers, Ctx.Toolchain.Python, "hidden", Request,
                                  Ctx.Options.TimeoutSeconds);
  return hiddenChecks(Run, ModuleFile);
}

std::vector<CheckResult> jitHiddenChecks(const LayerContext &Ctx) {
  VeomniNames Names = veomniNames(Ctx);
  nlohmann::json Request = {{"path", Ctx.Root},
                            {"package", Names.PackageModule},
                            {"module", Names.DomainModule},
                            {"impl", Names.ImplModule},
                            {"ops", opNames(Ctx.M)},
                            {"native_dir", Names.NativeDir}};
  Ctx.progress("import: " + Names.DomainModule + " with its JIT build failing");
  HarnessRun Run = runHarnessCase(*Ctx.Harness->Servers, Ctx.Toolchain.Python, "jit-hidden",
                                  Request, Ctx.Options.TimeoutSeconds);
  return hiddenChecks(Run, Names.ImplFile);
}

/// The extension a veomni domain builds on first use, loaded from the build.
std::vector<CheckResult> builtJitExtensionChecks(const LayerContext &Ctx) {
  const std::string &Name = Ctx.Built->Plan.Extension.Name;
  nlohmann::json Request = {{"extension", Name}, {"library", Ctx.Built->Library}};
  Ctx.progress("import: " + Name + " as built");
  HarnessRun Run = runHarnessCase(*Ctx.Harness->Servers, Ctx.Toolchain.Python, "extension-file",
                                  Request, Ctx.Options.TimeoutSeconds);
  if (!Run.answered())
    return allFailed({"import-load", "import-missing-symbol"}, Run, "");
  return loadChecks(Ctx, Run.Answer["loads"], Name);
}

std::vector<CheckResult> builtExtensionChecks(const LayerContext &Ctx) {
  CacheDitNames Names = cacheDitNames(Ctx);
  nlohmann::json Request = {{"path", Names.SourceRoot},
                            {"package", Ctx.Built->Plan.Extension.Name.substr(
                                            0, Ctx.Built->Plan.Extension.Name.rfind('.'))},
                            {"build_dir", extensionDir(Ctx.Built->BuildDir)},
                            {"extension", Ctx.Built->Plan.Extension.Name},
                            {"module", Names.DomainModule},
                            {"domain", Ctx.M.Domain}};
  Ctx.progress("import: " + Ctx.Built->Plan.Extension.Name + " as built");
  HarnessRun Run = runHarnessCase(*Ctx.Harness->Servers, Ctx.Toolchain.Python, "built", Request,
                                  Ctx.Options.TimeoutSeconds);
  if (!Run.answered())
    return allFailed({"import-load", "import-missing-symbol"}, Run, "");
  std::vector<CheckResult> Checks = loadChecks(Ctx, Run.Answer["loads"], Names.Extension);
  if (Run.Answer.contains("available") && !Run.Answer["available"].value("ok", false))
    Checks.front() = fromAnswer("import-load", Run.Answer["available"], Names.DomainFile);
  return Checks;
}

CheckResult registeredOpsCheck(const Manifest &M, const nlohmann::json &Registered,
                               const std::string &Namespace) {
  std::set<std::string> Have, Want;
  for (const nlohmann::json &Name : Registered)
    if (Name.is_string())
      Have.insert(Name.get<std::string>());
  for (const ManifestOp &Op : M.Ops)
    Want.insert(Op.Name);
  std::vector<std::string> Missing, Extra;
  std::set_difference(Want.begin(), Want.end(), Have.begin(), Have.end(),
                      std::back_inserter(Missing));
  std::set_difference(Have.begin(), Have.end(), Want.begin(), Want.end(),
                      std::back_inserter(Extra));
  if (Missing.empty() && Extra.empty())
    return passed("import-registered-ops", "registers exactly the manifest's " +
                                               std::to_string(Want.size()) + " op(s) in " +
                                               Namespace);
  std::string Why = "registers " + Namespace + " ops other than the manifest's:";
  if (!Missing.empty())
    Why += " missing " + llvm::join(Missing, ", ") + ";";
  if (!Extra.empty())
    Why += " not in the manifest " + llvm::join(Extra, ", ") + ";";
  Why.pop_back();
  return failed("import-registered-ops", Why);
}

std::vector<CheckResult> genericLibraryChecks(const LayerContext &Ctx) {
  std::string Namespace = opNamespace(Ctx);
  nlohmann::json Request = {{"library", Ctx.Built->Library}, {"namespace", Namespace}};
  std::string Name = llvm::sys::path::filename(Ctx.Built->Library).str();
  Ctx.progress("import: torch.ops.load_library(" + Name + ")");
  HarnessRun Run = runHarnessCase(*Ctx.Harness->Servers, Ctx.Toolchain.Python, "library", Request,
                                  Ctx.Options.TimeoutSeconds);
  if (!Run.answered())
    return allFailed({"import-load", "import-missing-symbol", "import-registered-ops"}, Run, "");
  std::vector<CheckResult> Checks = loadChecks(Ctx, Run.Answer["loads"], Name);
  if (Run.Answer["loads"].value("ok", false))
    Checks.push_back(registeredOpsCheck(Ctx.M, Run.Answer["ops"], Namespace));
  else
    Checks.push_back(skipped("import-registered-ops", Name + " does not load"));
  return Checks;
}

} // namespace

std::string cacheDitBuildCommand(const std::string &Domain) {
  return "CACHE_DIT_BUILD_" + llvm::StringRef(Domain).upper() +
         "=1 pip install -e . --no-build-isolation";
}

LayerResult runImportLayer(const LayerContext &Ctx) {
  if (!Ctx.Harness)
    return skippedLayer("import", Ctx.HarnessUnavailable);
  std::vector<CheckResult> Checks;
  if (Ctx.Profile == "cache-dit")
    Checks = hiddenExtensionChecks(Ctx);
  else if (Ctx.Profile == "veomni")
    Checks = jitHiddenChecks(Ctx);
  std::vector<std::string> BuiltNames = {"import-load", "import-missing-symbol"};
  if (Ctx.Profile == "generic")
    BuiltNames.push_back("import-registered-ops");
  if (!Ctx.Built) {
    for (const std::string &Name : BuiltNames)
      Checks.push_back(skipped(Name, "nothing was built: " + Ctx.NotBuiltBecause));
  } else if (Ctx.Profile == "cache-dit") {
    llvm::append_range(Checks, builtExtensionChecks(Ctx));
  } else if (Ctx.Profile == "veomni") {
    llvm::append_range(Checks, builtJitExtensionChecks(Ctx));
  } else {
    llvm::append_range(Checks, genericLibraryChecks(Ctx));
  }
  return settleLayer("import", std::move(Checks));
}

} // namespace opmig::validate
