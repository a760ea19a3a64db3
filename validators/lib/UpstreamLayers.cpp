//===- UpstreamLayers.cpp - diff and perf: the migration against its upstream ===//

#include "UpstreamLayers.h"

#include "OpLayers.h"
#include "UpstreamBuilder.h"
#include "opmig/support/Hashing.h"
#include "opmig/support/ValidationSpec.h"
#include "opmig/validate/FlagDifferences.h"
#include "opmig/validate/OpRequests.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <limits>

namespace opmig::validate {

namespace {

using nlohmann::json;

constexpr const char *NoGpuReason = "no CUDA device here";

/// perf's timing, as the harness takes it (op_harness.py, layer_perf).
json perfSettings() {
  return {{"warmup", 5},          {"samples", 30},      {"min_sample_ms", 0.5},
          {"min_band", 0.05},     {"band_factor", 3.0}, {"flush_l2_bytes", 256 << 20},
          {"min_abs_ms", 0.00025}};
}

std::string fileText(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

std::vector<CheckResult> prefixed(const std::vector<CheckResult> &Checks,
                                  const std::string &Layer) {
  std::vector<CheckResult> Out = Checks;
  for (CheckResult &C : Out) {
    C.Name = Layer + "-" + C.Name;
    for (Finding &F : C.Findings)
      F.Id = C.Name;
  }
  return Out;
}

std::vector<FlagDifference> launchBoundsDifferences(const LayerContext &Ctx,
                                                    const UpstreamPlan &Plan) {
  std::vector<FlagDifference> Out;
  for (const MigratedFileRecord &F : Ctx.M.Files)
    for (FlagDifference &D :
         compareLaunchBounds(F.UpstreamPath, fileText(Plan.SourceRoot + "/" + F.UpstreamPath),
                             F.TargetPath, fileText(Ctx.Root + "/" + F.TargetPath)))
      Out.push_back(std::move(D));
  return Out;
}

/// The migrated files edited since migrate wrote them (target-relative).
std::vector<std::string> handEdits(const LayerContext &Ctx) {
  std::vector<std::string> Edited;
  for (const MigratedFileRecord &F : Ctx.M.Files) {
    std::string Text = fileText(Ctx.Root + "/" + F.TargetPath);
    if (!F.MigratedSha256.empty() && sha256Hex(Text) != F.MigratedSha256)
      Edited.push_back(F.TargetPath);
  }
  return Edited;
}

/// What may make the two builds compute differently, most likely first.
std::vector<std::string> likelyCauses(const LayerContext &Ctx, const UpstreamBuilt &U) {
  std::vector<std::string> Causes;
  if (U.Plan->CodegenFlagsKnown)
    for (const FlagDifference &D : compareNvccFlags(U.UpstreamNvcc, U.MigratedNvcc))
      Causes.push_back("the builds' flags differ: " + D.describe());
  for (const FlagDifference &D : launchBoundsDifferences(Ctx, *U.Plan))
    Causes.push_back(D.describe());
  for (const std::string &File : handEdits(Ctx))
    Causes.push_back(File + " was edited since the migration");
  return Causes;
}

CheckResult buildFlagsCheck(const UpstreamBuilt &U) {
  if (!U.Plan->CodegenFlagsKnown)
    return skipped("perf-build-flags",
                   "the upstream's code-generation flags are written nowhere in " +
                       U.Plan->SourceRoot +
                       " (setup.py, CMakeLists.txt): it was built with the migrated build's; "
                       "give the upstream's flags to compare them");
  std::vector<FlagDifference> Differences = compareNvccFlags(U.UpstreamNvcc, U.MigratedNvcc);
  json Listed = json::array();
  std::vector<std::string> Described;
  for (const FlagDifference &D : Differences) {
    Listed.push_back({{"feature", D.Feature}, {"upstream", D.Upstream}, {"migrated", D.Migrated}});
    Described.push_back(D.describe());
  }
  CheckResult Check =
      Differences.empty()
          ? passed("perf-build-flags", "both builds generate code with the same flags (from " +
                                           llvm::join(U.Plan->FlagsFrom, ", ") + ")")
          : failed("perf-build-flags", "the migrated build generates code with other flags than "
                                       "the upstream's: " +
                                           llvm::join(Described, "; "));
  Check.Figures["differences"] = nlohmann::ordered_json::parse(Listed.dump());
  Check.Figures["upstream_flags"] = U.UpstreamNvcc;
  Check.Figures["migrated_flags"] = U.MigratedNvcc;
  return Check;
}

CheckResult launchBoundsCheck(const LayerContext &Ctx, const UpstreamBuilt &U) {
  std::vector<std::string> Described;
  for (const FlagDifference &D : launchBoundsDifferences(Ctx, *U.Plan))
    Described.push_back(D.describe());
  if (Described.empty())
    return passed("perf-launch-bounds",
                  "every migrated file keeps its upstream's __launch_bounds__");
  CheckResult Check = failed("perf-launch-bounds",
                             "the migrated kernels' launch bounds differ from the upstream's: " +
                                 llvm::join(Described, "; "));
  Check.Figures["differences"] = Described;
  return Check;
}

json requestFor(const LayerContext &Ctx, const UpstreamBuilt &U) {
  json Request = opLayerRequest(Ctx);
  Request["upstream"] = {{"library", U.Library}, {"namespace", U.Plan->Namespace}};
  return Request;
}

/// `diff-upstream-registered`: the upstream library loads and registers
/// every entry with its schema and a CUDA kernel (a CPU is enough).
std::vector<CheckResult> registrationChecks(const LayerContext &Ctx, const UpstreamBuilt &U) {
  json Request = requestFor(Ctx, U);
  json Ops = json::array();
  for (const UpstreamEntry &E : U.Plan->Entries)
    Ops.push_back({{"name", E.Op}, {"schema", E.Schema}});
  Request["ops"] = Ops;
  Ctx.progress("diff: the upstream entries as registered in " + U.Plan->Namespace);
  OpHarnessRun Run = runOpHarness(*Ctx.Harness, "upstream", Request,
                                  std::numeric_limits<size_t>::max(), Ctx.Options.TimeoutSeconds);
  return opLayerChecks(Run, "diff-upstream-", Ctx.ManifestPath, json::object());
}

json upstreamTolerances(const SpecOp &Op) {
  if (!Op.UpstreamDiff.known())
    return nullptr;
  const SpecUpstreamDiff &D = Op.UpstreamDiff.Value;
  json Tolerances = json::object();
  for (const auto &[Dtype, T] : D.Tolerances)
    Tolerances[Dtype] = {{"atol", T.Atol}, {"rtol", T.Rtol}};
  return {{"reason", D.Reason}, {"cases", D.Cases}, {"tolerances", Tolerances}};
}

/// Adds the likely causes to each failing case of diff.
void explain(std::vector<CheckResult> &Checks, const std::vector<std::string> &Causes) {
  std::string Text =
      Causes.empty()
          ? "no build flag, launch bound or hand edit differs: the migrated code itself computes "
            "otherwise (review the migration against the upstream tree)"
          : "likely cause: " + llvm::join(Causes, "; ");
  for (CheckResult &C : Checks) {
    if (C.State != Status::Fail)
      continue;
    C.Reason += "; " + Text;
    for (Finding &F : C.Findings)
      F.Message += "; " + Text;
    C.Figures["likely_causes"] = Causes;
  }
}

std::vector<CheckResult> perOpChecks(const LayerContext &Ctx, const UpstreamBuilt &U,
                                     const std::string &Layer) {
  std::vector<CheckResult> Checks;
  std::string Path = opLayerSpecPath(Ctx);
  if (!llvm::sys::fs::exists(Path))
    return {skipped(Layer + "-spec", "no validation spec at " + Path +
                                         ": migrate writes one (docs/validation-spec.md)")};
  llvm::Expected<ValidationSpec> Spec = readValidationSpec(Path);
  if (!Spec)
    return {failed(Layer + "-spec", llvm::toString(Spec.takeError()))};
  std::vector<std::string> Causes =
      Layer == "diff" ? likelyCauses(Ctx, U) : std::vector<std::string>{};
  for (const ManifestOp &Op : Ctx.M.Ops) {
    std::string Prefix = Layer + ":" + Op.Name + "/";
    const SpecOp *FromSpec = Spec->op(Op.Name);
    if (!FromSpec) {
      Checks.push_back(skipped(Prefix + "spec", "the validation spec has no op " + Op.Name));
      continue;
    }
    OpRequest R = opLayerOpRequest(Ctx, *FromSpec);
    if (R.Op["cases"].empty()) {
      Checks.push_back(skipped(Prefix + "spec", noCasesBecause(R)));
      continue;
    }
    json Request = requestFor(Ctx, U);
    R.Op["upstream_tolerances"] = upstreamTolerances(*FromSpec);
    Request["ops"] = json::array({R.Op});
    if (Layer == "perf")
      Request["perf"] = perfSettings();
    size_t Count = R.Op["cases"].size();
    Ctx.progress(Layer + ": " + Op.Name + " against " + U.Plan->Namespace + " (" +
                 std::to_string(Count) + " cases)");
    OpHarnessRun Run =
        runOpHarness(*Ctx.Harness, Layer, Request, Count, Ctx.Options.TimeoutSeconds);
    std::vector<CheckResult> Cases = opLayerChecks(Run, Prefix, opLayerSpecFile(Ctx), R.Op);
    if (Layer == "diff" && Run.Fatal.empty()) // a load failure compared nothing
      explain(Cases, Causes);
    for (CheckResult &C : Cases)
      Checks.push_back(std::move(C));
  }
  return Checks;
}

/// The layer from its checks; without a GPU a layer whose static checks
/// all passed is skipped, saying so.
LayerResult settle(const std::string &Layer, std::vector<CheckResult> Checks, bool HaveGpu) {
  LayerResult L = settleLayer(Layer, std::move(Checks));
  if (HaveGpu || L.State == Status::Fail)
    return L;
  L.State = Status::Skip;
  L.Reason = std::string(NoGpuReason) +
             " (the upstream build and the checks without a GPU ran: " + L.Reason + ")";
  return L;
}

} // namespace

LayerResult runUpstreamLayer(LayerContext &Ctx, const std::string &Layer, bool HaveGpu) {
  if (Ctx.Options.Source.empty())
    return skippedLayer(Layer, "no upstream tree: give the tree the domain was migrated from");
  if (!Ctx.Built)
    return skippedLayer(Layer, "nothing was built: " + Ctx.NotBuiltBecause);
  const UpstreamBuilt &U = upstreamBuild(Ctx);
  std::vector<CheckResult> Checks = prefixed(U.Checks, Layer);
  if (U.Library.empty())
    return settleLayer(Layer, std::move(Checks));
  if (Layer == "perf") {
    Checks.push_back(buildFlagsCheck(U));
    Checks.push_back(launchBoundsCheck(Ctx, U));
  }
  if (!Ctx.Harness) {
    Checks.push_back(skipped(Layer + "-harness", Ctx.HarnessUnavailable));
    return settle(Layer, std::move(Checks), false);
  }
  if (Layer == "diff")
    for (CheckResult &C : registrationChecks(Ctx, U))
      Checks.push_back(std::move(C));
  if (HaveGpu)
    for (CheckResult &C : perOpChecks(Ctx, U, Layer))
      Checks.push_back(std::move(C));
  return settle(Layer, std::move(Checks), HaveGpu);
}

} // namespace opmig::validate
