// parseValidateReport: the `opmig validate` JSON reports `opmig review
// --validation` and the gate's `review.validation` read.
#include "FuzzSupport.h"
#include "opmig/audit/ValidateReport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  opmig::fuzz::consume(opmig::audit::parseValidateReport(Text, "validate.json"));
  return 0;
}
