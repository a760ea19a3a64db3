//===- RuleCatalog.cpp - What the reports say about each finding id -------===//

#include "opmig/report/RuleCatalog.h"

#include "llvm/ADT/STLExtras.h"

namespace opmig::report {

RuleCatalog::RuleCatalog(std::vector<RuleInfo> Ran, llvm::ArrayRef<RuleInfo> Known,
                         const std::vector<Finding> &Findings) {
  for (RuleInfo &Info : Ran)
    add(std::move(Info));
  for (const Finding &F : Findings) {
    if (IndexOf.count(F.Id))
      continue;
    const RuleInfo *Row = llvm::find_if(Known, [&](const RuleInfo &K) { return K.Id == F.Id; });
    add(Row != Known.end() ? *Row : RuleInfo{F.Id, F.Id, F.Id, F.Fix, F.Level, {}});
  }
  llvm::sort(Rules, [](const RuleInfo &A, const RuleInfo &B) { return A.Id < B.Id; });
  for (size_t I = 0; I < Rules.size(); ++I)
    IndexOf[Rules[I].Id] = I;
}

void RuleCatalog::add(RuleInfo Info) {
  if (IndexOf.try_emplace(Info.Id, Rules.size()).second)
    Rules.push_back(std::move(Info));
}

} // namespace opmig::report
