//===- ReviewValidation.cpp - The validate reports a review takes ---------===//

#include "ReviewValidation.h"

#include "opmig/support/Errors.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <optional>

namespace opmig::audit {

namespace {

std::string absolute(const std::string &Path) {
  llvm::SmallString<256> Abs(Path);
  if (llvm::sys::fs::make_absolute(Abs))
    return Path;
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// `Path` relative to `Target` when it lies inside it, else as given: the
/// review's paths are the target's, and a report built beside the tree
/// reads better so (`build/validate.json`).
std::string shownPath(const std::string &Target, const std::string &Path) {
  std::string Root = absolute(Target), Abs = absolute(Path);
  llvm::StringRef Rest(Abs);
  if (Rest.consume_front(Root) && Rest.consume_front("/") && !Rest.empty())
    return Rest.str();
  return Path;
}

std::optional<llvm::sys::TimePoint<>> modified(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return std::nullopt;
  return Status.getLastModificationTime();
}

/// Why the report at `Report` may be stale: the newest file of the domain
/// (its manifest, migrated and generated files) changed after it was
/// written. Empty when none did.
std::string staleBecause(const std::string &Report, const std::string &Target,
                         const std::string &ManifestPath, const opmig::Manifest &M) {
  std::optional<llvm::sys::TimePoint<>> Written = modified(Report);
  if (!Written)
    return "";
  std::vector<std::string> Files{ManifestPath};
  for (const opmig::MigratedFileRecord &F : M.Files)
    Files.push_back(F.TargetPath);
  for (const opmig::GeneratedFileRecord &G : M.Generated)
    Files.push_back(G.TargetPath);
  std::string Newest;
  llvm::sys::TimePoint<> NewestTime = *Written;
  for (const std::string &File : Files) {
    llvm::SmallString<256> Path(Target);
    llvm::sys::path::append(Path, File);
    if (std::optional<llvm::sys::TimePoint<>> Changed = modified(std::string(Path));
        Changed && *Changed > NewestTime) {
      Newest = File;
      NewestTime = *Changed;
    }
  }
  if (Newest.empty())
    return "";
  return "it is older than " + Newest +
         " of the domain; its layers still count, re-run opmig validate to be sure they hold";
}

} // namespace

llvm::Expected<std::vector<ValidateReport>>
readValidationReports(const ReviewOptions &Options, const std::string &ManifestPath,
                      const opmig::Manifest &M, std::vector<ValidationReportUse> &Uses) {
  std::vector<ValidateReport> Reports;
  for (const std::string &Path : Options.ValidationReports) {
    llvm::Expected<ValidateReport> Report = readValidateReport(Path);
    if (!Report)
      return Report.takeError();
    if (Report->Domain != Options.Domain)
      return inputError("the validate report '", Path, "'", inputs::ValidationReports,
                        " is of domain '", Report->Domain, "', not of '", Options.Domain,
                        "', the domain reviewed");
    Report->Path = shownPath(Options.Target, Path);
    Uses.push_back(
        {Report->Path, Report->Target, staleBecause(Path, Options.Target, ManifestPath, M)});
    Reports.push_back(std::move(*Report));
  }
  return Reports;
}

} // namespace opmig::audit
