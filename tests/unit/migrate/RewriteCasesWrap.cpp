//===- RewriteCasesWrap.cpp - Wrapping global declarations -----------------===//
//
// Rows of `RewriteTest` (RewriteFixture.h): the upstream files, what is
// ported and how, then the expected text and issues.
//
//===----------------------------------------------------------------------===//

#include "RewriteFixture.h"

namespace opmig::migrate::test {
namespace {

//===----------------------------------------------------------------------===//
// Global wrap
//===----------------------------------------------------------------------===//

const RewriteCase GlobalWrapCases[] = {
    {.Name = "GlobalDeclarationsAreWrappedAroundIncludesAndBlocks",
     .Files = {{"util.h", "#pragma once\n"
                          "int helper(int x);\n"},
               {"ops.cpp", "// Header comment.\n"
                           "#include \"util.h\"\n"
                           "\n"
                           "#define TWICE(x) ((x) * 2)\n"
                           "\n"
                           "// Doubles.\n"
                           "int twice(int x) { return TWICE(x); }\n"
                           "int helper(int x) { return ::twice(x); }\n"
                           "\n"
                           "namespace other { int keep(); }\n"
                           "extern \"C\" int c_entry(int x) { return helper(x); }\n"
                           "int main() { return twice(1); }\n"}},
     .Port = {"util.h", "ops.cpp"},
     .WrapGlobalInto = "cache_dit::attn",
     .Expect = {{"util.h", "#pragma once\n"
                           "namespace cache_dit::attn {\n"
                           "int helper(int x);\n"
                           "} // namespace cache_dit::attn\n"},
                {"ops.cpp",
                 "// Header comment.\n"
                 "#include \"util.h\"\n"
                 "\n"
                 "#define TWICE(x) ((x) * 2)\n"
                 "\n"
                 "namespace cache_dit::attn {\n"
                 "// Doubles.\n"
                 "int twice(int x) { return TWICE(x); }\n"
                 "int helper(int x) { return ::cache_dit::attn::twice(x); }\n"
                 "} // namespace cache_dit::attn\n"
                 "\n"
                 "namespace other { int keep(); }\n"
                 "extern \"C\" int c_entry(int x) { return cache_dit::attn::helper(x); }\n"
                 "int main() { return cache_dit::attn::twice(1); }\n"}}},

    {.Name = "WrapRunStopsAtIncludeAndConditional",
     .Files = {{"a.h", "#pragma once\nstruct A {};\n"},
               {"b.h", "#pragma once\nstruct B {};\n"},
               {"ab.cpp", "#include \"a.h\"\n"
                          "A make_a();\n"
                          "#include \"b.h\"\n"
                          "B make_b();\n"
                          "#ifdef EXTRA\n"
                          "int extra();\n"
                          "#endif\n"}},
     .Port = {"a.h", "b.h", "ab.cpp"},
     .WrapGlobalInto = "w",
     .Expect = {{"ab.cpp", "#include \"a.h\"\n"
                           "namespace w {\n"
                           "A make_a();\n"
                           "} // namespace w\n"
                           "#include \"b.h\"\n"
                           "namespace w {\n"
                           "B make_b();\n"
                           "} // namespace w\n"
                           "#ifdef EXTRA\n"
                           "int extra();\n"
                           "#endif\n"}}},

    {.Name = "WrappedEntityIsQualifiedFromOtherNamespaces",
     .Files = {{"mix.cpp", "constexpr int kBlock = 128;\n"
                           "namespace sample_ops { int blocks(int n) { return n / kBlock; } }\n"
                           "namespace other { int blocks(int n) { return n / kBlock; } }\n"}},
     .Port = {"mix.cpp"},
     .Renames = SampleOpsToAttn,
     .WrapGlobalInto = "cache_dit::attn",
     .Expect =
         {{"mix.cpp",
           "namespace cache_dit::attn {\n"
           "constexpr int kBlock = 128;\n"
           "} // namespace cache_dit::attn\n"
           "namespace cache_dit::attn { int blocks(int n) { return n / kBlock; } }\n"
           "namespace other { int blocks(int n) { return n / cache_dit::attn::kBlock; } }\n"}}},

    // `v2` stands for CUDA's global `float2`: its header is not ported.
    {.Name = "OperatorsOnOutsideTypesStayGlobalAndThoseOnWrappedTypesMove",
     .Files = {{"third_party/vec/vec.h", "struct v2 { float x, y; };\n"},
               {"ops.h",
                "#include \"third_party/vec/vec.h\"\n"
                "inline v2 operator*(v2 a, v2 b) { return {a.x * b.x, a.y * b.y}; }\n"
                "template <typename T> T operator+(T a, const T *b) { return a; }\n"
                "constexpr unsigned long long operator\"\"_kb(unsigned long long n) { return n; }\n"
                "struct Acc { float s; };\n"
                "inline Acc operator+(Acc a, const v2 &b) { return {a.s + b.x}; }\n"
                "namespace k { inline v2 sq(v2 a) { return a * a; } }\n"}},
     .Port = {"ops.h"},
     .WrapGlobalInto = "w",
     .ExternalDirs = {"third_party/vec"},
     .Expect =
         {{"ops.h",
           "#include \"third_party/vec/vec.h\"\n"
           "inline v2 operator*(v2 a, v2 b) { return {a.x * b.x, a.y * b.y}; }\n"
           "template <typename T> T operator+(T a, const T *b) { return a; }\n"
           "constexpr unsigned long long operator\"\"_kb(unsigned long long n) { return n; }\n"
           "namespace w {\n"
           "struct Acc { float s; };\n"
           "inline Acc operator+(Acc a, const v2 &b) { return {a.s + b.x}; }\n"
           "} // namespace w\n"
           "namespace k { inline v2 sq(v2 a) { return a * a; } }\n"}}},

    {.Name = "WrappedTypeIsQualifiedFromOtherNamespaces",
     .Files = {{"cfg.h", "struct Cfg { int n; };\n"
                         "namespace other { Cfg make(); }\n"}},
     .Port = {"cfg.h"},
     .WrapGlobalInto = "w",
     .Expect = {{"cfg.h", "namespace w {\n"
                          "struct Cfg { int n; };\n"
                          "} // namespace w\n"
                          "namespace other { w::Cfg make(); }\n"}}},

    {.Name = "ExplicitInstantiationOfWrappedTemplateMovesWithIt",
     .Files = {{"twice.cpp", "struct half { short bits; };\n"
                             "template <typename T> T twice(T x) { return x; }\n"
                             "template half twice<half>(half);\n"
                             "extern template int twice<int>(int);\n"
                             "#include <cstddef>\n"
                             "template long twice<long>(long);\n"}},
     .Port = {"twice.cpp"},
     .WrapGlobalInto = "w",
     .Expect = {{"twice.cpp", "namespace w {\n"
                              "struct half { short bits; };\n"
                              "template <typename T> T twice(T x) { return x; }\n"
                              "template half twice<half>(half);\n"
                              "extern template int twice<int>(int);\n"
                              "} // namespace w\n"
                              "#include <cstddef>\n"
                              "namespace w {\n"
                              "template long twice<long>(long);\n"
                              "} // namespace w\n"}}},

    // Inside `cache_dit::svdq`, `svdq::scale` would name `cache_dit::svdq::scale`.
    {.Name = "TopLevelNamespaceShadowedByTheWrapIsSpelledFromGlobal",
     .Files = {{"scale.cpp", "namespace svdq { inline int scale(int x) { return 2 * x; } }\n"
                             "int run(int x) { return svdq::scale(x); }\n"}},
     .Port = {"scale.cpp"},
     .WrapGlobalInto = "cache_dit::svdq",
     .Expect = {{"scale.cpp", "namespace svdq { inline int scale(int x) { return 2 * x; } }\n"
                              "namespace cache_dit::svdq {\n"
                              "int run(int x) { return ::svdq::scale(x); }\n"
                              "} // namespace cache_dit::svdq\n"}}},

    {.Name = "TemplateParametersOfOutOfLineMembersAreNotWrappedNames",
     .Files =
         {{"rows.cpp",
           "template <typename T, int Block> struct Rows { static int width(); };\n"
           "template <typename T, int Block> int Rows<T, Block>::width() { return Block; }\n"}},
     .Port = {"rows.cpp"},
     .WrapGlobalInto = "w",
     .Expect = {{"rows.cpp",
                 "namespace w {\n"
                 "template <typename T, int Block> struct Rows { static int width(); };\n"
                 "template <typename T, int Block> int Rows<T, Block>::width() { return Block; }\n"
                 "} // namespace w\n"}}},

    // dispatchBool<lambda> is instantiated for the call in run(); Sema hands
    // it over as a top-level declaration of its own.
    {.Name = "ImplicitInstantiationsDoNotSplitTheWrap",
     .Files =
         {{"flag.h",
           "#pragma once\nnamespace tl {\n"
           "template <typename F> void dispatchBool(bool B, F &&Body) {\n"
           "  if (B) Body.template operator()<true>(); else Body.template operator()<false>();\n"
           "}\n}\n"},
          {"run.cpp", "#include \"flag.h\"\n"
                      "int run(bool B) { int R = 0; tl::dispatchBool(B, [&]<bool K>() { R = K; }); "
                      "return R; }\n"}},
     .Port = {"flag.h", "run.cpp"},
     .WrapGlobalInto = "w",
     .Expect = {{"run.cpp",
                 "#include \"flag.h\"\n"
                 "namespace w {\n"
                 "int run(bool B) { int R = 0; tl::dispatchBool(B, [&]<bool K>() { R = K; }); "
                 "return R; }\n"
                 "} // namespace w\n"}}},

    {.Name = "MacroOnlyHeaderIsNotWrapped",
     .Files = {{"macros.h", "#pragma once\n"
                            "#define KBLOCK 128\n"}},
     .Port = {"macros.h"},
     .WrapGlobalInto = "w",
     .Expect = {{"macros.h", "#pragma once\n#define KBLOCK 128\n"}}},
};

INSTANTIATE_TEST_SUITE_P(GlobalWrap, RewriteTest, ::testing::ValuesIn(GlobalWrapCases),
                         RewriteCaseName());

} // namespace
} // namespace opmig::migrate::test
