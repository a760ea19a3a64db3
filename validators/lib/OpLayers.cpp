//===- OpLayers.cpp - Layers 3 to 7: api, fake, smoke, parity, boundary ---===//

#include "OpLayers.h"

#include "DomainNames.h"
#include "opmig/support/ValidationSpec.h"
#include "opmig/validate/OpHarness.h"
#include "opmig/validate/OpRequests.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <limits>

namespace opmig::validate {

namespace {

using nlohmann::json;

/// Where the layers read the spec: --spec, else beside the manifest.
std::string specPath(const LayerContext &Ctx) {
  if (!Ctx.Options.SpecFile.empty())
    return Ctx.Options.SpecFile;
  llvm::StringRef Dir = llvm::sys::path::parent_path(Ctx.ManifestPath);
  return Ctx.Root + "/" + (Dir.empty() ? "" : Dir.str() + "/") + ValidationSpecFileName;
}

/// The spec's path for findings: root-relative when it is inside the target.
std::string relativeSpecPath(const LayerContext &Ctx) {
  std::string Path = specPath(Ctx);
  llvm::StringRef Relative(Path);
  if (Relative.consume_front(Ctx.Root + "/"))
    return Relative.str();
  return Path;
}

json baseRequest(const LayerContext &Ctx) {
  return {{"load", loadRequest(Ctx)},
          {"namespace", opNamespace(Ctx)},
          {"device", "cuda"},
          {"reference_paths",
           {llvm::sys::path::parent_path(specPath(Ctx)).str(), Ctx.Root, Ctx.Root + "/src"}}};
}

/// `File` (root-relative) is what a failure's finding points at.
CheckResult fromOutcome(const std::string &Name, const CaseOutcome &Outcome,
                        const std::string &File) {
  CheckResult Check;
  if (Outcome.State == Status::Fail)
    Check = failed(Name, Outcome.Detail, File);
  else
    Check = Outcome.State == Status::Pass ? passed(Name, Outcome.Detail)
                                          : skipped(Name, Outcome.Detail);
  Check.Figures = Outcome.Figures;
  return Check;
}

/// The origin of each case of `Op` that the spec did not give, by name.
std::map<std::string, std::string> originsOf(const json &Op) {
  std::map<std::string, std::string> Origins;
  for (const char *Key : {"cases", "bad_cases"})
    if (Op.contains(Key))
      for (const json &Case : Op[Key])
        if (Case.contains("origin"))
          Origins[Case["name"].get<std::string>()] = Case["origin"].get<std::string>();
  return Origins;
}

/// The checks of one harness run; a run that never got to its cases is one
/// failing check. A case the spec did not give says where it came from.
std::vector<CheckResult> checksOf(const OpHarnessRun &Run, const std::string &Prefix,
                                  const std::string &File, const json &Op) {
  if (!Run.Fatal.empty())
    return {failed(Prefix + "load", Run.Fatal, File)};
  std::map<std::string, std::string> Origins = originsOf(Op);
  std::vector<CheckResult> Checks;
  for (const CaseOutcome &Outcome : Run.Cases) {
    CheckResult Check = fromOutcome(Prefix + Outcome.Name, Outcome, File);
    if (auto It = Origins.find(Outcome.Name); It != Origins.end()) {
      Check.Reason += " (" + It->second + ")";
      for (Finding &F : Check.Findings)
        F.Message += " (" + It->second + ")";
      Check.Figures["origin"] = It->second;
    }
    Checks.push_back(std::move(Check));
  }
  return Checks;
}

/// The op's request, with the upstream tests' cases when `--source` gave
/// them; says in the report's notes where cases the spec lacks came from.
OpRequest requestFor(const LayerContext &Ctx, const SpecOp &Op) {
  CasesFromTests FromTests;
  if (Ctx.Tests)
    if (auto It = Ctx.Tests->Ops.find(Op.Name); It != Ctx.Tests->Ops.end())
      FromTests = casesFromTests(Op, It->second, Ctx.Tests->Files);
  OpRequest R = opRequest(Op, FromTests.Cases);
  R.FromTests = FromTests.Summary;
  if (!FromTests.Summary.empty())
    Ctx.note(Op.Name + ": upstream tests: " + FromTests.Summary +
             (R.CasesFrom.empty() ? " (not used: the spec gives cases)" : ""));
  if (!R.CasesFrom.empty())
    Ctx.note(Op.Name + ": " + R.CasesFrom);
  return R;
}

/// The spec's op, or the manifest's schema alone when there is no spec.
std::vector<json> requestOps(const LayerContext &Ctx, const ValidationSpec *Spec) {
  std::vector<json> Ops;
  for (const ManifestOp &Op : Ctx.M.Ops) {
    const SpecOp *FromSpec = Spec ? Spec->op(Op.Name) : nullptr;
    if (FromSpec) {
      Ops.push_back(opRequest(*FromSpec).Op);
      continue;
    }
    Ops.push_back({{"name", Op.Name},
                   {"schema", Op.Schema},
                   {"inputs", json::array()},
                   {"outputs", json::array()},
                   {"cases", json::array()}});
  }
  return Ops;
}

/// The Python surface a profile promises (the api request's `python_api`):
/// cache-dit's domain module with its public names, re-exported by
/// `cache_dit.kernels`; veomni's op package with its patch function and
/// pointers, re-exported by `veomni.ops`, each pointer bound to a function
/// that calls the op through torch.ops.
json pythonApi(const LayerContext &Ctx) {
  std::vector<std::string> Ops = opNames(Ctx.M);
  if (Ctx.Profile == "cache-dit") {
    CacheDitNames Names = cacheDitNames(Ctx);
    std::vector<std::string> Public = {Ctx.M.Domain + "_extension_is_available",
                                       Ctx.M.Domain + "_get_load_error"};
    llvm::append_range(Public, Ops);
    return {{"module", Names.DomainModule},
            {"package_module", Names.KernelsModule},
            {"public", Public},
            {"reexports", Ops}};
  }
  VeomniNames Names = veomniNames(Ctx);
  std::vector<std::string> Public = {"apply_veomni_" + Ctx.M.Domain + "_patch"};
  llvm::append_range(Public, Ops);
  json Wrappers = json::object();
  for (const std::string &Op : Ops)
    Wrappers[Op] = "_" + Op;
  return {{"module", Names.DomainModule},
          {"package_module", Names.PackageModule},
          {"public", Public},
          {"reexports", Ops},
          {"wrappers", Wrappers}};
}

LayerResult runApi(const LayerContext &Ctx, const HarnessEnvironment &Env,
                   const ValidationSpec *Spec) {
  json Request = baseRequest(Ctx);
  Request["ops"] = requestOps(Ctx, Spec);
  std::string File = Ctx.ManifestPath;
  if (Ctx.Profile == "cache-dit" || Ctx.Profile == "veomni") {
    Request["python_api"] = pythonApi(Ctx);
    // Every domain of these profiles registers its ops in the one namespace.
    Request["shared_namespace"] = true;
    File = Ctx.Profile == "cache-dit" ? cacheDitNames(Ctx).DomainFile : veomniNames(Ctx).DomainFile;
  }
  Ctx.progress("api: the " + opNamespace(Ctx) + " ops as registered");
  OpHarnessRun Run = runOpHarness(Env, "api", Request, std::numeric_limits<size_t>::max(),
                                  Ctx.Options.TimeoutSeconds);
  return settleLayer("api", checksOf(Run, "", File, json::object()));
}

/// Why `Layer` cannot run `Op` from `R`; empty when it can.
std::string notRunnableBecause(const std::string &Layer, const OpRequest &R) {
  if (R.Op["cases"].empty())
    return noCasesBecause(R);
  if (Layer == "parity" && R.Op["reference"].is_null())
    return "the spec gives no Python reference (fill `reference`)";
  return "";
}

/// The fake layer's bad cases: those about shapes, which the fake must
/// reject where the kernel does; that needs the kernel, so without a GPU
/// none, and one skipped check saying so.
void keepFakeBadCases(const LayerContext &Ctx, OpRequest &R, const std::string &Prefix,
                      std::vector<CheckResult> &Checks) {
  json Shapes = json::array();
  for (const json &Bad : R.Op["bad_cases"])
    if (isShapeKind(Bad.value("kind", std::string())))
      Shapes.push_back(Bad);
  if (!Ctx.HaveGpu && !Shapes.empty()) {
    Checks.push_back(
        skipped(Prefix + "bad-shapes",
                "whether the fake rejects the " + std::to_string(Shapes.size()) +
                    " bad shape(s) the kernel rejects needs the kernel: " + "no CUDA device here"));
    Shapes = json::array();
  }
  R.Op["bad_cases"] = std::move(Shapes);
}

LayerResult runPerOp(const LayerContext &Ctx, const HarnessEnvironment &Env,
                     const ValidationSpec &Spec, const std::string &Layer) {
  std::vector<CheckResult> Checks;
  for (const ManifestOp &Op : Ctx.M.Ops) {
    std::string Prefix = Layer + ":" + Op.Name + "/";
    const SpecOp *FromSpec = Spec.op(Op.Name);
    if (!FromSpec) {
      Checks.push_back(skipped(Prefix + "spec", "the validation spec has no op " + Op.Name));
      continue;
    }
    OpRequest R = requestFor(Ctx, *FromSpec);
    if (std::string Why = notRunnableBecause(Layer, R); !Why.empty()) {
      Checks.push_back(skipped(Prefix + "spec", Why));
      continue;
    }
    if (Layer == "fake")
      keepFakeBadCases(Ctx, R, Prefix, Checks);
    json Request = baseRequest(Ctx);
    size_t Count = R.Op["cases"].size();
    if (Layer == "boundary" || Layer == "fake")
      Count += R.Op["bad_cases"].size();
    Request["ops"] = json::array({R.Op});
    Ctx.progress(Layer + ": " + Op.Name + " (" + std::to_string(Count) + " cases)");
    OpHarnessRun Run = runOpHarness(Env, Layer, Request, Count, Ctx.Options.TimeoutSeconds);
    for (CheckResult &Check : checksOf(Run, Prefix, relativeSpecPath(Ctx), R.Op))
      Checks.push_back(std::move(Check));
  }
  return settleLayer(Layer, std::move(Checks));
}

} // namespace

LayerResult runOpLayer(const LayerContext &Ctx, const std::string &Layer) {
  if (!Ctx.Built)
    return skippedLayer(Layer, "nothing was built: " + Ctx.NotBuiltBecause);
  if (!Ctx.Harness)
    return skippedLayer(Layer, Ctx.HarnessUnavailable);
  std::string Path = specPath(Ctx);
  std::optional<ValidationSpec> Spec;
  if (llvm::sys::fs::exists(Path)) {
    llvm::Expected<ValidationSpec> Read = readValidationSpec(Path);
    if (!Read)
      return settleLayer(Layer, {failed(Layer + "-spec", llvm::toString(Read.takeError()))});
    Spec = std::move(*Read);
  }
  if (Layer == "api")
    return runApi(Ctx, *Ctx.Harness, Spec ? &*Spec : nullptr);
  if (!Spec)
    return skippedLayer(Layer, "no validation spec at " + Path +
                                   ": migrate writes one (docs/validation-spec.md)");
  return runPerOp(Ctx, *Ctx.Harness, *Spec, Layer);
}

std::string opLayerSpecPath(const LayerContext &Ctx) { return specPath(Ctx); }

std::string opLayerSpecFile(const LayerContext &Ctx) { return relativeSpecPath(Ctx); }

nlohmann::json opLayerRequest(const LayerContext &Ctx) { return baseRequest(Ctx); }

std::vector<CheckResult> opLayerChecks(const OpHarnessRun &Run, const std::string &Prefix,
                                       const std::string &File, const nlohmann::json &Op) {
  return checksOf(Run, Prefix, File, Op);
}

OpRequest opLayerOpRequest(const LayerContext &Ctx, const SpecOp &Op) {
  return requestFor(Ctx, Op);
}

std::string noCasesBecause(const OpRequest &R) {
  std::string Why =
      "the spec gives no cases and none could be generated from the code (fill: " + R.Missing + ")";
  if (!R.FromTests.empty())
    Why += "; upstream tests: " + R.FromTests;
  return Why;
}

} // namespace opmig::validate
