//===- RewriteCasesNamespaces.cpp - Namespace renames, in code and macros --===//
//
// Rows of `RewriteTest` (RewriteFixture.h): the upstream files, what is
// ported and how, then the expected text and issues.
//
//===----------------------------------------------------------------------===//

#include "RewriteFixture.h"

namespace opmig::migrate::test {
namespace {

//===----------------------------------------------------------------------===//
// Namespaces
//===----------------------------------------------------------------------===//

const RewriteCase NamespaceCases[] = {
    {.Name = "NamespaceDefinitionAndClosingComment",
     .Files = {{"ops.h", "#pragma once\n"
                         "namespace sample_ops {\n"
                         "void run();\n"
                         "} // namespace sample_ops\n"}},
     .Port = {"ops.h"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"ops.h", "#pragma once\n"
                          "namespace cache_dit::attn {\n"
                          "void run();\n"
                          "} // namespace cache_dit::attn\n"}}},

    {.Name = "NestedNamespaceDefinitionEditsOnlyTheRenamedPart",
     .Files = {{"ops.h", "namespace sample_ops::detail {\n"
                         "int helper();\n"
                         "}\n"}},
     .Port = {"ops.h"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"ops.h", "namespace cache_dit::attn::detail {\n"
                          "int helper();\n"
                          "}\n"}}},

