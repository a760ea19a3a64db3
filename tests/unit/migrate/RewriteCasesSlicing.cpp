//===- RewriteCasesSlicing.cpp - Slicing, registration, provenance ---------===//
//
// Rows of `RewriteTest` (RewriteFixture.h): the upstream files, what is
// ported and how, then the expected text and issues.
//
//===----------------------------------------------------------------------===//

#include "RewriteFixture.h"

namespace opmig::migrate::test {
namespace {

//===----------------------------------------------------------------------===//
// Slicing, registration, provenance
//===----------------------------------------------------------------------===//

const RewriteCase SlicingCases[] = {
    {.Name = "SiblingDroppedWithItsCommentRestByteIdentical",
     .Files = {{"ops.h", "#pragma once\n"},
               {"binding.cpp", "// Forward and backward of the op.\n"
                               "#include \"ops.h\"\n"
                               "\n"
                               "// Forward: needed.\n"
                               "int fwd(int x) {\n"
                               "  return x  +  1; // odd spacing kept\n"
                               "}\n"
                               "\n"
                               "// Backward: a sibling.\n"
                               "// Two comment lines.\n"
                               "template <typename T>\n"
                               "T bwd(T g) { return g; }\n"
                               "\n"
                               "int tail() { return 2; }\n"}},
     .Port = {"ops.h", "binding.cpp"},
     .DropDefinitions = {{"binding.cpp", "bwd", 12}},
     .Expect = {{"binding.cpp", "// Forward and backward of the op.\n"
                                "#include \"ops.h\"\n"
                                "\n"
                                "// Forward: needed.\n"
                                "int fwd(int x) {\n"
                                "  return x  +  1; // odd spacing kept\n"
                                "}\n"
                                "\n"
                                "int tail() { return 2; }\n"}},
     .Dropped = {{"binding.cpp", {"bwd"}}}},

    {.Name = "MissingSiblingBlocks",
     .Files = {{"binding.cpp", "int fwd() { return 1; }\n"}},
     .Port = {"binding.cpp"},
     .DropDefinitions = {{"binding.cpp", "bwd", 3}},
     .Issues = "binding.cpp:3: error: definition `bwd` to leave out was found by no parse "
               "[definition-to-leave-out-not-found]\n"},

    {.Name = "TorchLibraryBlocksAreDropped",
     .Files = {{"ops.h", "#pragma once\nint fwd(int x);\n"},
               {"bindings.cpp", "// Registers the ops.\n"
                                "#include <torch/library.h>\n"
                                "\n"
                                "#include \"ops.h\"\n"
                                "\n"
                                "TORCH_LIBRARY(sample_ops, m) {\n"
                                "  m.def(\"fwd(int x) -> int\");\n"
                                "}\n"
                                "\n"
                                "// CUDA kernels.\n"
                                "TORCH_LIBRARY_IMPL(sample_ops, CUDA, m) {\n"
                                "  m.impl(\"fwd\", &fwd);\n"
                                "}\n"}},
     .Port = {"ops.h", "bindings.cpp"},
     .ExtraArgs = {"-isystem", OPMIG_FIXTURES_DIR "/stubs/include"},
     .Expect = {{"bindings.cpp", "// Registers the ops.\n"
                                 "#include <torch/library.h>\n"
                                 "\n"
                                 "#include \"ops.h\"\n"}},
     .Dropped = {{"bindings.cpp",
                  {"TORCH_LIBRARY_init_sample_ops", "TORCH_LIBRARY_static_init_sample_ops",
                   "TORCH_LIBRARY_IMPL_init_sample_ops_CUDA_0",
                   "TORCH_LIBRARY_IMPL_static_init_sample_ops_CUDA_0"}}}},

    {.Name = "ProvenanceHeaderGoesFirst",
     .Files = {{"ops.h", "#pragma once\nint fwd(int x);\n"}},
     .Port = {"ops.h"},
     .Headers = {{"ops.h", "// Migrated from upstream@abc123: ops.h"}},
     .Expect = {{"ops.h",
                 "// Migrated from upstream@abc123: ops.h\n#pragma once\nint fwd(int x);\n"}}},

    {.Name = "TorchLibraryFragmentDroppedAndWrapSkipsIt",
     .Files = {{"ops.h", "#pragma once\nint fwd(int x);\n"},
               {"bindings.cpp", "#include <torch/library.h>\n"
                                "\n"
                                "#include \"ops.h\"\n"
                                "\n"
                                "// Defined with the registration.\n"
                                "int fwd(int x) { return x; }\n"
                                "\n"
                                "TORCH_LIBRARY_FRAGMENT(sample_ops, m) {\n"
                                "  m.def(\"fwd(int x) -> int\");\n"
                                "}\n"
                                "\n"
                                "TORCH_LIBRARY_IMPL(sample_ops, CUDA, m) {\n"
                                "  m.impl(\"fwd\", &fwd);\n"
                                "}\n"}},
     .Port = {"ops.h", "bindings.cpp"},
     .WrapGlobalInto = "w",
     .ExtraArgs = {"-isystem", OPMIG_FIXTURES_DIR "/stubs/include"},
     .Expect = {{"bindings.cpp", "#include <torch/library.h>\n"
                                 "\n"
                                 "#include \"ops.h\"\n"
                                 "\n"
                                 "namespace w {\n"
                                 "// Defined with the registration.\n"
                                 "int fwd(int x) { return x; }\n"
                                 "} // namespace w\n"}},
     .Dropped = {{"bindings.cpp",
                  {"TORCH_LIBRARY_FRAGMENT_init_sample_ops_0",
                   "TORCH_LIBRARY_FRAGMENT_static_init_sample_ops_0",
                   "TORCH_LIBRARY_IMPL_init_sample_ops_CUDA_1",
                   "TORCH_LIBRARY_IMPL_static_init_sample_ops_CUDA_1"}}}},

    {.Name = "SiblingInAnonymousNamespaceDropped",
     .Files = {{"table.cpp", "namespace sample_ops {\n"
                             "namespace {\n"
                             "int used() { return 1; }\n"
                             "\n"
                             "// Nothing reaches it.\n"
                             "int unused() { return 2; }\n"
                             "} // namespace\n"
                             "int entry() { return used(); }\n"
                             "} // namespace sample_ops\n"}},
     .Port = {"table.cpp"},
     .DropDefinitions = {{"table.cpp", "sample_ops::(anonymous namespace)::unused", 6}},
     .Expect = {{"table.cpp", "namespace sample_ops {\n"
                              "namespace {\n"
                              "int used() { return 1; }\n"
                              "\n"
                              "} // namespace\n"
                              "int entry() { return used(); }\n"
                              "} // namespace sample_ops\n"}}},

    {.Name = "PybindModuleIsDropped",
     .Files = {{"ops.h", "#pragma once\nint fwd(int x);\n"},
               {"module.cpp", "#include <pybind11/pybind11.h>\n"
                              "\n"
                              "#include \"ops.h\"\n"
                              "\n"
                              "int fwd(int x) { return x; }\n"
                              "\n"
                              "PYBIND11_MODULE(_C, m) {\n"
                              "  m.def(\"fwd\", &fwd);\n"
                              "}\n"}},
     .Port = {"ops.h", "module.cpp"},
     .WrapGlobalInto = "w",
     .ExtraArgs = {"-isystem", OPMIG_FIXTURES_DIR "/stubs/include"},
     .Expect = {{"module.cpp", "#include <pybind11/pybind11.h>\n"
                               "\n"
                               "#include \"ops.h\"\n"
                               "\n"
                               "namespace w {\n"
                               "int fwd(int x) { return x; }\n"
                               "} // namespace w\n"}},
     .Dropped = {{"module.cpp", {"pybind11_init__C", "PyInit__C"}}}},

    {.Name = "RegistrationNoParseExpandedBlocks",
     .Files = {{"bindings.cpp", "TORCH_LIBRARY(sample_ops, m) {\n"
                                "  m.def(\"fwd(int x) -> int\");\n"
                                "}\n"}},
     .Port = {"bindings.cpp"},
     .Issues = "bindings.cpp: warning: the host parse reported errors (first: "
               "bindings.cpp:1: unknown type name 'sample_ops'); code Clang could not make "
               "sense of may be missed [parse-errors]\n"
               "bindings.cpp:1: error: `TORCH_LIBRARY` block was expanded by no parse and "
               "stays in the copy [registration-block-unexpanded]\n"},

    {.Name = "HeaderNoTranslationUnitIncludesIsParsedOnItsOwn",
     .Files = {{"main.cpp", "int main() { return 0; }\n"},
               {"lonely.h", "#pragma once\n"
                            "namespace sample_ops { int lonely(); }\n"}},
     .Port = {"main.cpp", "lonely.h"},
     .Renames = SampleOpsToAttn,
     .Expect = {{"lonely.h", "#pragma once\n"
                             "namespace cache_dit::attn { int lonely(); }\n"}}},

    {.Name = "UnportedIncludeInDisabledBranchDoesNotBlock",
     .Files = {{"csrc/legacy.h", "#pragma once\n"},
               {"csrc/op.cpp", "#ifdef LEGACY\n"
                               "#include \"legacy.h\"\n"
                               "#endif\n"}},
     .Port = {"csrc/op.cpp -> attn/op.cpp"},
     .Issues = "csrc/op.cpp:2: warning: includes `csrc/legacy.h`, which is not ported (in "
               "a branch no parse entered) [include-not-ported]\n"},
};

INSTANTIATE_TEST_SUITE_P(Slicing, RewriteTest, ::testing::ValuesIn(SlicingCases),
                         RewriteCaseName());

} // namespace
} // namespace opmig::migrate::test
