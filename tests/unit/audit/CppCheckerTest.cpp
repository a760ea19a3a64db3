//===- CppCheckerTest.cpp - `cpp` rules: macros and namespaces ------------===//

#include "CheckerTestSupport.h"

#include <gtest/gtest.h>

namespace opmig::audit {
namespace {

using test::checkerFor;
using test::makeRule;
using test::runChecker;
using test::startsWith;
using test::TempTree;
using test::validationError;

const char *const KernelFiles = "csrc/kernels/**";

/// Every invocation of `Macros` in `Text` (a file `csrc/x.cpp`) with its
/// argument `Index`: a macro-argument rule that nothing satisfies.
std::string invocations(const std::string &Text, std::vector<std::string> Macros,
                        unsigned Index = 0) {
  TempTree Tree;
  Tree.write("csrc/x.cpp", Text);
  nlohmann::json Match = {{"check", "macro-argument"},
                          {"macro", Macros.front()},
                          {"argument", Index},
                          {"must-match", "^-never-$"}};
  if (Macros.size() > 1)
    Match["macros"] = std::vector<std::string>(Macros.begin() + 1, Macros.end());
  return runChecker(*checkerFor("cpp"), Tree.root(),
                    {makeRule("x-macro", "cpp", {"**"}, Match, "{macro}[{argument}]")});
}

TEST(CppCheckerTest, MacrosAreFoundOutsideCommentsStringsAndDirectives) {
  EXPECT_EQ(invocations("// PYBIND11_MODULE(in_comment, m)\n"
                        "/* PYBIND11_MODULE(in_block, m) */\n"
                        "const char *S = \"PYBIND11_MODULE(in_string, m)\";\n"
                        "const char *R = R\"(PYBIND11_MODULE(in_raw_string, m))\";\n"
                        "#define PYBIND11_MODULE(name, variable) \\\n"
                        "  PYBIND11_MODULE(in_directive, m)\n"
                        "  PYBIND11_MODULE(_C_attn, \\\n"
                        "                  m) {}\n"
                        "PYBIND11_MODULE_X(not_this, m);\n"
                        "auto P = PYBIND11_MODULE;\n"
                        "#if 0\n"
                        "PYBIND11_MODULE(under_if_0, m) {}\n"
                        "#endif\n",
                        {"PYBIND11_MODULE"}),
            "csrc/x.cpp:7:3: x-macro: PYBIND11_MODULE[_C_attn]\n"
            "csrc/x.cpp:12:1: x-macro: PYBIND11_MODULE[under_if_0]\n");
}

TEST(CppCheckerTest, MacroArgumentsSplitAtTopLevelCommasOnly) {
  std::string Text = "TORCH_LIBRARY_IMPL(ns, CUDA, m) { m.impl(\"f\", f(a, (b, c))); }\n"
                     "M(f(a, b), c [1, 2])\n"
                     "M(only)\n";
  EXPECT_EQ(invocations(Text, {"TORCH_LIBRARY_IMPL"}, 1),
            "csrc/x.cpp:1:1: x-macro: TORCH_LIBRARY_IMPL[CUDA]\n");
  // Only parentheses group arguments in the preprocessor; brackets do not.
  // An invocation without the argument is left to the compiler.
  EXPECT_EQ(invocations(Text, {"M"}, 0), "csrc/x.cpp:2:1: x-macro: M[f(a, b)]\n"
                                         "csrc/x.cpp:3:1: x-macro: M[only]\n");
  EXPECT_EQ(invocations(Text, {"M"}, 2), "csrc/x.cpp:2:1: x-macro: M[2]]\n");
}

TEST(CppCheckerTest, MacroOnlyInFiresOutsideTheAllowedFiles) {
  TempTree Tree;
  Tree.write("csrc/kernels/attn/attn.cpp",
             "#include <torch/extension.h>\n"
             "PYBIND11_MODULE(_C_attn, m) { m.def(\"merge\", &f); }\n");
  Tree.write("csrc/kernels/attn/merge_states.cu", "// A second entry point would be wrong:\n"
                                                  "// PYBIND11_MODULE(_C_attn, m)\n"
                                                  "\n"
                                                  "PYBIND11_MODULE(_C_merge, m) {}\n");
  Tree.write("csrc/kernels/svdq/pybind.cpp", "PYBIND11_MODULE(_C_svdquant, m) {}\n");
  Tree.write("tools/pybind.cpp", "PYBIND11_MODULE(_C_tool, m) {}\n");
  Rule R = makeRule("cache-dit-pybind-only-in-binding", "cpp", {KernelFiles},
                    {{"check", "macro-only-in"},
                     {"macro", "PYBIND11_MODULE"},
                     {"allowed", {"csrc/kernels/{dir}/{dir}.cpp", "csrc/kernels/svdq/pybind.cpp"}}},
                    "{macro}({argument}) outside the binding TU of {dir}");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {R}),
            "csrc/kernels/attn/merge_states.cu:4:1: cache-dit-pybind-only-in-binding: "
            "PYBIND11_MODULE(_C_merge) outside the binding TU of attn\n");
}

