//===- EntryResolverTest.cpp - Tests for `--entry NAME` resolution --------===//
//
// Facts are built by hand; the tree only supplies its root, against which
// error messages and locations are made relative.
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/EntryResolver.h"

#include "opmig/support/Errors.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::analyze;

namespace {

using Strings = std::vector<std::string>;

class EntryResolverTest : public ::testing::Test {
protected:
  void SetUp() override { Tree.Root = "/src"; }

  /// Defines function `Name` (USR `Usr`, default `c:@F@Name`) at
  /// `/src/File:Line`.
  SymbolFact &function(const std::string &Name, const std::string &File, unsigned Line,
                       std::string Usr = "") {
    if (Usr.empty())
      Usr = "c:@F@" + Name;
    SymbolFact &Sym = Program.Symbols[Usr];
    Sym.Name = Name;
    Sym.Kind = SymbolKind::Function;
    Sym.File = "/src/" + File;
    Sym.Line = Line;
    Sym.IsDefinition = true;
    return Sym;
  }

  void registration(const std::string &Via, const std::string &Namespace, const std::string &Op,
                    const std::string &FunctionUsr, unsigned Line, const std::string &Schema = "") {
    Program.Registrations.push_back(
        {Via, Namespace, Op, Schema, FunctionUsr, "/src/reg.cpp", Line});
  }

  llvm::Expected<EntryMatch> resolve(const std::string &Name, const Strings &Known = {}) {
    return resolveEntry(Name, Program, Tree, Known);
  }

  /// The message of the InputError `resolve(Name)` must fail with.
  std::string errorFor(const std::string &Name, const Strings &Known = {}) {
    auto Match = resolve(Name, Known);
    if (Match) {
      ADD_FAILURE() << Name << " resolved to " << Match->Entry.Function;
      return "";
    }
    llvm::Error Err = Match.takeError();
    EXPECT_TRUE(Err.isA<opmig::InputError>());
    return llvm::toString(std::move(Err));
  }

  /// The USRs `Name` resolves to; empty (and a failure) on error.
  Strings usrsFor(const std::string &Name) {
    auto Match = resolve(Name);
    if (!Match) {
      ADD_FAILURE() << llvm::toString(Match.takeError());
      return {};
    }
    return Match->Usrs;
  }

