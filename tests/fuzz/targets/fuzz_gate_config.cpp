// parseGateConfig and the report paths it yields: `sarif:`/`junit:` from a
// config that a pull request may edit never lead outside the repository.
#include "FuzzSupport.h"
#include "opmig/audit/Gate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<opmig::audit::GateConfig> Config =
      opmig::audit::parseGateConfig(Text, ".opmig.yaml");
  if (!Config) {
    llvm::consumeError(Config.takeError());
    return 0;
  }
  const std::string Root = "/nonexistent-fuzz-root";
  for (const std::string &Path : {Config->Sarif, Config->JUnit}) {
    if (Path.empty())
      continue;
    llvm::Expected<std::string> Report = opmig::audit::reportPathUnderRoot(Root, Path, "sarif");
    if (!Report) {
      llvm::consumeError(Report.takeError());
      continue;
    }
    if (Report->rfind(Root + "/", 0) != 0 || Report->find("/../") != std::string::npos)
      std::abort();
  }
  return 0;
}