TEST(CppCheckerTest, MacroUniqueArgumentFiresOnEveryDuplicate) {
  TempTree Tree;
  Tree.write("csrc/kernels/attn/attn.cpp", "PYBIND11_MODULE(_C_attn, m) {}\n");
  Tree.write("csrc/kernels/attn/extra.cpp", "\n\nPYBIND11_MODULE( _C_attn , m) {}\n");
  Tree.write("csrc/kernels/comm/comm_ops.cpp", "PYBIND11_MODULE(_C_comm, m) {}\n");
  Tree.write("csrc/kernels/a/a.cpp", "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n");
  Tree.write("csrc/kernels/b/b.cpp", "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n");
  Rule R = makeRule("cache-dit-one-entry-point", "cpp", {KernelFiles},
                    {{"check", "macro-unique-argument"},
                     {"macro", "PYBIND11_MODULE"},
                     {"argument", 0},
                     {"ignore", {"^TORCH_EXTENSION_NAME$"}}},
                    "second {macro} for {argument}, also at {others}");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {R}),
            "csrc/kernels/attn/attn.cpp:1:1: cache-dit-one-entry-point: second PYBIND11_MODULE "
            "for _C_attn, also at csrc/kernels/attn/extra.cpp:3\n"
            "csrc/kernels/attn/extra.cpp:3:1: cache-dit-one-entry-point: second PYBIND11_MODULE "
            "for _C_attn, also at csrc/kernels/attn/attn.cpp:1\n");
}

TEST(CppCheckerTest, MacroUniqueArgumentWithoutIgnoreComparesEveryArgument) {
  TempTree Tree;
  Tree.write("csrc/kernels/a/a.cpp", "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n");
  Tree.write("csrc/kernels/b/b.cpp", "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n");
  Tree.write("csrc/kernels/c/c.cpp", "PYBIND11_MODULE(_C_c, m) {}\n");
  Rule R = makeRule("x-unique", "cpp", {KernelFiles},
                    {{"check", "macro-unique-argument"}, {"macro", "PYBIND11_MODULE"}},
                    "{argument} twice");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {R}),
            "csrc/kernels/a/a.cpp:1:1: x-unique: TORCH_EXTENSION_NAME twice\n"
            "csrc/kernels/b/b.cpp:1:1: x-unique: TORCH_EXTENSION_NAME twice\n");
}

TEST(CppCheckerTest, MacroArgumentChecksTheListedMacros) {
  TempTree Tree;
  Tree.write("csrc/kernels/attn/attn.cpp",
             "TORCH_LIBRARY(cache_dit_cuda_ops, m) { m.def(\"merge(Tensor x) -> Tensor\"); }\n"
             "TORCH_LIBRARY_IMPL(nunchaku_ops, CUDA, m) { m.impl(\"merge\", &merge); }\n"
             "TORCH_LIBRARY_FRAGMENT(other, m) {}\n"
             "  TORCH_LIBRARY(cache_dit_cuda_ops_v2, m) {}\n");
  Rule R = makeRule("cache-dit-torch-library-namespace", "cpp", {KernelFiles},
                    {{"check", "macro-argument"},
                     {"macro", "TORCH_LIBRARY"},
                     {"macros", {"TORCH_LIBRARY_IMPL"}},
                     {"argument", 0},
                     {"must-match", "^cache_dit_cuda_ops$"}},
                    "{macro} namespace `{argument}` is not cache_dit_cuda_ops");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {R}),
            "csrc/kernels/attn/attn.cpp:2:1: cache-dit-torch-library-namespace: "
            "TORCH_LIBRARY_IMPL namespace `nunchaku_ops` is not cache_dit_cuda_ops\n"
            "csrc/kernels/attn/attn.cpp:4:3: cache-dit-torch-library-namespace: "
            "TORCH_LIBRARY namespace `cache_dit_cuda_ops_v2` is not cache_dit_cuda_ops\n");
}

