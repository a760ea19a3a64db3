// findSuppressions: `opmig: allow(ids) reason` comments in any file.
#include "FuzzSupport.h"
#include "opmig/audit/Suppressions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  for (const opmig::audit::Suppression &S : opmig::audit::findSuppressions(Text, "file.py"))
    if (S.Line == 0)
      std::abort();
  return 0;
}
