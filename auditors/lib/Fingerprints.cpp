//===- Fingerprints.cpp - Audit findings anchored on their line's text ----===//
//
// An audit finding is identified by the text of its line (trimmed), which
// survives code moving above it; assignFingerprints does the rest.
//
//===----------------------------------------------------------------------===//

#include "opmig/audit/Audit.h"
#include "opmig/support/FindingFingerprints.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <map>

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
  assignFingerprints(Findings, [&](const Finding &F) { return Table.trimmedLine(F.File, F.Line); });
}

} // namespace opmig::audit