TEST(CppCheckerTest, MacroRulesOnlyReadTheirFiles) {
  TempTree Tree;
  Tree.write("csrc/kernels/attn/attn.cpp", "TORCH_LIBRARY(wrong, m) {}\n");
  Tree.write("third_party/lib.cpp", "TORCH_LIBRARY(wrong, m) {}\n");
  Tree.write("csrc/kernels/attn/notes.md", "TORCH_LIBRARY(wrong, m)\n");
  Rule R =
      makeRule("x-ns", "cpp", {"**"},
               {{"check", "macro-argument"}, {"macro", "TORCH_LIBRARY"}, {"must-match", "^ok$"}},
               "{argument}");
  R.Exclude = {"third_party/**"};
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {R}),
            "csrc/kernels/attn/attn.cpp:1:1: x-ns: wrong\n");
}

TEST(CppCheckerTest, BindingsFromOwnFamily) {
  TempTree Tree;
  // Declarations: a free function of comm in a header, another in a .cu; a
  // member and a macro invocation at namespace scope declare nothing.
  Tree.write("csrc/kernels/comm/comm_ops.h", "namespace cache_dit::comm {\n"
                                             "at::Tensor quant(const at::Tensor &x);\n"
                                             "struct Runner { void run(); };\n"
                                             "}\n"
                                             "DECLARE_OP(launch)\n");
  Tree.write("csrc/kernels/comm/kernels.cu", "template <typename T>\n"
                                             "__global__ void scale_kernel(T *x) {}\n");
  Tree.write("csrc/kernels/attn/attn.cpp", "PYBIND11_MODULE(_C, m) {\n"
                                           "  m.def(\"quant\", &cache_dit::comm::quant);\n"
                                           "  m.def(\"scale\", scale_kernel<float>);\n"
                                           "  m.def(\"wrapped\", torch::wrap(quant));\n"
                                           "  m.def(\"run\", &Runner::run);\n"
                                           "  m.def(\"launch\", &launch);\n"
                                           "  /* m.def(\"quant\", &quant); */\n"
                                           "  m.def(\"str\", \"&quant\");\n"
                                           "}\n");
  Rule R = makeRule("x-bind", "cpp", {"csrc/kernels/**/*.cpp"},
                    {{"check", "bindings-from-own-family"}, {"root", "csrc/kernels"}},
                    "{dir}: {name} = {function} of {families} ({declared})");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {R}),
            "csrc/kernels/attn/attn.cpp:2:19: x-bind: attn: quant = cache_dit::comm::quant of "
            "comm (csrc/kernels/comm/comm_ops.h:2)\n"
            "csrc/kernels/attn/attn.cpp:4:32: x-bind: attn: wrapped = quant of comm "
            "(csrc/kernels/comm/comm_ops.h:2)\n");
}

Rule namespaceRule() {
  return makeRule("cache-dit-namespace-follows-domain", "cpp", {KernelFiles},
                  {{"check", "namespace-follows-directory"},
                   {"root", "csrc/kernels/"},
                   {"namespace", "cache_dit::{dir}"},
                   {"allow", {"svdq"}}},
                  "{kind} `{name}` is in {actual}, not in {namespace}");
}

