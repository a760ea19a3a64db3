//===- SymbolClosureTest.cpp - Tests for the closure over merged facts ----===//
//
// Facts are built by hand (no parsing): USRs are short readable strings,
// files live under a fictitious `/src` root.
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/SymbolClosure.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::analyze;

namespace {

using Names = std::set<std::string>;

const std::string Root = "/src";

/// Hand-built facts with short helpers for the common shapes.
class ProgramBuilder {
public:
  /// Defines `Usr` in `File`, referencing `Refs`.
  SymbolFact &define(const std::string &Usr, const std::string &File, Names Refs = {}) {
    SymbolFact &Sym = Program.Symbols[Usr];
    Sym.Name = Usr;
    Sym.File = File;
    Sym.Line = 1;
    Sym.IsDefinition = true;
    Sym.Refs = std::move(Refs);
    return Sym;
  }
  /// Declares `Usr` in `File` without a definition.
  SymbolFact &declare(const std::string &Usr, const std::string &File) {
    SymbolFact &Sym = define(Usr, File);
    Sym.IsDefinition = false;
    return Sym;
  }
  void include(const std::string &Includer, const std::string &Resolved) {
    IncludeFact Include;
    Include.Includer = Includer;
    Include.Line = ++Lines[Includer];
    Include.Spelling = Resolved;
    Include.Resolved = Resolved;
    Program.Includes.push_back(Include);
  }
  void instantiate(const std::string &Template, const std::string &Specialization,
                   const std::string &File) {
    Program.Instantiations.push_back({Template, Specialization, File, 1, Specialization});
  }

  SymbolClosure closure(const std::vector<std::string> &Entries,
                        const std::set<std::string> &NoFollow = {}) const {
    return computeClosure(Program, TreeScope{Root, {}}, Entries, NoFollow);
  }

