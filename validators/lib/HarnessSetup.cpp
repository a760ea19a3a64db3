//===- HarnessSetup.cpp - The environment the harnesses run in ------------===//

#include "HarnessSetup.h"

#include "HarnessServer.h"
#include "ImportHarness.h"

#include "llvm/Support/FileSystem.h"

namespace opmig::validate {

namespace {

std::string systemLibstdcxx() {
  for (const char *Path :
       {"/lib/x86_64-linux-gnu/libstdc++.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
        "/lib/aarch64-linux-gnu/libstdc++.so.6", "/usr/lib64/libstdc++.so.6"})
    if (llvm::sys::fs::exists(Path))
      return Path;
  return "";
}

/// The first case with `Overrides` also starts their server, whose torch
/// import the later cases share.
HarnessRun probe(const LayerContext &Ctx, HarnessServers &Servers,
                 const std::vector<std::string> &Overrides) {
  return runHarnessCase(Servers, Ctx.Toolchain.Python, "probe", nlohmann::json::object(),
                        Ctx.Options.TimeoutSeconds, Overrides);
}

} // namespace

void setUpHarness(LayerContext &Ctx, std::vector<std::string> &Notes) {
  if (Ctx.Toolchain.Python.empty()) {
    Ctx.HarnessUnavailable = "no python3 on PATH";
    return;
  }
  HarnessEnvironment Env;
  Env.Python = Ctx.Toolchain.Python;
  Env.Servers = makeHarnessServers();
  std::string Library = systemLibstdcxx();
  std::vector<std::string> Preload = {"LD_PRELOAD=" + Library};
  bool Preloadable =
      !Library.empty() && !isEnvSet("LD_PRELOAD") && probe(Ctx, *Env.Servers, Preload).answered();
  bool Applied = Preloadable && !isEnvSet("OPMIG_VALIDATE_NO_PRELOAD");
  // The children run as probed: a preloaded probe that answered is the one
  // torch import this needs; otherwise torch must import without it.
  if (!Applied) {
    if (HarnessRun Plain = probe(Ctx, *Env.Servers, {}); !Plain.answered()) {
      Ctx.HarnessUnavailable =
          "torch cannot be imported by " + Ctx.Toolchain.Python + ": " + Plain.failure();
      return;
    }
  }
  if (Applied) {
    Env.Overrides = Preload;
    Notes.push_back("the harness runs with LD_PRELOAD=" + Library +
                    " (torch imports with it; without it, extensions built with a newer "
                    "libstdc++ can crash formatting integers in error messages); "
                    "OPMIG_VALIDATE_NO_PRELOAD=1 turns this off");
  } else if (Preloadable) {
    Env.CrashRetry = Preload;
    Notes.push_back(
        "OPMIG_VALIDATE_NO_PRELOAD is set: the harness runs without LD_PRELOAD=" + Library +
        "; a case that crashes runs once more with it, to tell "
        "libstdc++'s crash from the kernel's");
  }
  Ctx.Harness = std::move(Env);
}

} // namespace opmig::validate
