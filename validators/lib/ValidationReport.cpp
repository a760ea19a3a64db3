//===- ValidationReport.cpp - What `opmig validate` proved, layer by layer ===//

#include "opmig/validate/ValidationReport.h"

#include "llvm/ADT/STLExtras.h"

namespace opmig::validate {

const char *toString(Status S) {
  switch (S) {
  case Status::Pass:
    return "pass";
  case Status::Fail:
    return "fail";
  case Status::Skip:
    return "skip";
  }
  return "skip";
}

namespace {

CheckResult checkIn(Status State, std::string Name, std::string Reason) {
  CheckResult C;
  C.Name = std::move(Name);
  C.State = State;
  C.Reason = std::move(Reason);
  return C;
}

} // namespace

CheckResult passed(std::string Name, std::string Reason) {
  return checkIn(Status::Pass, std::move(Name), std::move(Reason));
}

CheckResult skipped(std::string Name, std::string Reason) {
  return checkIn(Status::Skip, std::move(Name), std::move(Reason));
}

CheckResult failed(std::string Name, std::string Message, std::string File) {
  CheckResult C = checkIn(Status::Fail, std::move(Name), Message);
  Finding F;
  F.Id = C.Name;
  F.Producer = "validate";
  F.File = std::move(File);
  F.Message = std::move(Message);
  C.Findings.push_back(std::move(F));
  return C;
}

LayerResult settleLayer(std::string Name, std::vector<CheckResult> Checks) {
  LayerResult L;
  L.Name = std::move(Name);
  size_t Failed =
      llvm::count_if(Checks, [](const CheckResult &C) { return C.State == Status::Fail; });
  size_t Passed =
      llvm::count_if(Checks, [](const CheckResult &C) { return C.State == Status::Pass; });
  auto Count = [](size_t N) { return std::to_string(N) + " check" + (N == 1 ? "" : "s"); };
  if (Failed) {
    L.State = Status::Fail;
    L.Reason = Count(Failed) + " failed";
  } else if (Passed) {
    L.State = Status::Pass;
    L.Reason = Count(Passed) + " passed";
  } else {
    L.State = Status::Skip;
    // Every check skipped: the first one's reason says why.
    L.Reason = Checks.empty() ? "no check applies" : Checks.front().Reason;
  }
  if (size_t Skipped = Checks.size() - Failed - Passed; Skipped && L.State != Status::Skip)
    L.Reason += ", " + std::to_string(Skipped) + " skipped";
  L.Checks = std::move(Checks);
  return L;
}

LayerResult skippedLayer(std::string Name, std::string Reason) {
  LayerResult L;
  L.Name = std::move(Name);
  L.State = Status::Skip;
  L.Reason = std::move(Reason);
  return L;
}

bool ValidationReport::passed() const {
  return llvm::none_of(Layers, [](const LayerResult &L) { return L.State == Status::Fail; });
}

std::vector<Finding> ValidationReport::findings() const {
  std::vector<Finding> All;
  for (const LayerResult &L : Layers)
    for (const CheckResult &C : L.Checks)
      llvm::append_range(All, C.Findings);
  return All;
}

} // namespace opmig::validate