  TUFacts Program;
  std::map<std::string, unsigned> Lines; ///< Last include line per includer.
};

std::vector<std::string> droppedIncludes(const SymbolClosure &Closure, const std::string &TU) {
  std::vector<std::string> Headers;
  for (const IncludeFact &Include : Closure.Files.at(TU).DroppedIncludes)
    Headers.push_back(Include.Resolved);
  return Headers;
}

Names filesOf(const SymbolClosure &Closure) {
  Names Files;
  for (const auto &[File, Need] : Closure.Files)
    Files.insert(File);
  return Files;
}

//===----------------------------------------------------------------------===//
// Symbols
//===----------------------------------------------------------------------===//

TEST(SymbolClosureTest, RefsAreFollowedTransitively) {
  ProgramBuilder P;
  P.define("a", "/src/a.cpp", {"b"});
  P.define("b", "/src/a.cpp", {"c"});
  P.define("c", "/src/c.h");
  SymbolClosure Closure = P.closure({"a"});
  EXPECT_EQ(Closure.Symbols, (Names{"a", "b", "c"}));
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/c.h"}));
  EXPECT_EQ(Closure.Files.at("/src/a.cpp").Defines, (Names{"a", "b"}));
  EXPECT_EQ(Closure.Files.at("/src/c.h").Defines, Names{"c"});
  EXPECT_TRUE(Closure.MissingDefinitions.empty());
}

TEST(SymbolClosureTest, UnrelatedDefinitionsAreExcluded) {
  ProgramBuilder P;
  P.define("a", "/src/a.cpp", {"b"});
  P.define("b", "/src/a.cpp");
  P.define("unused", "/src/a.cpp", {"other"});
  P.define("other", "/src/other.cpp");
  SymbolClosure Closure = P.closure({"a"});
  EXPECT_EQ(Closure.Symbols, (Names{"a", "b"}));
  EXPECT_EQ(filesOf(Closure), Names{"/src/a.cpp"});
}

TEST(SymbolClosureTest, ClassBringsItsMembers) {
  // An out-of-line method lives in another file and nobody calls it: it is
  // still needed once its class is.
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp", {"K"});
  P.define("K", "/src/k.h");
  P.define("K::run", "/src/k.cpp").Parent = "K";
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(Closure.Symbols, (Names{"entry", "K", "K::run"}));
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/k.h", "/src/k.cpp"}));
}

TEST(SymbolClosureTest, MemberBringsItsClass) {
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp", {"K::run"});
  P.define("K", "/src/k.h");
  P.define("K::run", "/src/k.cpp").Parent = "K";
  P.define("K::other", "/src/k.cpp").Parent = "K";
  SymbolClosure Closure = P.closure({"entry"});
  // The class then brings its other members too.
  EXPECT_EQ(Closure.Symbols, (Names{"entry", "K", "K::run", "K::other"}));
}

TEST(SymbolClosureTest, DeclaredOnlySymbolIsMissingDefinition) {
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp", {"undefined"});
  P.declare("undefined", "/src/a.h");
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(Closure.MissingDefinitions, Names{"undefined"});
  EXPECT_EQ(filesOf(Closure), Names{"/src/a.cpp"});
}

TEST(SymbolClosureTest, DeclaredTemplateWithInstantiationIsNotMissing) {
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp", {"tmpl"});
  P.declare("tmpl", "/src/t.h");
  P.instantiate("tmpl", "tmpl<float>", "/src/t_float.cpp");
  EXPECT_TRUE(P.closure({"entry"}).MissingDefinitions.empty());
}

TEST(SymbolClosureTest, CyclesTerminate) {
  ProgramBuilder P;
  P.define("a", "/src/a.h", {"b"});
  P.define("b", "/src/b.h", {"a"});
  P.include("/src/a.h", "/src/b.h");
  P.include("/src/b.h", "/src/a.h");
  SymbolClosure Closure = P.closure({"a"});
  EXPECT_EQ(Closure.Symbols, (Names{"a", "b"}));
  EXPECT_EQ(Closure.Files.at("/src/a.h").IncludedBy, Names{"/src/b.h"});
  EXPECT_EQ(Closure.Files.at("/src/b.h").IncludedBy, Names{"/src/a.h"});
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

TEST(SymbolClosureTest, IncludesOfNeededFilesAreFollowedInsideRoot) {
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp");
  P.include("/src/a.cpp", "/src/h.h");
  P.include("/src/h.h", "/src/g.h");
  P.include("/src/a.cpp", "/usr/include/stdio.h");
  // Shares the root's prefix but is outside it.
  P.include("/src/a.cpp", "/src2/x.h");
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/h.h", "/src/g.h"}));
  EXPECT_EQ(Closure.Files.at("/src/h.h").IncludedBy, Names{"/src/a.cpp"});
  EXPECT_EQ(Closure.Files.at("/src/g.h").IncludedBy, Names{"/src/h.h"});
  EXPECT_TRUE(Closure.Files.at("/src/g.h").Defines.empty());
}

TEST(SymbolClosureTest, IncludesOfUnneededFilesAreNotFollowed) {
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp");
  P.define("other", "/src/other.cpp");
  P.include("/src/other.cpp", "/src/other.h");
  EXPECT_EQ(filesOf(P.closure({"entry"})), Names{"/src/a.cpp"});
}

TEST(SymbolClosureTest, HasIncludeProbesAreNotFollowed) {
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp");
  P.include("/src/a.cpp", "/src/optional.h");
  P.Program.Includes.back().HasIncludeOnly = true;
  EXPECT_EQ(filesOf(P.closure({"entry"})), Names{"/src/a.cpp"});
}

TEST(SymbolClosureTest, NoFollowFilesAreRecordedButNotExpanded) {
  ProgramBuilder P;
  P.define("entry", "/src/reg.cpp");
  P.include("/src/reg.cpp", "/src/h.h");
  P.define("macro:M", "/src/m.h");
  P.Program.FileScopeRefs["/src/reg.cpp"] = {"macro:M"};
  SymbolClosure Closure = P.closure({"entry"}, {"/src/reg.cpp"});
  EXPECT_EQ(filesOf(Closure), Names{"/src/reg.cpp"});
  EXPECT_EQ(Closure.Files.at("/src/reg.cpp").Defines, Names{"entry"});
  EXPECT_EQ(Closure.Symbols, Names{"entry"});
}

TEST(SymbolClosureTest, FileScopeRefsOfNeededFileAreFollowed) {
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp");
  P.define("macro:M", "/src/m.h", {"helper"});
  P.define("helper", "/src/helper.h");
  P.Program.FileScopeRefs["/src/a.cpp"] = {"macro:M"};
  // File-scope uses in a file that is not needed do not count.
  P.Program.FileScopeRefs["/src/unneeded.cpp"] = {"macro:Unused"};
  P.define("macro:Unused", "/src/unused.h");
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(Closure.Symbols, (Names{"entry", "macro:M", "helper"}));
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/m.h", "/src/helper.h"}));
}

//===----------------------------------------------------------------------===//
// Specializations
//===----------------------------------------------------------------------===//

TEST(SymbolClosureTest, OnlyTheRequestedSpecializationsInstantiationFileIsNeeded) {
  ProgramBuilder P;
  SymbolFact &Entry = P.define("entry", "/src/a.cpp", {"tmpl"});
  Entry.Specializations = {{"tmpl<float>", "tmpl"}};
  P.declare("tmpl", "/src/t.h");
  P.instantiate("tmpl", "tmpl<float>", "/src/t_float.cpp");
  P.instantiate("tmpl", "tmpl<double>", "/src/t_double.cpp");
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/t_float.cpp"}));
  EXPECT_EQ(Closure.Files.at("/src/t_float.cpp").Instantiates, Names{"tmpl"});
  EXPECT_TRUE(Closure.UnprovidedTemplates.empty());
}

TEST(SymbolClosureTest, UnprovidedSpecializationLandsInUnprovidedTemplates) {
  ProgramBuilder P;
  SymbolFact &Entry = P.define("entry", "/src/a.cpp", {"tmpl"});
  Entry.Specializations = {{"tmpl<half>", "tmpl"}};
  P.declare("tmpl", "/src/t.h");
  P.instantiate("tmpl", "tmpl<float>", "/src/t_float.cpp");
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(Closure.UnprovidedTemplates, Names{"tmpl"});
  EXPECT_EQ(filesOf(Closure), Names{"/src/a.cpp"});
}

//===----------------------------------------------------------------------===//
// Includes of TUs with siblings
//===----------------------------------------------------------------------===//

/// `a.cpp` defines the entry and a sibling; each uses a header of its own.
ProgramBuilder twoOpTU() {
  ProgramBuilder P;
  P.define("entry", "/src/a.cpp", {"x"});
  P.define("sibling", "/src/a.cpp", {"y"});
  P.define("x", "/src/used.h");
  P.define("y", "/src/sib.h");
  P.include("/src/a.cpp", "/src/used.h");
  P.include("/src/a.cpp", "/src/sib.h");
  return P;
}

TEST(SymbolClosureTest, HeaderOnlyASiblingUsesIsDropped) {
  SymbolClosure Closure = twoOpTU().closure({"entry"});
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/used.h"}));
  EXPECT_EQ(droppedIncludes(Closure, "/src/a.cpp"), std::vector<std::string>{"/src/sib.h"});
  EXPECT_EQ(Closure.Files.at("/src/a.cpp").DroppedIncludes.front().Line, 2u);
}

TEST(SymbolClosureTest, TUWithoutSiblingsKeepsEveryInclude) {
  ProgramBuilder P = twoOpTU();
  SymbolClosure Closure = P.closure({"entry", "sibling"});
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/used.h", "/src/sib.h"}));
  P.include("/src/a.cpp", "/src/unused.h");
  Closure = P.closure({"entry", "sibling"});
  EXPECT_TRUE(Closure.Files.count("/src/unused.h")) << "a TU copied whole keeps its includes";
  EXPECT_TRUE(Closure.Files.at("/src/a.cpp").DroppedIncludes.empty());
}

TEST(SymbolClosureTest, HeaderDeclaringANeededFunctionIsKept) {
  // The function is defined in another TU; the header only declares it.
  ProgramBuilder P = twoOpTU();
  P.Program.Symbols.at("entry").Refs.insert("f");
  P.define("f", "/src/f.cpp").DeclaredIn = {"/src/sib.h", "/src/f.cpp"};
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_TRUE(Closure.Files.count("/src/sib.h"));
  EXPECT_TRUE(Closure.Files.at("/src/a.cpp").DroppedIncludes.empty());
}

TEST(SymbolClosureTest, NeededFileReachedOnlyThroughASiblingHeaderKeepsIt) {
  ProgramBuilder P = twoOpTU();
  P.Program.Symbols.at("entry").Refs.insert("z");
  P.define("z", "/src/common.h");
  P.include("/src/sib.h", "/src/common.h");
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/used.h", "/src/sib.h", "/src/common.h"}));
}

TEST(SymbolClosureTest, NeededFileAlsoReachedThroughAKeptHeaderDropsTheSiblingHeader) {
  ProgramBuilder P = twoOpTU();
  P.Program.Symbols.at("entry").Refs.insert("z");
  P.define("z", "/src/common.h");
  P.include("/src/sib.h", "/src/common.h");
  P.include("/src/used.h", "/src/common.h");
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(filesOf(Closure), (Names{"/src/a.cpp", "/src/used.h", "/src/common.h"}));
  EXPECT_EQ(droppedIncludes(Closure, "/src/a.cpp"), std::vector<std::string>{"/src/sib.h"});
}

TEST(SymbolClosureTest, SiblingHeaderThatAloneBringsAnExternalHeaderIsKept) {
  ProgramBuilder P = twoOpTU();
  P.include("/src/sib.h", "/usr/include/cuda_bf16.h");
  EXPECT_TRUE(P.closure({"entry"}).Files.count("/src/sib.h"));
  // Once the TU or a kept header brings it too, the sibling's header goes.
  P.include("/src/used.h", "/usr/include/cuda_bf16.h");
  EXPECT_FALSE(P.closure({"entry"}).Files.count("/src/sib.h"));
}

TEST(SymbolClosureTest, MacroExpandedAtFileScopeKeepsItsHeader) {
  ProgramBuilder P = twoOpTU();
  P.define("macro:TILE@/src/sib.h:1", "/src/sib.h").Kind = SymbolKind::Macro;
  P.Program.FileScopeRefs["/src/a.cpp"] = {"macro:TILE@/src/sib.h:1"};
  EXPECT_TRUE(P.closure({"entry"}).Files.count("/src/sib.h"));
}

TEST(SymbolClosureTest, EveryDirectiveOfADroppedHeaderIsListed) {
  ProgramBuilder P = twoOpTU();
  P.include("/src/a.cpp", "/src/sib.h"); // again, e.g. in another #if branch
  SymbolClosure Closure = P.closure({"entry"});
  ASSERT_EQ(Closure.Files.at("/src/a.cpp").DroppedIncludes.size(), 2u);
  EXPECT_EQ(Closure.Files.at("/src/a.cpp").DroppedIncludes[1].Line, 3u);
}

} // namespace

//===----------------------------------------------------------------------===//
// Headers with bodies every includer emits
//===----------------------------------------------------------------------===//

/// `ops.h` holds two non-inline wrappers and an inline helper; the entry
/// wrapper and the sibling each reach a header of their own.
ProgramBuilder wrappersInAHeader() {
  ProgramBuilder P;
  P.define("entry", "/src/ops.h", {"x"}).EmittedWhereIncluded = true;
  P.define("sibling", "/src/ops.h", {"y"}).EmittedWhereIncluded = true;
  P.define("helper", "/src/ops.h", {"h"}); // inline: no TU emits it unless used
  P.declare("x", "/src/x.h");
  P.declare("y", "/src/y.h");
  P.declare("h", "/src/h.h");
  P.include("/src/ops.h", "/src/x.h");
  P.include("/src/ops.h", "/src/y.h");
  P.include("/src/ops.h", "/src/h.h");
  return P;
}

TEST(SymbolClosureTest, HeaderWithEmittedBodiesIsSlicedLikeATU) {
  SymbolClosure Closure = wrappersInAHeader().closure({"entry"});
  EXPECT_EQ(filesOf(Closure), (Names{"/src/ops.h", "/src/x.h", "/src/h.h"}));
  EXPECT_EQ(droppedIncludes(Closure, "/src/ops.h"), std::vector<std::string>{"/src/y.h"});
}

TEST(SymbolClosureTest, WhatKeptInlineCodeCallsStaysDeclared) {
  ProgramBuilder P = wrappersInAHeader();
  P.Program.Symbols.at("helper").Refs = {"y"};
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_TRUE(Closure.Files.count("/src/y.h")) << "the inline helper stays, and calls y";
  EXPECT_EQ(droppedIncludes(Closure, "/src/ops.h"), std::vector<std::string>{"/src/h.h"});
}

TEST(SymbolClosureTest, HeaderOfInlineCodeOnlyKeepsEveryInclude) {
  ProgramBuilder P = wrappersInAHeader();
  P.Program.Symbols.at("entry").EmittedWhereIncluded = false;
  P.Program.Symbols.at("sibling").EmittedWhereIncluded = false;
  SymbolClosure Closure = P.closure({"entry"});
  EXPECT_EQ(filesOf(Closure), (Names{"/src/ops.h", "/src/x.h", "/src/y.h", "/src/h.h"}));
}
