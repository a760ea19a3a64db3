//===- FindingJson.cpp - A finding as a JSON object -----------------------===//

#include "opmig/report/FindingJson.h"

namespace opmig::report {

nlohmann::ordered_json findingJson(const Finding &F) {
  nlohmann::ordered_json Entry = {{"rule", F.Id},
                                  {"severity", toString(F.Level)},
                                  {"file", F.File},
                                  {"line", F.Line},
                                  {"column", F.Column},
                                  {"message", F.Message},
                                  {"fix", F.Fix},
                                  {"fingerprint", F.Fingerprint},
                                  {"state", toString(F.State)}};
  if (F.State == FindingState::Suppressed)
    Entry["reason"] = F.Reason;
  return Entry;
}

} // namespace opmig::report
