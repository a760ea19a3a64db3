// Entries defined in a TU with no header declaring them, read as text for
// the upstream registration (validators/include/opmig/validate/EntryDefinition.h).

#include "opmig/validate/EntryDefinition.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

EntryDefinition found(llvm::StringRef Function, llvm::StringRef Text) {
  llvm::Expected<std::optional<EntryDefinition>> D =
      findEntryDefinition(Function, Text, "csrc/binding.cpp");
  EXPECT_TRUE(bool(D)) << llvm::toString(D.takeError());
  if (!D || !*D)
    return {};
  return **D;
}

std::string error(llvm::StringRef Function, llvm::StringRef Text) {
  llvm::Expected<std::optional<EntryDefinition>> D =
      findEntryDefinition(Function, Text, "csrc/binding.cpp");
  if (D)
    return "no error";
  return llvm::toString(D.takeError());
}

// A pybind TU: macros with braces, a comment and a string naming the entry,
// a forward declaration and the module's use of it before the definition.
constexpr const char *PybindTU = R"cpp(#include <torch/extension.h>
#include "shift.h"
#if defined(USE_ROCM)
#include "rocm_only.h"
#endif

#define CHECK_RANK(x, n) do { TORCH_CHECK(x.dim() == n, "rank"); } while (0)
#define DISPATCH(T, ...) \
  if (T == at::kHalf) { __VA_ARGS__(); } else { AT_ERROR("shift_rows(") ; }

// shift_rows(x) is declared below; this comment is no definition: shift_rows(int) {
void shift_rows(const at::Tensor &src, at::Tensor &dst);

static const char *Doc = "shift_rows(const at::Tensor &) { }";

void
shift_rows(const at::Tensor &src,
           at::Tensor &dst,   // written
           const c10::optional<at::Tensor> &scale_ = c10::nullopt,
           int64_t shift = (1 << 2), bool wrap = true) {
  CHECK_RANK(src, 2);
  if (wrap) { shift_rows_impl(src, dst); }
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("shift_rows", &shift_rows, "shift_rows(src, dst)");
}
)cpp";

TEST(EntryDefinitionTest, APybindTUsGlobalFunctionWithDefaultsDropped) {
  EntryDefinition D = found("shift_rows", PybindTU);
  EXPECT_EQ(D.Line, 17u);
  EXPECT_TRUE(D.Namespaces.empty());
  EXPECT_EQ(D.ReturnType, "void");
  EXPECT_EQ(D.Parameters, (std::vector<std::string>{"const at::Tensor &src", "at::Tensor &dst",
                                                    "const c10::optional<at::Tensor> &scale_",
                                                    "int64_t shift", "bool wrap"}));
  EXPECT_EQ(D.declaration(), "void shift_rows(const at::Tensor &src, at::Tensor &dst, const "
                             "c10::optional<at::Tensor> &scale_, int64_t shift, bool wrap);");
  EXPECT_EQ(D.qualifiedName(), "::shift_rows");
  // The conditional include is not the TU's always.
  EXPECT_EQ(D.Includes, (std::vector<std::string>{"torch/extension.h", "shift.h"}));
}

TEST(EntryDefinitionTest, NamespacesNestedOrJoinedAndAManifestsQualifier) {
  constexpr const char *Text =
      "#include <ATen/ATen.h>\n"
      "namespace kern {\nnamespace detail { int helper(int v) { return v; } }\n"
      "inline namespace v2 {\n"
      "std::tuple<at::Tensor, at::Tensor> split_heads(const at::Tensor &qkv,\n"
      "    std::vector<int64_t> sizes = {1, 2}) -> void;\n"
      "std::tuple<at::Tensor, at::Tensor>\nsplit_heads(const at::Tensor &qkv, "
      "std::vector<int64_t> sizes) {\n  return {qkv, qkv};\n}\n}\n}\n"
      "namespace other::deep { void split_heads(int n) {} }\n";
  EntryDefinition D = found("split_heads", Text);
  EXPECT_EQ(D.Namespaces, (std::vector<std::string>{"kern", "v2"}));
  EXPECT_EQ(D.ReturnType, "std::tuple<at::Tensor, at::Tensor>");
  EXPECT_EQ(D.declaration(), "namespace kern::v2 {\nstd::tuple<at::Tensor, at::Tensor> "
                             "split_heads(const at::Tensor &qkv, std::vector<int64_t> sizes);\n}");
  EXPECT_EQ(D.qualifiedName(), "::kern::v2::split_heads");
  // The manifest's qualifier picks the other one.
  EntryDefinition Other = found("other::deep::split_heads", Text);
  EXPECT_EQ(Other.Namespaces, (std::vector<std::string>{"other", "deep"}));
  EXPECT_EQ(Other.Parameters, std::vector<std::string>{"int n"});
}