    {.Name = "QualifiedNamesInExpressionsAndTypes",
     .Files = {{"ops.h", "namespace sample_ops {\n"
                         "struct Config { int n; };\n"
                         "template <typename T> struct Box { T v; };\n"
                         "int run(Config c);\n"
                         "}\n"},
               {"use.cpp", "#include \"ops.h\"\n"
                           "int use() {\n"
                           "  sample_ops::Config c{1};\n"
                           "  sample_ops::Box<sample_ops::Config> b{c};\n"
                           "  return sample_ops::run(b.v) + ::sample_ops::run(c);\n"
                           "}\n"}},
     .Port = {"ops.h", "use.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"use.cpp", "#include \"ops.h\"\n"
                            "int use() {\n"
                            "  cache_dit::attn::Config c{1};\n"
                            "  cache_dit::attn::Box<cache_dit::attn::Config> b{c};\n"
                            "  return cache_dit::attn::run(b.v) + "
                            "::cache_dit::attn::run(c);\n"
                            "}\n"}}},

    {.Name = "OutOfLineDefinition",
     .Files = {{"ops.h", "namespace sample_ops {\n"
                         "struct Config { int n; };\n"
                         "int run(Config c);\n"
                         "}\n"},
               {"ops.cpp", "#include \"ops.h\"\n"
                           "int sample_ops::run(sample_ops::Config c) { return c.n; }\n"}},
     .Port = {"ops.h", "ops.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"ops.cpp",
                 "#include \"ops.h\"\n"
                 "int cache_dit::attn::run(cache_dit::attn::Config c) { return c.n; }\n"}}},

    {.Name = "UsingDeclarationsAndDirectives",
     .Files = {{"ops.h", "namespace sample_ops {\n"
                         "int run();\n"
                         "namespace detail { int step(); }\n"
                         "}\n"},
               {"use.cpp", "#include \"ops.h\"\n"
                           "using sample_ops::run;\n"
                           "using namespace sample_ops::detail;\n"
                           "int use() {\n"
                           "  using namespace sample_ops;\n"
                           "  return run() + step();\n"
                           "}\n"}},
     .Port = {"ops.h", "use.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"use.cpp", "#include \"ops.h\"\n"
                            "using cache_dit::attn::run;\n"
                            "using namespace cache_dit::attn::detail;\n"
                            "int use() {\n"
                            "  using namespace cache_dit::attn;\n"
                            "  return run() + step();\n"
                            "}\n"}}},

    {.Name = "NamespaceAliasTargetFollowsAndItsUsesStay",
     .Files = {{"use.cpp", "namespace sample_ops { int run(); }\n"
                           "namespace so = sample_ops;\n"
                           "int use() { return so::run(); }\n"}},
     .Port = {"use.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"use.cpp", "namespace cache_dit::attn { int run(); }\n"
                            "namespace so = cache_dit::attn;\n"
                            "int use() { return so::run(); }\n"}}},

    {.Name = "ExplicitSpecializationAndInstantiation",
     .Files = {{"traits.h", "namespace sample_ops {\n"
                            "template <typename T> struct Traits { static int size(); };\n"
                            "template <typename T> void fill(T *p) { *p = T(); }\n"
                            "}\n"},
               {"traits.cpp", "#include \"traits.h\"\n"
                              "template <> struct sample_ops::Traits<int> { static int size(); };\n"
                              "template struct sample_ops::Traits<float>;\n"
                              "template void sample_ops::fill<int>(int *);\n"}},
     .Port = {"traits.h", "traits.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"traits.cpp",
                 "#include \"traits.h\"\n"
                 "template <> struct cache_dit::attn::Traits<int> { static int size(); };\n"
                 "template struct cache_dit::attn::Traits<float>;\n"
                 "template void cache_dit::attn::fill<int>(int *);\n"}}},

    {.Name = "FriendAndForwardDeclarations",
     .Files = {{"holder.h", "struct Holder;\n"
                            "namespace sample_ops { struct Impl; void touch(Holder &h); }\n"
                            "struct Holder {\n"
                            "  friend void sample_ops::touch(Holder &h);\n"
                            "  friend struct sample_ops::Impl;\n"
                            "private:\n"
                            "  int secret = 0;\n"
                            "};\n"}},
     .Port = {"holder.h"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"holder.h", "struct Holder;\n"
                             "namespace cache_dit::attn { struct Impl; void touch(Holder &h); }\n"
                             "struct Holder {\n"
                             "  friend void cache_dit::attn::touch(Holder &h);\n"
                             "  friend struct cache_dit::attn::Impl;\n"
                             "private:\n"
                             "  int secret = 0;\n"
                             "};\n"}}},

    {.Name = "RelativeSpellingThatStillResolvesIsKept",
     .Files = {{"ops.h", "namespace sample_ops {\n"
                         "namespace detail { int step(); }\n"
                         "inline int run() { return detail::step(); }\n"
                         "}\n"}},
     .Port = {"ops.h"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"ops.h", "namespace cache_dit::attn {\n"
                          "namespace detail { int step(); }\n"
                          "inline int run() { return detail::step(); }\n"
                          "}\n"}}},

    // The inner namespace moves out of the outer one: its piecewise opening
    // cannot say so, which blocks.
    {.Name = "LongestRenameWins",
     .Files = {{"ops.h",
                "namespace sample_ops {\n"
                "namespace detail { int step(); }\n"
                "int run();\n"
                "}\n"
                "inline int use() { return sample_ops::run() + sample_ops::detail::step(); }\n"}},
     .Port = {"ops.h"},
     .Renames = {{"sample_ops", "cache_dit::attn"}, {"sample_ops::detail", "cache_dit::impl"}},
     .Expect =
         {{"ops.h",
           "namespace cache_dit::attn {\n"
           "namespace detail { int step(); }\n"
           "int run();\n"
           "}\n"
           "inline int use() { return cache_dit::attn::run() + cache_dit::impl::step(); }\n"}},
     .Issues = "ops.h:2: error: namespace `sample_ops::detail` is opened inside "
               "`sample_ops`, which becomes `cache_dit::attn`: its rename to "
               "`cache_dit::impl` cannot be written here; open it as `namespace "
               "sample_ops::detail {` upstream or rename `sample_ops` too "
               "[rename-unsupported]\n"},

    {.Name = "NamespaceOpenedInPiecesBlocks",
     .Files = {{"ab.h", "namespace a {\n"
                        "namespace b {\n"
                        "int f();\n"
                        "}\n"
                        "}\n"}},
     .Port = {"ab.h"},
     .Renames = {{"a::b", "c::d"}},
     .Expect = {{"ab.h", "namespace a {\n"
                         "namespace b {\n"
                         "int f();\n"
                         "}\n"
                         "}\n"}},
     .Issues = "ab.h:2: error: namespace `a::b` is opened inside `a`, which becomes `a`: "
               "its rename to `c::d` cannot be written here; open it as `namespace a::b {` "
               "upstream or rename `a` too [rename-unsupported]\n"},
};

