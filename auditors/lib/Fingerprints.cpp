//===- Fingerprints.cpp - Identities of findings that survive edits -------===//
//
// A finding's line number changes whenever code above it moves; its rule,
// file and the text of its line do not. The occurrence index tells apart
// two identical lines in one file (two `def _(...)`), counted in order, so
// it too survives edits elsewhere in the file.
//
//===----------------------------------------------------------------------===//

#include "opmig/audit/Audit.h"
#include "opmig/support/Hashing.h"
#include "opmig/support/Manifest.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <tuple>

namespace opmig::audit {

namespace {

/// Lines of each file, split once.
class LineTable {
public:
  explicit LineTable(const Repository &Repo) : Repo(Repo) {}

  std::string trimmedLine(const std::string &File, unsigned Line) {
    auto [It, Inserted] = Lines.try_emplace(File);
    if (Inserted)
      if (std::optional<std::string> Text = Repo.text(File)) {
        Texts[File] = std::move(*Text);
        llvm::SmallVector<llvm::StringRef, 0> Parts;
        llvm::StringRef(Texts[File]).split(Parts, '\n');
        It->second.assign(Parts.begin(), Parts.end());
      }
    if (Line == 0 || Line > It->second.size())
      return "";
    return It->second[Line - 1].trim().str();
  }

private:
  const Repository &Repo;
  std::map<std::string, std::string> Texts;
  std::map<std::string, std::vector<llvm::StringRef>> Lines;
};

} // namespace

void computeFingerprints(const Repository &Repo, std::vector<Finding> &Findings) {
  LineTable Table(Repo);
  std::vector<size_t> Order(Findings.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  // Occurrences are counted in file/line order whatever order Findings has.
  llvm::stable_sort(Order, [&](size_t A, size_t B) {
    const Finding &L = Findings[A], &R = Findings[B];
    return std::tie(L.File, L.Line, L.Column, L.RuleId) <
           std::tie(R.File, R.Line, R.Column, R.RuleId);
  });
  std::map<std::tuple<std::string, std::string, std::string>, unsigned> Seen;
  for (size_t I : Order) {
    Finding &F = Findings[I];
    std::string Text = Table.trimmedLine(F.File, F.Line);
    unsigned Occurrence = Seen[{F.RuleId, F.File, Text}]++;
    std::string Key = F.RuleId;
    for (const std::string &Part : {F.File, Text, std::to_string(Occurrence)})
      Key += std::string(1, '\0') + Part;
    F.Fingerprint = opmig::sha256Hex(Key).substr(0, 16);
  }
}

} // namespace opmig::audit
