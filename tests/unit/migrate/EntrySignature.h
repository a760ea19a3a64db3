//===- EntrySignature.h - An entry's signature from its source --*- C++ -*-===//
//
// For tests of what migrate derives from an entry's host code: writes the
// source as ops.cpp in a temporary folder, parses it against the stand-in
// torch headers, and derives the signature of its function `f`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TESTS_UNIT_MIGRATE_ENTRYSIGNATURE_H
#define OPMIG_TESTS_UNIT_MIGRATE_ENTRYSIGNATURE_H

#include "opmig/analyze/CompileFlags.h"
#include "opmig/migrate/OpSignature.h"
#include "opmig/support/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace opmig::migrate::test {

/// A temporary upstream root for one test; removed with it.
class EntrySignatureTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Created, Real;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-spec", Created));
    ASSERT_FALSE(llvm::sys::fs::real_path(Created, Real));
    Root = std::string(Real);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  /// The signature of `f` defined in `Text`, as ops.cpp (relative paths in
  /// what it derives are relative to the temporary root).
  OpSignature derive(const std::string &Text) {
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(Root + "/ops.cpp", EC);
      OS << Text;
    }
    const std::string StubsDir = std::string(OPMIG_FIXTURES_DIR) + "/stubs/include";
    SignatureRequest Request;
    Request.SourceRoot = Root;
    analyze::ResolvedEntry Entry;
    Entry.Requested = Entry.Function = "f";
    Entry.Via = "function";
    Entry.Loc.File = "ops.cpp";
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(Text).split(Lines, '\n');
    for (size_t I = 0; I < Lines.size(); ++I)
      if (Lines[I].contains(" f("))
        Entry.Loc.Line = I + 1;
    Request.Entries = {Entry};
    Request.OpNames = {"f"};
    std::vector<std::string> Flags =
        analyze::commonClangFlags(opmig::findToolchain("", {StubsDir}));
    Flags.insert(Flags.end(), {"-std=c++17", "-isystem", StubsDir});
    Request.TUFlags["ops.cpp"] = Flags;
    llvm::Expected<std::vector<OpSignature>> Sigs = deriveSignatures(Request);
    if (!Sigs) {
      ADD_FAILURE() << llvm::toString(Sigs.takeError());
      return {};
    }
    return Sigs->front();
  }

  /// Writes `Text` as `Path` under the root, for `derive`'s source to include.
  void writeTreeFile(const std::string &Path, const std::string &Text) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Root + "/" + Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Root + "/" + Path, EC);
    OS << Text;
  }

  std::string Root;
};

} // namespace opmig::migrate::test

#endif
