//===- RewriteFixture.h - Fixture and case tables of the rewrite tests ----===//
//
// `SourceRewriterTest` writes a small upstream tree into a fresh temporary
// directory and rewrites it; host C++ (`.cpp`, `.h`) keeps parses in the tens
// of milliseconds, CUDA cases parse `.cu` files hermetically (`-nocudainc`
// plus a stub header outside the tree).
//
// Most cases share one shape, so they are rows of a table: the upstream
// files, what is ported and how, then the expected text of each file and
// the expected issues. `RewriteTest` runs one row; each `RewriteCases*.cpp`
// instantiates it on a section's table:
//
//   {.Name = "NestedNamespaceDefinitionEditsOnlyTheRenamedPart",
//    .Files = {{"ops.h", "namespace sample_ops::detail {\n...}\n"}},
//    .Port = {"ops.h"},
//    .Renames = SampleOpsToAttn,
//    .Expect = {{"ops.h", "namespace cache_dit::attn::detail {\n...}\n"}}},
//
// runs as `Namespaces/RewriteTest.Rewrites/NestedNamespace...`. Every row
// also compares the issues (none unless `.Issues` lists some) and checks
// that each ported file comes out once.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TESTS_UNIT_MIGRATE_REWRITEFIXTURE_H
#define OPMIG_TESTS_UNIT_MIGRATE_REWRITEFIXTURE_H

#include "opmig/migrate/SourceRewriter.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace opmig::migrate::test {

/// A fresh directory under the system's temporary one, as a real path.
std::string makeTempDir(llvm::StringRef Prefix);
/// Writes `Text` to `Path`, creating its parent directories.
void writeFile(const std::string &Path, llvm::StringRef Text);

class SourceRewriterTest : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;

  void write(llvm::StringRef Relative, llvm::StringRef Text);

  /// Flags of a TU: host C++, or hermetic CUDA.
  std::vector<std::string> flagsFor(llvm::StringRef TU) const;

  /// Ports `Files` (upstream -> target); `.cpp`/`.cu` files are TUs.
  RewriteRequest request(std::map<std::string, std::string> Files) const;

  static RewriteResult rewrite(const RewriteRequest &Request);
  static std::string contentOf(const RewriteResult &Result, llvm::StringRef Upstream);
  /// `file:line: blocking|note: message`, one per line.
  static std::string issuesOf(const RewriteResult &Result);

  std::string Root, Outside;
};

/// The rename most cases use.
inline const std::vector<NamespaceRename> SampleOpsToAttn = {{"sample_ops", "cache_dit::attn"}};

/// A definition the request leaves out (`RewriteRequest::DropDefinitions`).
struct DroppedSibling {
  std::string File;
  std::string Name;
  unsigned Line = 0;
};

/// One row of a table: input first, then what is expected. In paths and
/// arguments, `$ROOT` stands for the upstream tree and `$OUTSIDE` for a
/// directory beside it (files there are not part of the tree).
struct RewriteCase {
  const char *Name = "";
  /// The upstream tree: path -> text.
  std::vector<std::pair<std::string, std::string>> Files = {};
  /// Ported files: `"ops.h"` stays in place, `"csrc/op.cpp -> attn/op.cpp"`
  /// moves. `.cpp` and `.cu` files are TUs.
  std::vector<std::string> Port = {};
  std::vector<NamespaceRename> Renames = {};
  std::string WrapGlobalInto = "";
  std::string IncludeRoot = "";
  IncludeStyle Includes = IncludeStyle::RelativeToRoot;
  std::vector<std::string> ExternalDirs = {};
  std::vector<std::string> ExtraArgs = {};
  /// Appended to a TU's flags.
  std::map<std::string, std::vector<std::string>> TUFlags = {};
  std::vector<DroppedSibling> DropDefinitions = {};
  std::map<std::string, std::set<unsigned>> DropIncludeLines = {};
  std::map<std::string, std::string> Headers = {};

  /// Upstream path -> the exact rewritten text; files not listed are not
  /// compared.
  std::vector<std::pair<std::string, std::string>> Expect = {};
  /// All issues, one finding line each (`file:line: error: message [id]`).
  std::string Issues = "";
  /// Upstream path -> `RewrittenFile::DroppedDefinitions`.
  std::map<std::string, std::vector<std::string>> Dropped = {};
};

/// Prints the row's name where gtest shows a parameter.
void PrintTo(const RewriteCase &Case, std::ostream *OS);

class RewriteTest : public SourceRewriterTest, public ::testing::WithParamInterface<RewriteCase> {};

/// Names a row's test after `RewriteCase::Name`.
struct RewriteCaseName {
  std::string operator()(const ::testing::TestParamInfo<RewriteCase> &Info) const {
    return Info.param.Name;
  }
};

} // namespace opmig::migrate::test

#endif // OPMIG_TESTS_UNIT_MIGRATE_REWRITEFIXTURE_H
