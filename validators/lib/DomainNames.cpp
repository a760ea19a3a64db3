//===- DomainNames.cpp - Where a profile puts a migrated domain -----------===//

#include "DomainNames.h"

#include "DomainBuilders.h"

namespace opmig::validate {

CacheDitNames cacheDitNames(const LayerContext &Ctx) {
  const std::string &Domain = Ctx.M.Domain;
  return {Ctx.Root + "/src",
          "cache_dit",
          "cache_dit.kernels",
          "cache_dit.kernels._" + Domain,
          "src/cache_dit/kernels/_" + Domain + ".py",
          "cache_dit._C_" + Domain};
}

VeomniNames veomniNames(const LayerContext &Ctx) {
  const std::string &Domain = Ctx.M.Domain;
  std::string Dir = "veomni/ops/" + Domain;
  return {"veomni.ops",          "veomni.ops." + Domain,
          Dir + "/__init__.py",  "veomni.ops." + Domain + ".cuda_impl",
          Dir + "/cuda_impl.py", Dir + "/csrc"};
}

std::string opNamespace(const LayerContext &Ctx) {
  if (Ctx.Profile == "cache-dit")
    return "cache_dit_cuda_ops";
  if (Ctx.Profile == "veomni")
    return "veomni_ops";
  return "opmig_" + Ctx.M.Domain;
}

std::vector<std::string> opNames(const Manifest &M) {
  std::vector<std::string> Names;
  for (const ManifestOp &Op : M.Ops)
    Names.push_back(Op.Name);
  return Names;
}

nlohmann::json loadRequest(const LayerContext &Ctx) {
  if (Ctx.Profile == "veomni")
    return {{"kind", "jit"},
            {"path", Ctx.Root},
            {"module", veomniNames(Ctx).ImplModule},
            {"extension", Ctx.Built->Plan.Extension.Name},
            {"sources", Ctx.Built->Plan.Extension.Sources},
            {"library", Ctx.Built->Library}};
  if (Ctx.Profile != "cache-dit")
    return {{"kind", "library"}, {"library", Ctx.Built->Library}};
  CacheDitNames Names = cacheDitNames(Ctx);
  return {{"kind", "extension"},          {"path", Names.SourceRoot},
          {"package", Names.Package},     {"build_dir", extensionDir(Ctx.Built->BuildDir)},
          {"extension", Names.Extension}, {"module", Names.DomainModule}};
}

} // namespace opmig::validate