TEST(CppCheckerTest, NamespaceFollowsDirectoryOnCuda) {
  TempTree Tree;
  Tree.write("csrc/kernels/attn/merge_states.cu",
             "#include <torch/extension.h>\n"
             "#include <cuda_runtime.h>\n"
             "\n"
             "__global__ void global_kernel(float *out) { out[threadIdx.x] = 0; }\n"
             "torch::Tensor leaked(torch::Tensor x) { return x; }\n"
             "int leaked_variable = 1;\n"
             "namespace {\n"
             "void file_local() {}\n"
             "}\n"
             "namespace cache_dit::attn {\n"
             "namespace {\n"
             "template <typename T> __device__ T helper(T v) { return v; }\n"
             "}\n"
             "__global__ void merge_kernel(float *out) { out[0] = helper(1.0f); }\n"
             "torch::Tensor merge(torch::Tensor x) {\n"
             "  merge_kernel<<<1, 1>>>(x.data_ptr<float>());\n"
             "  return x;\n"
             "}\n"
             "struct Params { int n; };\n"
             "namespace detail { enum class Mode { A, B }; }\n"
             "void declared_in_namespace();\n"
             "} // namespace cache_dit::attn\n"
             "void cache_dit::attn::declared_in_namespace() {}\n"
             "namespace cache_dit::comm { void wrong_domain() {} }\n"
             "extern \"C\" void c_entry() {}\n"
             "extern int declared_only;\n"
             "int prototype_only(int);\n");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {namespaceRule()}),
            "csrc/kernels/attn/merge_states.cu:4:17: cache-dit-namespace-follows-domain: "
            "function `global_kernel` is in the global namespace, not in cache_dit::attn\n"
            "csrc/kernels/attn/merge_states.cu:5:15: cache-dit-namespace-follows-domain: "
            "function `leaked` is in the global namespace, not in cache_dit::attn\n"
            "csrc/kernels/attn/merge_states.cu:6:5: cache-dit-namespace-follows-domain: "
            "variable `leaked_variable` is in the global namespace, not in cache_dit::attn\n"
            "csrc/kernels/attn/merge_states.cu:8:6: cache-dit-namespace-follows-domain: "
            "function `file_local` is in the global namespace (in an anonymous namespace), "
            "not in cache_dit::attn\n"
            "csrc/kernels/attn/merge_states.cu:24:34: cache-dit-namespace-follows-domain: "
            "function `wrong_domain` is in namespace cache_dit::comm, not in cache_dit::attn\n"
            "csrc/kernels/attn/merge_states.cu:25:17: cache-dit-namespace-follows-domain: "
            "function `c_entry` is in the global namespace, not in cache_dit::attn\n");
}

TEST(CppCheckerTest, NamespaceFollowsDirectoryReadsHeadersUnderTheRoot) {
  // The instantiation macro lives in a header included relative to the
  // rule's root: read, it makes an explicit instantiation. The same line
  // whose header is not found reads as a global variable.
  TempTree Tree;
  Tree.write("csrc/kernels/attn/kernel.cuh",
             "namespace cache_dit::attn {\n"
             "using half_t = float;\n"
             "template <typename T> void launch(T *x) {}\n"
             "}\n"
             "#define INSTANTIATE(T) template void cache_dit::attn::launch<T>(T *);\n");
  Tree.write("csrc/kernels/attn/kernel_half.cu", "#include \"attn/kernel.cuh\"\n"
                                                 "INSTANTIATE(cache_dit::attn::half_t)\n");
  Tree.write("csrc/kernels/attn/kernel_missing.cu", "#include \"elsewhere/kernel.cuh\"\n"
                                                    "INSTANTIATE(half_t)\n");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {namespaceRule()}),
            "csrc/kernels/attn/kernel_missing.cu:2:13: cache-dit-namespace-follows-domain: "
            "variable `half_t` is in the global namespace, not in cache_dit::attn\n");
}

TEST(CppCheckerTest, NamespaceFollowsDirectoryIgnoresMacroGeneratedAndSpecializations) {
  TempTree Tree;
  // The binding TU: its macros expand (or, with pybind11 missing, are
  // recovered) at global scope, which is where they must be.
  Tree.write("csrc/kernels/attn/attn.cpp",
             "#include <pybind11/pybind11.h>\n"
             "#include \"attn.h\"\n"
             "PYBIND11_MODULE(_C_attn, m) { m.def(\"merge\", &cache_dit::attn::merge); }\n"
             "TORCH_LIBRARY(cache_dit_cuda_ops, m) { m.def(\"merge(Tensor x) -> Tensor\"); }\n"
             "namespace std { template <> struct hash<cache_dit::attn::Key> {}; }\n"
             "namespace pybind11::detail {\n"
             "template <> struct type_caster<cache_dit::attn::Key> {};\n"
             "}\n");
  Tree.write("csrc/kernels/attn/attn.h", "#pragma once\n"
                                         "namespace cache_dit::attn {\n"
                                         "struct Key {};\n"
                                         "int merge(int);\n"
                                         "}\n"
                                         "inline int header_global() { return 0; }\n");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {namespaceRule()}),
            "csrc/kernels/attn/attn.h:6:12: cache-dit-namespace-follows-domain: "
            "function `header_global` is in the global namespace, not in cache_dit::attn\n");
}

