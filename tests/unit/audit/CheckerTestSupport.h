//===- CheckerTestSupport.h - Temporary trees and rules for checkers -*- C++ -*-===//
//
// The cpp and python checker tests write a small tree, build Rules directly
// (as the loader would after validation) and compare rendered findings
// (`file:line:col: rule: message`) with the exact expected text.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TESTS_AUDIT_CHECKERTESTSUPPORT_H
#define OPMIG_TESTS_AUDIT_CHECKERTESTSUPPORT_H

#include "opmig/audit/Audit.h"
#include "opmig/audit/Checker.h"
#include "opmig/audit/Repository.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace opmig::audit::test {

/// A fresh directory, removed with everything in it at the end of the test.
class TempTree {
public:
  TempTree() {
    std::error_code EC = llvm::sys::fs::createUniqueDirectory("opmig-checker-test", Path);
    EXPECT_FALSE(EC) << EC.message();
  }
  ~TempTree() { llvm::sys::fs::remove_directories(Path); }
  TempTree(const TempTree &) = delete;
  TempTree &operator=(const TempTree &) = delete;

  std::string root() const { return std::string(Path); }

  void write(const std::string &Relative, const std::string &Text) const {
    llvm::SmallString<256> File(Path);
    llvm::sys::path::append(File, Relative);
    ASSERT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(File)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC) << EC.message();
    OS << Text;
  }

private:
  llvm::SmallString<128> Path;
};

/// The built-in checker of `Kind`.
inline std::unique_ptr<Checker> checkerFor(const std::string &Kind) {
  for (std::unique_ptr<Checker> &C : builtinCheckers())
    if (Kind == C->kind())
      return std::move(C);
  ADD_FAILURE() << "no checker of kind " << Kind;
  return nullptr;
}

/// A rule as the loader builds it; `Match` holds the check and its
/// parameters, which take lines 10, 11, ... of a pretend rule file in key
/// order (nlohmann sorts them).
inline Rule makeRule(const std::string &Id, const std::string &Kind, std::vector<std::string> Files,
                     nlohmann::json Match, const std::string &Message,
                     const std::string &Fix = "") {
  Rule R;
  R.Id = Id;
  R.Kind = Kind;
  R.Profiles = {"any"};
  R.Files = std::move(Files);
  R.Message = Message;
  R.Fix = Fix;
  R.Origin = "rules/" + Id + ".yaml";
  R.Line = 1;
  unsigned Line = 10;
  for (const auto &[Key, Value] : Match.items())
    R.MatchLocations[Key] = {Line++, 3};
  R.Match = std::move(Match);
  return R;
}

/// `file:line:col: rule: message` per finding, sorted, one a line.
inline std::string render(std::vector<Finding> Findings) {
  sortFindings(Findings);
  std::string Text;
  for (const Finding &F : Findings)
    Text += F.File + ":" + std::to_string(F.Line) + ":" + std::to_string(F.Column) + ": " + F.Id +
            ": " + F.Message + "\n";
  return Text;
}

/// Runs `C` with `Rules` (validated first) over the tree at `Root`; the
/// rendered findings, or the error's text prefixed by `error: `.
inline std::string runChecker(const Checker &C, const std::string &Root,
                              const std::vector<Rule> &Rules) {
  std::vector<const Rule *> Pointers;
  for (const Rule &R : Rules) {
    if (llvm::Error E = C.validate(R))
      return "error: " + llvm::toString(std::move(E));
    Pointers.push_back(&R);
  }
  llvm::Expected<Repository> Repo = Repository::open(Root);
  if (!Repo)
    return "error: " + llvm::toString(Repo.takeError());
  std::vector<Finding> Findings;
  if (llvm::Error E = C.check(*Repo, Pointers, Findings))
    return "error: " + llvm::toString(std::move(E));
  return render(std::move(Findings));
}

/// The validation error of `R`, or "" when it validates.
inline std::string validationError(const Checker &C, const Rule &R) {
  llvm::Error E = C.validate(R);
  return E ? llvm::toString(std::move(E)) : "";
}

/// For EXPECT_PRED2: whether `Text` starts with `Prefix` (for messages that
/// end in a third-party parser's wording).
inline bool startsWith(const std::string &Text, const std::string &Prefix) {
  return llvm::StringRef(Text).starts_with(Prefix);
}

} // namespace opmig::audit::test

#endif
