//===- RewriteCasesIncludes.cpp - Respelling and dropping includes ---------===//
//
// Rows of `RewriteTest` (RewriteFixture.h): the upstream files, what is
// ported and how, then the expected text and issues.
//
//===----------------------------------------------------------------------===//

#include "RewriteFixture.h"

namespace opmig::migrate::test {
namespace {

//===----------------------------------------------------------------------===//
// Includes
//===----------------------------------------------------------------------===//

const RewriteCase IncludeCases[] = {
    {.Name = "IncludeRespelledRelativeToRootFromIncludePathSpelling",
     .Files = {{"csrc/common/checks.h", "#pragma once\n"},
               {"csrc/attention/merge.cpp", "#include \"common/checks.h\"\n"}},
     .Port = {"csrc/common/checks.h -> csrc/kernels/attn/common/checks.h",
              "csrc/attention/merge.cpp -> csrc/kernels/attn/merge.cpp"},
     .IncludeRoot = "csrc/kernels",
     .TUFlags = {{"csrc/attention/merge.cpp", {"-I$ROOT/csrc"}}},
     .Expect = {{"csrc/attention/merge.cpp", "#include \"attn/common/checks.h\"\n"}}},

    {.Name = "IncludeRespelledRelativeToRootFromDotDotSpelling",
     .Files = {{"csrc/common/checks.h", "#pragma once\n"},
               {"csrc/attention/merge.cpp", "#include <../common/checks.h>\n"}},
     .Port = {"csrc/common/checks.h -> csrc/kernels/attn/common/checks.h",
              "csrc/attention/merge.cpp -> csrc/kernels/attn/merge.cpp"},
     .IncludeRoot = "csrc/kernels",
     .TUFlags = {{"csrc/attention/merge.cpp", {"-I$ROOT/csrc/attention"}}},
     .Expect = {{"csrc/attention/merge.cpp", "#include \"attn/common/checks.h\"\n"}}},

    {.Name = "IncludeRespelledRelativeToFileFromBothSpellings",
     .Files = {{"csrc/common/checks.h", "#pragma once\n"},
               {"csrc/common/dispatch.h", "#pragma once\n"},
               {"csrc/attention/merge.cpp", "#include \"../common/checks.h\"\n"
                                            "#include \"common/dispatch.h\"\n"}},
     .Port = {"csrc/common/checks.h -> kernels/attn/common/checks.h",
              "csrc/common/dispatch.h -> kernels/attn/common/dispatch.h",
              "csrc/attention/merge.cpp -> kernels/attn/ops/merge.cpp"},
     .Includes = IncludeStyle::RelativeToFile,
     .TUFlags = {{"csrc/attention/merge.cpp", {"-I$ROOT/csrc"}}},
     .Expect = {{"csrc/attention/merge.cpp", "#include \"../common/checks.h\"\n"
                                             "#include \"../common/dispatch.h\"\n"}}},

    {.Name = "ExternalIncludeKeptAndUnportedTreeIncludeBlocks",
     .Files = {{"$OUTSIDE/include/ext/api.h", "#pragma once\n"},
               {"csrc/left.h", "#pragma once\n"},
               {"csrc/op.cpp", "#include <ext/api.h>\n"
                               "#include \"left.h\"\n"}},
     .Port = {"csrc/op.cpp -> attn/op.cpp"},
     .ExtraArgs = {"-isystem", "$OUTSIDE/include"},
     .Expect = {{"csrc/op.cpp", "#include <ext/api.h>\n"
                                "#include \"left.h\"\n"}},
     .Issues = "csrc/op.cpp:2: error: includes `csrc/left.h`, which is not ported "
               "[include-not-ported]\n"},

    {.Name = "IncludeOfASiblingsHeaderGoesWithTheSibling",
     .Files = {{"csrc/bwd.h", "#pragma once\n"
                              "int bwd_helper(int g);\n"},
               {"csrc/op.cpp", "#include \"bwd.h\"\n"
                               "int fwd(int x) { return x; }\n"
                               "int bwd(int g) { return bwd_helper(g); }\n"
                               "#ifdef BWD_TWICE\n"
                               "#include \"bwd.h\"\n"
                               "#endif\n"}},
     .Port = {"csrc/op.cpp -> attn/op.cpp"},
     .DropDefinitions = {{"csrc/op.cpp", "bwd", 3}},
     // Both directives, the one in a branch no parse entered too.
     .DropIncludeLines = {{"csrc/op.cpp", {1, 5}}},
     .Expect = {{"csrc/op.cpp", "int fwd(int x) { return x; }\n"
                                "#ifdef BWD_TWICE\n"
                                "#endif\n"}}},

    {.Name = "OnlyTheListedIncludeLinesGo",
     .Files = {{"csrc/left.h", "#pragma once\n"},
               {"csrc/op.cpp", "#include \"left.h\"\n"
                               "#include \"left.h\"\n"}},
     .Port = {"csrc/op.cpp -> attn/op.cpp"},
     .DropIncludeLines = {{"csrc/op.cpp", {1}}},
     .Expect = {{"csrc/op.cpp", "#include \"left.h\"\n"}},
     .Issues = "csrc/op.cpp:2: error: includes `csrc/left.h`, which is not ported "
               "[include-not-ported]\n"},

    // The namespace is only opened in the submodule: its members keep their
    // names, and the include stays as written.
    {.Name = "SubmoduleStaysExternal",
     .Files = {{"third_party/fastlib/fast.h", "#pragma once\n"
                                              "namespace sample_ops { int fast(); }\n"},
               {"csrc/op.cpp", "#include \"../third_party/fastlib/fast.h\"\n"
                               "int op() { return sample_ops::fast(); }\n"}},
     .Port = {"csrc/op.cpp"},
     .Renames = SampleOpsToAttn,
     .ExternalDirs = {"third_party/fastlib"},
     .Expect = {{"csrc/op.cpp", "#include \"../third_party/fastlib/fast.h\"\n"
                                "int op() { return sample_ops::fast(); }\n"}}},

    {.Name = "IncludeInDisabledBranchIsRespelled",
     .Files = {{"csrc/common/checks.h", "#pragma once\n"},
               {"csrc/common/legacy.h", "#pragma once\n"},
               {"csrc/op.cpp", "#ifdef LEGACY\n"
                               "#include \"common/legacy.h\"\n"
                               "#else\n"
                               "#include \"common/checks.h\"\n"
                               "#endif\n"}},
     .Port = {"csrc/common/checks.h -> attn/common/checks.h",
              "csrc/common/legacy.h -> attn/common/legacy.h", "csrc/op.cpp -> attn/op.cpp"},
     .TUFlags = {{"csrc/op.cpp", {"-I$ROOT/csrc"}}},
     .Expect = {{"csrc/op.cpp", "#ifdef LEGACY\n"
                                "#include \"attn/common/legacy.h\"\n"
                                "#else\n"
                                "#include \"attn/common/checks.h\"\n"
                                "#endif\n"}}},
};

INSTANTIATE_TEST_SUITE_P(Includes, RewriteTest, ::testing::ValuesIn(IncludeCases),
                         RewriteCaseName());

} // namespace
} // namespace opmig::migrate::test