TEST(EntryDefinitionTest, AnOutOfLineQualifiedDefinitionAndATrailingReturnType) {
  EntryDefinition D =
      found("gather", "namespace ops { at::Tensor gather(const at::Tensor &x); }\n"
                      "at::Tensor ops::gather(const at::Tensor &x) { return x; }\n");
  EXPECT_EQ(D.Namespaces, std::vector<std::string>{"ops"});
  EXPECT_EQ(D.ReturnType, "at::Tensor");
  EXPECT_EQ(D.Line, 2u);
  EntryDefinition T = found("scatter", "auto scatter(at::Tensor x, void *p) -> at::Tensor {\n"
                                       "  return x;\n}\n");
  EXPECT_EQ(T.ReturnType, "at::Tensor");
  EXPECT_EQ(T.Parameters, (std::vector<std::string>{"at::Tensor x", "void *p"}));
}

TEST(EntryDefinitionTest, ADeclarationOrACallIsNoDefinition) {
  llvm::Expected<std::optional<EntryDefinition>> D = findEntryDefinition(
      "roll", "void roll(at::Tensor x);\nint n = roll_count(3);\nvoid f() { roll(x); }\n", "a.cpp");
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_FALSE(D->has_value());
}

TEST(EntryDefinitionTest, WhatAnotherTUCannotCallSaysWhy) {
  EXPECT_EQ(error("roll", "#include <x.h>\nstatic void roll(at::Tensor x) {}\n"),
            "roll is defined `static` (csrc/binding.cpp:2): no other TU can call it, so the "
            "upstream registration cannot; drop `static` upstream, or leave out the diff and "
            "perf layers");
  EXPECT_EQ(error("roll", "namespace {\nvoid roll(at::Tensor x) {}\n}\n"),
            "roll is defined in an anonymous namespace (csrc/binding.cpp:2): no other TU can "
            "call it, so the upstream registration cannot; give it external linkage upstream, "
            "or leave out the diff and perf layers");
  EXPECT_NE(error("roll", "namespace a { namespace { void roll(int n) {} } }").find("anonymous"),
            std::string::npos);
  EXPECT_NE(error("roll", "inline void roll(int n) {}").find("is defined `inline`"),
            std::string::npos);
  EXPECT_NE(error("roll", "template <typename T>\nvoid roll(T n) {}").find("is a template"),
            std::string::npos);
}

TEST(EntryDefinitionTest, ATypeTheTUDeclaresItselfIsNamed) {
  EXPECT_EQ(error("roll", "struct RollArgs { int n; };\n"
                          "void roll(const at::Tensor &x, RollArgs args) {}\n"),
            "the signature of roll (csrc/binding.cpp:2) names the type `RollArgs`, which "
            "csrc/binding.cpp declares itself: the upstream registration TU cannot declare roll "
            "without it; move `RollArgs` to a header the TU includes");
  EXPECT_NE(error("roll", "using Mode = int;\nvoid roll(Mode m) {}\n").find("`Mode`"),
            std::string::npos);
  EXPECT_NE(error("roll", "enum class Axis : int { X };\nvoid roll(Axis a) {}\n").find("`Axis`"),
            std::string::npos);
  // A type from a header (only forward-used here) is fine.
  EntryDefinition D = found("roll", "#include \"args.h\"\nvoid roll(const RollArgs &a) {}\n");
  EXPECT_EQ(D.Parameters, std::vector<std::string>{"const RollArgs &a"});
}

TEST(EntryDefinitionTest, BlankingKeepsLinesAndDropsCommentsStringsDirectives) {
  std::string Code = blankedCode("#define X \\\n  { }\nint a; // {\nconst char *s = \"}\";\n"
                                 "char c = '{'; /* {\n } */ int b;\n");
  EXPECT_EQ(Code.find('{'), std::string::npos) << Code;
  EXPECT_EQ(Code.find('}'), std::string::npos) << Code;
  EXPECT_EQ(std::count(Code.begin(), Code.end(), '\n'), 6);
  EXPECT_NE(Code.find("int b;"), std::string::npos);
}

} // namespace
} // namespace opmig::validate
