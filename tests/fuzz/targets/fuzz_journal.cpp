// inspectInterrupted: the journal of an interrupted migration is read from
// the target and trusted for nothing; inspecting reads only, and a plan it
// accepts names only plain paths inside the target.
#include "FuzzSupport.h"
#include "opmig/migrate/StagedWriter.h"

#include <sys/stat.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Root = opmig::fuzz::scratchDir();
  std::string Staging = Root + "/" + opmig::migrate::StagingDirName;
  mkdir(Staging.c_str(), 0700);
  opmig::fuzz::writeFile(Staging + "/journal.json", Data, Size);
  auto Plan = opmig::migrate::inspectInterrupted(Root);
  if (!Plan) {
    llvm::consumeError(Plan.takeError());
    return 0;
  }
  if (*Plan)
    for (const auto *List : {&(*Plan)->Restored, &(*Plan)->Removed, &(*Plan)->Folders})
      for (const std::string &Path : *List)
        if (!opmig::fuzz::isPlainRelative(Path))
          std::abort();
  return 0;
}