TEST(CppCheckerTest, NamespaceFollowsDirectoryKeepsAllowedPrefixesAndSkipsTheRoot) {
  TempTree Tree;
  Tree.write("csrc/kernels/svdq/core/gemm.cuh",
             "namespace svdq { namespace kernels { template <int N> struct Gemm {}; } }\n"
             "namespace nunchaku { void upstream() {} }\n");
  Tree.write("csrc/kernels/common.h", "inline int shared_helper() { return 1; }\n");
  EXPECT_EQ(runChecker(*checkerFor("cpp"), Tree.root(), {namespaceRule()}),
            "csrc/kernels/svdq/core/gemm.cuh:2:27: cache-dit-namespace-follows-domain: "
            "function `upstream` is in namespace nunchaku, not in cache_dit::svdq\n");
}

TEST(CppCheckerTest, ValidateRejectsBadMatch) {
  auto Error = [](nlohmann::json Match) {
    return validationError(*checkerFor("cpp"), makeRule("x-rule", "cpp", {"**"}, Match, "m"));
  };
  EXPECT_EQ(Error({{"check", "macro-argument"},
                   {"macro", "TORCH_LIBRARY"},
                   {"must-match", "^cache_dit_cuda_ops$"}}),
            "");
  EXPECT_EQ(Error({{"macro", "M"}}),
            "rules/x-rule.yaml:1:1: rule 'x-rule': a cpp rule needs 'check' in match; one of: "
            "bindings-from-own-family, macro-argument, macro-only-in, macro-unique-argument, "
            "namespace-follows-directory");
  EXPECT_EQ(
      Error({{"check", "macro-everywhere"}}),
      "rules/x-rule.yaml:10:3: rule 'x-rule': unknown cpp check 'macro-everywhere'; expected "
      "one of: bindings-from-own-family, macro-argument, macro-only-in, macro-unique-argument, "
      "namespace-follows-directory");
  EXPECT_EQ(Error({{"check", "bindings-from-own-family"}}),
            "rules/x-rule.yaml:10:3: rule 'x-rule': check bindings-from-own-family needs "
            "parameter 'root'");
  // Keys take lines 10, 11, ... in sorted order: check 10, macro 11, musst-match 12.
  EXPECT_EQ(Error({{"check", "macro-argument"}, {"macro", "M"}, {"musst-match", "x"}}),
            "rules/x-rule.yaml:12:3: unknown key 'musst-match' in 'match' of check "
            "macro-argument; did you mean 'must-match'?");
  EXPECT_EQ(Error({{"check", "macro-argument"}, {"macro", "M"}}),
            "rules/x-rule.yaml:10:3: rule 'x-rule': check macro-argument needs parameter "
            "'must-match'");
  // argument 10, check 11, macro 12, must-match 13.
  EXPECT_PRED2(
      startsWith,
      Error({{"check", "macro-argument"}, {"macro", "M"}, {"must-match", "("}, {"argument", 0}}),
      "rules/x-rule.yaml:13:3: rule 'x-rule': bad regex in 'must-match': ");
  EXPECT_EQ(
      Error({{"check", "macro-argument"}, {"macro", "M"}, {"must-match", "x"}, {"argument", -1}}),
      "rules/x-rule.yaml:10:3: rule 'x-rule': parameter 'argument' must be a non-negative "
      "integer");
  EXPECT_EQ(
      Error({{"check", "macro-only-in"}, {"macro", "M"}, {"allowed", "a.cpp"}}),
      "rules/x-rule.yaml:10:3: rule 'x-rule': parameter 'allowed' must be a non-empty list of "
      "strings");
  EXPECT_PRED2(startsWith,
               Error({{"check", "macro-only-in"}, {"macro", "M"}, {"allowed", {"/abs/{dir}.cpp"}}}),
               "rules/x-rule.yaml:10:3: rule 'x-rule': bad glob in 'allowed': ");
  EXPECT_EQ(
      Error({{"check", "namespace-follows-directory"}, {"root", "csrc"}, {"namespace", 3}}),
      "rules/x-rule.yaml:11:3: rule 'x-rule': parameter 'namespace' must be a non-empty string");
}

} // namespace
} // namespace opmig::audit
