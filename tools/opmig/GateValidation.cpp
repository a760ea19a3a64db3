//===- GateValidation.cpp - The gate's `validate` check -------------------===//

#include "GateValidation.h"

#include "OutputFile.h"
#include "opmig/validate/Layers.h"
#include "opmig/validate/ReportRenderers.h"
#include "opmig/validate/Validate.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>

namespace opmig {

namespace {

/// `pass build, import; fail api; skip smoke (no CUDA device here)`: each
/// skipped layer with its reason, so that a passing gate does not read as
/// "every layer proven".
std::string summarize(const validate::ValidationReport &Report) {
  std::map<validate::Status, std::vector<std::string>> ByStatus;
  for (const validate::LayerResult &L : Report.Layers)
    ByStatus[L.State].push_back(L.State == validate::Status::Skip ? L.Name + " (" + L.Reason + ")"
                                                                  : L.Name);
  std::vector<std::string> Parts;
  for (validate::Status S :
       {validate::Status::Pass, validate::Status::Fail, validate::Status::Skip})
    if (!ByStatus[S].empty())
      Parts.push_back(std::string(validate::toString(S)) + " " + llvm::join(ByStatus[S], ", "));
  return llvm::join(Parts, "; ");
}

std::string commandLine(const std::string &Root, const std::string &Domain,
                        const std::vector<std::string> &Layers) {
  return "opmig validate --target " + Root + " --domain " + Domain +
         (Layers.empty() ? "" : " --layers " + llvm::join(Layers, ","));
}

} // namespace

audit::ValidateDomainFor gateValidation(const std::string &Root, const std::string &ReportsDir) {
  auto Count = std::make_shared<unsigned>(0);
  return [Root, ReportsDir, Count](
             const std::string &Domain,
             const std::vector<std::string> &Layers) -> llvm::Expected<audit::DomainValidation> {
    validate::ValidateOptions Options;
    Options.Target = Root;
    Options.Domain = Domain;
    Options.Layers = Layers;
    Options.ArchEnv = {llvm::sys::Process::GetEnv("CACHE_DIT_CUDA_ARCH_LIST").value_or(""),
                       llvm::sys::Process::GetEnv("TORCH_CUDA_ARCH_LIST").value_or("")};
    Options.Progress = [Domain](llvm::StringRef Line) {
      llvm::errs() << "opmig gate: validate " << Domain << ": " << Line << "\n";
    };
    llvm::Expected<validate::ValidationReport> Report = validate::validateDomain(Options);
    if (!Report)
      return Report.takeError();
    llvm::SmallString<256> Path(ReportsDir);
    // Numbered, not named: a domain name comes from a config a pull request edits.
    llvm::sys::path::append(Path, "validate-" + std::to_string(++*Count) + ".json");
    if (llvm::Error E = writeOutput(std::string(Path), validate::renderValidationJson(*Report)))
      return E;
    std::vector<Finding> Findings = Report->findings();
    for (Finding &F : Findings)
      if (F.File.empty())
        F.File = Report->Manifest; // A problem of the domain as a whole.
    return audit::DomainValidation{std::move(Findings), std::string(Path), summarize(*Report),
                                   commandLine(Root, Domain, Layers)};
  };
}

} // namespace opmig
