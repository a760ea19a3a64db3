//===- HarnessSetup.h - The environment the harnesses run in ----*- C++ -*-===//
//
// The layers after build run Python children that import the user's torch.
// On the GPU machine, extensions crash inside libstdc++'s integer formatting
// when a TORCH_CHECK that formats an integer fails, unless the process
// preloads the system's libstdc++ (docs/user-guide.md, "opmig validate",
// environment). So the children get LD_PRELOAD=<system libstdc++> whenever
// torch still imports with it, which is when it is safe; the report's notes
// say so. An LD_PRELOAD of the user's own leaves the environment alone.
// With OPMIG_VALIDATE_NO_PRELOAD=1 the children run without it, and a case
// that crashes runs once more with it (OpHarness.h): one that then survives
// is reported as the environment's crash, with the workaround.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_HARNESSSETUP_H
#define OPMIG_VALIDATE_LIB_HARNESSSETUP_H

#include "LayerContext.h"

namespace opmig::validate {

/// Sets Ctx.Harness, or Ctx.HarnessUnavailable when torch cannot be
/// imported; adds to `Notes` what the run applied.
void setUpHarness(LayerContext &Ctx, std::vector<std::string> &Notes);

} // namespace opmig::validate

#endif
