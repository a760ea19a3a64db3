//===- FindingFingerprints.cpp - Identities that survive edits ------------===//

#include "opmig/support/FindingFingerprints.h"

#include "opmig/support/Hashing.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <numeric>
#include <tuple>

namespace opmig {

void assignFingerprints(std::vector<Finding> &Findings, FingerprintAnchor Anchor) {
  std::vector<size_t> Order(Findings.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(Order, [&](size_t A, size_t B) {
    const Finding &L = Findings[A], &R = Findings[B];
    return std::tie(L.File, L.Line, L.Column, L.Id) < std::tie(R.File, R.Line, R.Column, R.Id);
  });
  std::map<std::tuple<std::string, std::string, std::string>, unsigned> Seen;
  for (size_t I : Order) {
    Finding &F = Findings[I];
    std::string Text = Anchor(F);
    unsigned Occurrence = Seen[{F.Id, F.File, Text}]++;
    // NUL cannot occur in ids or paths, so the parts cannot run together.
    std::string Key = F.Id;
    for (const std::string &Part : {F.File, Text, std::to_string(Occurrence)})
      Key += std::string(1, '\0') + Part;
    F.Fingerprint = sha256Hex(Key).substr(0, 16);
  }
}

std::string messageAnchor(const Finding &F) { return F.Message; }

} // namespace opmig