INSTANTIATE_TEST_SUITE_P(Namespaces, RewriteTest, ::testing::ValuesIn(NamespaceCases),
                         RewriteCaseName());

//===----------------------------------------------------------------------===//
// Macros
//===----------------------------------------------------------------------===//

const RewriteCase MacroCases[] = {
    {.Name = "NameInMacroArgumentIsRewrittenWhereWritten",
     .Files = {{"use.cpp", "namespace sample_ops { bool ok(int x); }\n"
                           "#define CHECK(cond) ((cond) ? 0 : 1)\n"
                           "int use(int x) { return CHECK(sample_ops::ok(x)); }\n"}},
     .Port = {"use.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"use.cpp", "namespace cache_dit::attn { bool ok(int x); }\n"
                            "#define CHECK(cond) ((cond) ? 0 : 1)\n"
                            "int use(int x) { return CHECK(cache_dit::attn::ok(x)); }\n"}}},

    {.Name = "NameInMacroBodyIsRewrittenOnceInTheDefine",
     .Files = {{"use.cpp", "namespace sample_ops { int run(int x); }\n"
                           "#define CALL(x) sample_ops::run(x)\n"
                           "int a() { return CALL(1); }\n"
                           "int b() { return CALL(2); }\n"}},
     .Port = {"use.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"use.cpp", "namespace cache_dit::attn { int run(int x); }\n"
                            "#define CALL(x) cache_dit::attn::run(x)\n"
                            "int a() { return CALL(1); }\n"
                            "int b() { return CALL(2); }\n"}}},

    {.Name = "NameMadeByTokenPastingBlocks",
     .Files = {{"use.cpp", "namespace sample_ops { int run(); }\n"
                           "#define NS(x) sample_##x\n"
                           "int use() {\n"
                           "  return NS(ops)::run();\n"
                           "}\n"}},
     .Port = {"use.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"use.cpp", "namespace cache_dit::attn { int run(); }\n"
                            "#define NS(x) sample_##x\n"
                            "int use() {\n"
                            "  return NS(ops)::run();\n"
                            "}\n"}},
     .Issues = "use.cpp:4: error: a namespace name here is made by token pasting (`##`) in "
               "a macro and cannot be rewritten [rename-unsupported]\n"},

    {.Name = "StringizedNameBlocks",
     .Files = {{"use.cpp", "namespace sample_ops { int run(); }\n"
                           "#define NAME(x) #x\n"
                           "const char *name() { return NAME(sample_ops::run); }\n"}},
     .Port = {"use.cpp"},
     .Renames = SampleOpsToAttn,
     .Issues = "use.cpp:3: error: `sample_ops` is left as written: no reference Clang "
               "resolved covers it (a stringized or pasted macro argument, or a use the "
               "parses did not see as a namespace) [name-left-as-written]\n"},

    {.Name = "NameInDisabledBranchIsReportedWithoutBlocking",
     .Files = {{"use.cpp", "namespace sample_ops { int run(); int legacy(); }\n"
                           "int use() {\n"
                           "#if USE_LEGACY\n"
                           "  return sample_ops::legacy();\n"
                           "#else\n"
                           "  return sample_ops::run();\n"
                           "#endif\n"
                           "}\n"}},
     .Port = {"use.cpp"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"use.cpp", "namespace cache_dit::attn { int run(); int legacy(); }\n"
                            "int use() {\n"
                            "#if USE_LEGACY\n"
                            "  return sample_ops::legacy();\n"
                            "#else\n"
                            "  return cache_dit::attn::run();\n"
                            "#endif\n"
                            "}\n"}},
     .Issues = "use.cpp:4: warning: `sample_ops` is left as written: it is in an `#if` "
               "branch no parse entered; rewrite it by hand if that branch is built "
               "[name-left-as-written]\n"},

    {.Name = "NameInUnexpandedMacroIsReportedWithoutBlocking",
     .Files = {{"use.h", "namespace sample_ops { int run(); }\n"
                         "#define UNUSED_CALL() sample_ops::run()\n"}},
     .Port = {"use.h"},
     .Renames = SampleOpsToAttn,
     .Issues = "use.h:2: warning: `sample_ops` is left as written: it is in a macro no "
               "parse expanded; rewrite it by hand if the macro is used "
               "[name-left-as-written]\n"},

    {.Name = "DeviceOnlyCodeIsRenamed",
     .Files = {{"k.cu", "namespace sample_ops {\n"
                        "__device__ inline int lane() { return 0; }\n"
                        "}\n"
                        "__global__ void kernel(int *out) {\n"
                        "#ifdef __CUDA_ARCH__\n"
                        "  *out = sample_ops::lane();\n"
                        "#endif\n"
                        "}\n"}},
     .Port = {"k.cu"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"k.cu", "namespace cache_dit::attn {\n"
                         "__device__ inline int lane() { return 0; }\n"
                         "}\n"
                         "__global__ void kernel(int *out) {\n"
                         "#ifdef __CUDA_ARCH__\n"
                         "  *out = cache_dit::attn::lane();\n"
                         "#endif\n"
                         "}\n"}}},

    {.Name = "ConflictingRewritesOfOneMacroBodyBlock",
     .Files = {{"use.cpp", "namespace a { namespace detail { int f(); } }\n"
                           "namespace b { namespace detail { int f(); } }\n"
                           "#define DETAIL_F() detail::f()\n"
                           "namespace a { int g() { return DETAIL_F(); } }\n"
                           "namespace b { int g() { return DETAIL_F(); } }\n"}},
     .Port = {"use.cpp"},
     .Renames = {{"a::detail", "p"}, {"b::detail", "q"}},
     .Expect = {{"use.cpp", "namespace a { namespace detail { int f(); } }\n"
                            "namespace b { namespace detail { int f(); } }\n"
                            "#define DETAIL_F() p::f()\n"
                            "namespace a { int g() { return DETAIL_F(); } }\n"
                            "namespace b { int g() { return DETAIL_F(); } }\n"}},
     .Issues = "use.cpp:1: error: namespace `a::detail` is opened inside `a`, which "
               "becomes `a`: its rename to `p` cannot be written here; open it as "
               "`namespace a::detail {` upstream or rename `a` too [rename-unsupported]\n"
               "use.cpp:2: error: namespace `b::detail` is opened inside `b`, which "
               "becomes `b`: its rename to `q` cannot be written here; open it as "
               "`namespace b::detail {` upstream or rename `b` too [rename-unsupported]\n"
               "use.cpp:3: error: conflicting edits of the same text: `p` (namespace "
               "rename) and `q` (namespace rename) [edit-conflict]\n"},

    {.Name = "NamespaceDefinitionMadeByTokenPastingBlocks",
     .Files = {{"use.h", "#define OPEN_NS(x) namespace sample_##x {\n"
                         "OPEN_NS(ops)\n"
                         "int run();\n"
                         "}\n"}},
     .Port = {"use.h"},
     .Renames = SampleOpsToAttn,
     .Issues = "use.h:2: error: a namespace name here is made by token pasting (`##`) in a "
               "macro and cannot be rewritten [rename-unsupported]\n"},

    {.Name = "LeftoverScanSkipsCommentsStringsMembersAndIncludeNames",
     .Files = {{"$OUTSIDE/include/sample_ops/api.h", "#pragma once\n"},
               {"use.cpp", "#include <sample_ops/api.h>\n"
                           "namespace sample_ops { int run(); } // sample_ops\n"
                           "struct Names { const char *sample_ops = \"sample_ops::run\"; };\n"
                           "const char *name(Names n) { return n.sample_ops; }\n"}},
     .Port = {"use.cpp"},
     .Renames = SampleOpsToAttn,
     .ExtraArgs = {"-isystem", "$OUTSIDE/include"},
     .Expect = {{"use.cpp", "#include <sample_ops/api.h>\n"
                            "namespace cache_dit::attn { int run(); } // cache_dit::attn\n"
                            "struct Names { const char *sample_ops = \"sample_ops::run\"; };\n"
                            "const char *name(Names n) { return n.sample_ops; }\n"}}},
};

INSTANTIATE_TEST_SUITE_P(Macros, RewriteTest, ::testing::ValuesIn(MacroCases), RewriteCaseName());

} // namespace
} // namespace opmig::migrate::test