  TUFacts Program;
  SourceTree Tree;
};

//===----------------------------------------------------------------------===//
// C++ names
//===----------------------------------------------------------------------===//

TEST_F(EntryResolverTest, ExactQualifiedNameMatches) {
  function("a::b::f", "f.cu", 12);
  auto Match = resolve("a::b::f");
  ASSERT_TRUE(bool(Match)) << llvm::toString(Match.takeError());
  EXPECT_EQ(Match->Usrs, Strings{"c:@F@a::b::f"});
  EXPECT_EQ(Match->Entry.Requested, "a::b::f");
  EXPECT_EQ(Match->Entry.Function, "a::b::f");
  EXPECT_EQ(Match->Entry.Via, "function");
  EXPECT_EQ(Match->Entry.Loc.File, "f.cu");
  EXPECT_EQ(Match->Entry.Loc.Line, 12u);
  EXPECT_TRUE(Match->RegistrationFiles.empty());
}

TEST_F(EntryResolverTest, LeadingScopeOperatorIsIgnored) {
  function("a::f", "f.cu", 1);
  EXPECT_EQ(usrsFor("::a::f"), Strings{"c:@F@a::f"});
}

TEST_F(EntryResolverTest, SuffixMatchesOnScopeBoundaryOnly) {
  function("a::b::f", "f.cu", 1);
  function("a::xb::f", "f.cu", 2);
  EXPECT_EQ(usrsFor("b::f"), Strings{"c:@F@a::b::f"});
}

TEST_F(EntryResolverTest, ExactFullMatchWinsOverLongerNames) {
  function("b::f", "f.cu", 1);
  function("a::b::f", "f.cu", 2);
  EXPECT_EQ(usrsFor("b::f"), Strings{"c:@F@b::f"});
}

TEST_F(EntryResolverTest, SameNameInTwoScopesIsAmbiguous) {
  function("ns_a::launch", "a/launch.cu", 3);
  function("ns_b::launch", "b/launch.cu", 7);
  EXPECT_EQ(errorFor("launch"), "entry 'launch' is ambiguous; pass one of these qualified names:\n"
                                "  ns_a::launch (a/launch.cu:3)\n"
                                "  ns_b::launch (b/launch.cu:7)");
}

TEST_F(EntryResolverTest, LongerIdentifierDoesNotMakeItAmbiguous) {
  function("ns::launch", "a.cu", 3);
  function("ns::launch_extra", "a.cu", 9);
  EXPECT_EQ(usrsFor("launch"), Strings{"c:@F@ns::launch"});
}

TEST_F(EntryResolverTest, OverloadsResolveToAllTheirUsrs) {
  function("ops::add", "add.cu", 3, "c:@N@ops@F@add#I#");
  function("ops::add", "add.cu", 8, "c:@N@ops@F@add#f#");
  EXPECT_EQ(usrsFor("add"), (Strings{"c:@N@ops@F@add#I#", "c:@N@ops@F@add#f#"}));
}

TEST_F(EntryResolverTest, KernelsAndTemplatesAreCandidates) {
  function("k::fill", "k.cu", 1).Kind = SymbolKind::Kernel;
  function("k::copy", "k.cu", 5).Kind = SymbolKind::Template;
  EXPECT_EQ(usrsFor("fill"), Strings{"c:@F@k::fill"});
  EXPECT_EQ(usrsFor("copy"), Strings{"c:@F@k::copy"});
}

TEST_F(EntryResolverTest, DeclarationsAndNonFunctionsAreNotCandidates) {
  function("a::run", "a.cu", 1).IsDefinition = false;
  function("b::run", "b.cu", 1).Kind = SymbolKind::Class;
  function("c::run", "c.cu", 4);
  EXPECT_EQ(usrsFor("run"), Strings{"c:@F@c::run"});
}

//===----------------------------------------------------------------------===//
// Registered ops
//===----------------------------------------------------------------------===//

TEST_F(EntryResolverTest, TorchOpNameResolvesToBoundFunction) {
  function("multi_op::scale_op", "scale/scale_op.cu", 20);
  registration("torch-op", "multi_op", "scale", "", 4);
  registration("torch-op", "multi_op", "scale", "c:@F@multi_op::scale_op", 9);
  for (const std::string Requested : {"scale", "multi_op::scale"}) {
    auto Match = resolve(Requested);
    ASSERT_TRUE(bool(Match)) << llvm::toString(Match.takeError());
    EXPECT_EQ(Match->Usrs, Strings{"c:@F@multi_op::scale_op"});
    EXPECT_EQ(Match->Entry.Requested, Requested);
    EXPECT_EQ(Match->Entry.Function, "multi_op::scale_op");
    EXPECT_EQ(Match->Entry.Via, "torch-op");
    // The entry is located at its definition; the registrations say where
    // it is bound, the schema-only def included.
    EXPECT_EQ(Match->Entry.Loc.File, "scale/scale_op.cu");
    EXPECT_EQ(Match->Entry.Loc.Line, 20u);
    ASSERT_EQ(Match->Entry.RegisteredAt.size(), 2u);
    EXPECT_EQ(Match->Entry.RegisteredAt[0].Line, 4u);
    EXPECT_EQ(Match->Entry.RegisteredAt[1].Line, 9u);
    EXPECT_EQ(Match->RegistrationFiles, std::set<std::string>{"/src/reg.cpp"});
  }
}

TEST_F(EntryResolverTest, TheUpstreamSchemaComesFromTheDefOfTheBoundOp) {
  function("multi_op::scale_op", "scale/scale_op.cu", 20);
  registration("torch-op", "other", "scale", "", 3, "(Tensor x) -> Tensor");
  registration("torch-op", "multi_op", "scale", "", 4, "(Tensor(a!) x, float s) -> ()");
  registration("torch-op", "multi_op", "scale", "c:@F@multi_op::scale_op", 9);
  for (const std::string Requested : {"scale", "multi_op::scale_op"}) {
    auto Match = resolve(Requested);
    ASSERT_TRUE(bool(Match)) << llvm::toString(Match.takeError());
    EXPECT_EQ(Match->Entry.UpstreamSchema, "(Tensor(a!) x, float s) -> ()") << Requested;
    EXPECT_EQ(Match->Entry.UpstreamSchemaAt.File, "reg.cpp");
    EXPECT_EQ(Match->Entry.UpstreamSchemaAt.Line, 4u);
  }
}

TEST_F(EntryResolverTest, APybindBindingHasNoUpstreamSchema) {
  function("gelu_forward", "gelu.cu", 8);
  registration("pybind", "gelu_ext", "gelu", "c:@F@gelu_forward", 8);
  auto Match = resolve("gelu");
  ASSERT_TRUE(bool(Match)) << llvm::toString(Match.takeError());
  EXPECT_EQ(Match->Entry.UpstreamSchema, "");
}

TEST_F(EntryResolverTest, OpInAnotherNamespaceDoesNotMatch) {
  function("multi_op::scale_op", "scale_op.cu", 20);
  registration("torch-op", "multi_op", "scale", "c:@F@multi_op::scale_op", 9);
  EXPECT_EQ(errorFor("other::scale"),
            "entry 'other::scale' names no function or registered op under '/src'; check the "
            "spelling");
}

TEST_F(EntryResolverTest, PybindOpNameResolvesToBoundFunction) {
  function("gelu_forward", "gelu.cu", 5);
  registration("pybind", "gelu_ext", "gelu", "c:@F@gelu_forward", 8);
  auto Match = resolve("gelu");
  ASSERT_TRUE(bool(Match)) << llvm::toString(Match.takeError());
  EXPECT_EQ(Match->Usrs, Strings{"c:@F@gelu_forward"});
  EXPECT_EQ(Match->Entry.Function, "gelu_forward");
  EXPECT_EQ(Match->Entry.Via, "pybind");
  EXPECT_EQ(Match->Entry.Loc.Line, 5u);
  ASSERT_EQ(Match->Entry.RegisteredAt.size(), 1u);
  EXPECT_EQ(Match->Entry.RegisteredAt[0].Line, 8u);
}

TEST_F(EntryResolverTest, DefOnlyOpWithoutBoundFunctionIsInputError) {
  registration("torch-op", "multi_op", "fused", "", 4);
  EXPECT_EQ(errorFor("fused"),
            "op 'fused' is declared at reg.cpp:4 but no registration binds it to a named C++ "
            "function (a lambda?); name the C++ function it calls as the entry");
}

TEST_F(EntryResolverTest, OpBoundToTwoFunctionsIsInputError) {
  function("cpu::scale", "cpu.cpp", 3);
  function("gpu::scale_op", "gpu.cu", 3);
  registration("torch-op", "ops", "scale", "c:@F@cpu::scale", 5);
  registration("torch-op", "ops", "scale", "c:@F@gpu::scale_op", 6);
  EXPECT_EQ(errorFor("ops::scale"),
            "op 'ops::scale' is bound to two functions: cpu::scale and gpu::scale_op "
            "(reg.cpp:6); name the C++ function as the entry instead");
}

//===----------------------------------------------------------------------===//
// Unknown names
//===----------------------------------------------------------------------===//

TEST_F(EntryResolverTest, UnknownNameListsNearestKnownNames) {
  function("ns::unrelated", "a.cu", 1);
  Strings Known = {"shift", "scaled", "scale", "completely_different"};
  EXPECT_EQ(errorFor("ns::scal", Known),
            "entry 'ns::scal' names no function or registered op under '/src'; nearest names: "
            "scale, scaled");
}

TEST_F(EntryResolverTest, UnknownNameWithNothingNearSaysCheckSpelling) {
  EXPECT_EQ(errorFor("zzz", {"completely_different"}),
            "entry 'zzz' names no function or registered op under '/src'; check the spelling");
}

TEST(EntryBaseNameTest, LastScopeComponent) {
  EXPECT_EQ(entryBaseName("a::b::f"), "f");
  EXPECT_EQ(entryBaseName("f"), "f");
  EXPECT_EQ(entryBaseName("::f"), "f");
}

} // namespace
