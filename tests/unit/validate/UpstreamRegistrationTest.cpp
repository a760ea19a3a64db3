// The generated TU that registers the upstream entries under
// `<namespace>_upstream` (validators/include/opmig/validate/UpstreamRegistration.h).

#include "opmig/validate/UpstreamRegistration.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

std::string argument(llvm::StringRef Type) {
  llvm::Expected<std::string> Mapped = dispatcherArgumentType(Type);
  return Mapped ? *Mapped : "error: " + llvm::toString(Mapped.takeError());
}

std::string returned(llvm::StringRef Returns) {
  llvm::Expected<std::string> Mapped = dispatcherReturnType(Returns);
  return Mapped ? *Mapped : "error: " + llvm::toString(Mapped.takeError());
}

TEST(UpstreamRegistrationTest, SchemaTypesAsTheDispatcherPassesThem) {
  EXPECT_EQ(argument("Tensor"), "const at::Tensor &");
  EXPECT_EQ(argument("Tensor(a!)"), "at::Tensor &");
  EXPECT_EQ(argument("Tensor?"), "const std::optional<at::Tensor> &");
  EXPECT_EQ(argument("Tensor[]"), "at::TensorList");
  EXPECT_EQ(argument("Tensor?[]"), "const c10::List<std::optional<at::Tensor>> &");
  EXPECT_EQ(argument("float"), "double");
  EXPECT_EQ(argument("int"), "int64_t");
  EXPECT_EQ(argument("int?"), "std::optional<int64_t>");
  EXPECT_EQ(argument("int[2]"), "at::IntArrayRef");
  EXPECT_EQ(argument("int[]?"), "at::OptionalIntArrayRef");
  EXPECT_EQ(argument("SymInt[]"), "c10::SymIntArrayRef");
  EXPECT_EQ(argument("bool"), "bool");
  EXPECT_EQ(argument("str?"), "std::optional<c10::string_view>");
  EXPECT_EQ(argument("Scalar"), "const at::Scalar &");
  EXPECT_EQ(argument("ScalarType?"), "std::optional<at::ScalarType>");
  EXPECT_EQ(argument("Dimname"), "error: the schema type `Dimname` is not mapped to C++ in this "
                                 "release");
  EXPECT_EQ(returned("()"), "void");
  EXPECT_EQ(returned("Tensor"), "at::Tensor");
  EXPECT_EQ(returned("Tensor(a!)"), "at::Tensor");
  EXPECT_EQ(returned("(Tensor out, Tensor lse)"), "std::tuple<at::Tensor, at::Tensor>");
  EXPECT_EQ(returned("Tensor[]"), "std::vector<at::Tensor>");
  EXPECT_EQ(returned("float"), "double");
}

TEST(UpstreamRegistrationTest, RegistersEachEntryThroughAWrapper) {
  std::vector<UpstreamEntry> Entries = {
      {"scale_add",
       "(Tensor x, Tensor y, float alpha=1.0) -> Tensor",
       "scale_add",
       "/up/csrc/ops.h",
       {},
       ""},
      {"fill", "(Tensor(a!) out, *, int value) -> ()", "vllm::fill", "/up/csrc/ops.h", {}, ""},
      {"fwd",
       "(Tensor x, Tensor? bias, Tensor(a!)? final_states) -> ()",
       "fwd",
       "/up/csrc/ops.h",
       {},
       ""}};
  llvm::Expected<std::string> Source =
      upstreamRegistrationSource(upstreamNamespace("opmig_d"), Entries);
  ASSERT_TRUE(bool(Source)) << llvm::toString(Source.takeError());
  for (const char *Expected :
       {"#include \"/up/csrc/ops.h\"\n\nnamespace {",
        "at::Tensor upstream_scale_add(const at::Tensor &a0, const at::Tensor &a1, double a2) "
        "{\n  return ::scale_add(a0, a1, a2);\n}",
        "void upstream_fill(at::Tensor &a0, int64_t a1) {\n  ::vllm::fill(a0, a1);\n}",
        // A written optional: the entry may take it as a non-const reference.
        "void upstream_fwd(const at::Tensor &a0, const std::optional<at::Tensor> &a1, "
        "const std::optional<at::Tensor> &a2) {\n"
        "  std::optional<at::Tensor> a2_written = a2;\n  ::fwd(a0, a1, a2_written);\n}",
        "TORCH_LIBRARY(opmig_d_upstream, m) {\n"
        "  m.def(\"scale_add(Tensor x, Tensor y, float alpha=1.0) -> Tensor\");\n"
        "  m.def(\"fill(Tensor(a!) out, *, int value) -> ()\");\n"
        "  m.def(\"fwd(Tensor x, Tensor? bias, Tensor(a!)? final_states) -> ()\");\n}",
        "TORCH_LIBRARY_IMPL(opmig_d_upstream, CUDA, m) {\n"
        "  m.impl(\"scale_add\", TORCH_FN(upstream_scale_add));\n"
        "  m.impl(\"fill\", TORCH_FN(upstream_fill));\n"
        "  m.impl(\"fwd\", TORCH_FN(upstream_fwd));\n}"})
    EXPECT_NE(Source->find(Expected), std::string::npos) << Expected << "\nin:\n" << *Source;
  EXPECT_EQ(Source->find("#include \"/up/csrc/ops.h\"", Source->find("ops.h") + 1),
            std::string::npos)
      << "one include per header";
}

TEST(UpstreamRegistrationTest, AnUnmappedTypeNamesItsOp) {
  llvm::Expected<std::string> Source = upstreamRegistrationSource(
      "n_upstream", {{"named", "(Tensor x, Dimname d) -> Tensor", "named", "", {}, ""}});
  ASSERT_FALSE(bool(Source));
  EXPECT_EQ(llvm::toString(Source.takeError()),
            "op named: the schema type `Dimname` is not mapped to C++ in this release");
}

TEST(UpstreamRegistrationTest, FindsTheHeaderThatDeclaresTheEntry) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("upstream-registration", Dir));
  auto Write = [&](const std::string &Name, llvm::StringRef Text) {
    std::string Path = std::string(Dir) + "/" + Name;
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
    return Path;
  };
  std::string Kernels = Write("kernels.cuh", "// calls scale_add(x) in a comment\n"
                                             "#define CALL scale_add(x)\n"
                                             "void other(const at::Tensor &x);\n");
  std::string Helpers = Write("helpers.h", "at::Tensor scale_add(const at::Tensor &x);\n");
  std::string Ops = Write("ops.h", "namespace vllm {\nat::Tensor scale_add(const at::Tensor &x,\n"
                                   "                      double alpha);\n}\n");
  EXPECT_EQ(declaringHeader("vllm::scale_add", {Kernels, Helpers, Ops}), Ops) << "ops.h first";
  EXPECT_EQ(declaringHeader("scale_add", {Kernels, Helpers}), Helpers);
  EXPECT_EQ(declaringHeader("scale_add", {Kernels}), "") << "a macro or a comment declares nothing";
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
} // namespace opmig::validate
