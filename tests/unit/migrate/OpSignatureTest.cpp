//===- OpSignatureTest.cpp - Tests for schema and fake derivation ---------===//
//
// Each test writes one hand-written host source (against the stand-in torch
// headers) into a fresh temporary directory, derives the signature of its
// last-defined function and checks one construct. The last tests run the
// analysis on the bundled sample and derive its entries from the result.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/OpSignature.h"

#include "opmig/analyze/Analyzer.h"
#include "opmig/analyze/CompileFlags.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::migrate;

namespace {

const std::string StubsDir = std::string(OPMIG_FIXTURES_DIR) + "/stubs/include";

std::string makeTempDir() {
  llvm::SmallString<128> Created, Real;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-opsig", Created));
  EXPECT_FALSE(llvm::sys::fs::real_path(Created, Real));
  return std::string(Real);
}

/// 1-based line of the first line of `Text` containing `Needle`; 0 (and a
/// failure) when none does.
unsigned lineOf(llvm::StringRef Text, llvm::StringRef Needle) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].contains(Needle))
      return I + 1;
  ADD_FAILURE() << "no line contains " << Needle.str();
  return 0;
}

/// The line defining `Unqualified`: the last unindented line naming it
/// followed by `(`.
unsigned definitionLine(llvm::StringRef Text, llvm::StringRef Unqualified) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  unsigned Found = 0;
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef Line = Lines[I];
    size_t At = Line.find((Unqualified + "(").str());
    bool Named = At == 0 || (At != llvm::StringRef::npos && !llvm::isAlnum(Line[At - 1]) &&
                             Line[At - 1] != '_');
    if (Named && !Line.starts_with(" "))
      Found = I + 1;
  }
  EXPECT_NE(Found, 0u) << "no definition of " << Unqualified.str();
  return Found;
}

class OpSignatureTest : public ::testing::Test {
protected:
  void SetUp() override { Root = makeTempDir(); }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  /// Flags of a host C++ TU against the stand-in headers; the non-empty
  /// torch option skips the probe for an installed torch.
  static std::vector<std::string> flags() {
    std::vector<std::string> Flags =
        analyze::commonClangFlags(opmig::findToolchain("", {StubsDir}));
    Flags.insert(Flags.end(), {"-std=c++17", "-isystem", StubsDir});
    return Flags;
  }

  void write(const std::string &Relative, llvm::StringRef Text) const {
    std::string File = Root + "/" + Relative;
    ASSERT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(File)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC) << File;
    OS << Text;
  }

  SignatureRequest request() const {
    SignatureRequest Request;
    Request.SourceRoot = Root;
    return Request;
  }

  static void addEntry(SignatureRequest &Request, const std::string &File, llvm::StringRef Text,
                       const std::string &Function) {
    analyze::ResolvedEntry Entry;
    Entry.Requested = Function;
    Entry.Function = Function;
    Entry.Via = "function";
    Entry.Loc.File = File;
    llvm::StringRef Unqualified = llvm::StringRef(Function).rsplit("::").second;
    Entry.Loc.Line = definitionLine(Text, Unqualified.empty() ? Function : Unqualified);
    Request.Entries.push_back(Entry);
    Request.OpNames.push_back(Unqualified.empty() ? Function : Unqualified.str());
    Request.TUFlags[File] = flags();
  }

  /// Derives the signature of `Function`, defined in `Text` (saved as
  /// `File`, ops.cpp unless told: ops.cu for CUDA).
  llvm::Expected<std::vector<OpSignature>> deriveAll(llvm::StringRef Text,
                                                     const std::string &Function,
                                                     const std::string &File = "ops.cpp") {
    write(File, Text);
    SignatureRequest Request = request();
    addEntry(Request, File, Text, Function);
    return deriveSignatures(Request);
  }

  OpSignature derive(llvm::StringRef Text, const std::string &Function,
                     const std::string &File = "ops.cpp") {
    llvm::Expected<std::vector<OpSignature>> Sigs = deriveAll(Text, Function, File);
    if (!Sigs) {
      ADD_FAILURE() << llvm::toString(Sigs.takeError());
      return {};
    }
    EXPECT_EQ(Sigs->size(), 1u);
    return Sigs->empty() ? OpSignature{} : Sigs->front();
  }

  /// The message of the InputError that deriving `Function` fails with.
  std::string inputErrorOf(llvm::StringRef Text, const std::string &Function) {
    llvm::Expected<std::vector<OpSignature>> Sigs = deriveAll(Text, Function);
    if (Sigs) {
      ADD_FAILURE() << "derivation of " << Function << " did not fail";
      return "";
    }
    llvm::Error Err = Sigs.takeError();
    EXPECT_TRUE(Err.isA<InputError>());
    return llvm::toString(std::move(Err));
  }

  /// The schema of `f` in `Text` (C++, or CUDA when `File` is ops.cu).
  std::string schemaOf(llvm::StringRef Text, const std::string &File = "ops.cpp") {
    return derive(Text, "f", File).Schema;
  }

  /// The schema of `Function`'s only parameter, with its annotation.
  std::pair<std::string, std::string> paramType(llvm::StringRef Text) {
    OpSignature Sig = derive(Text, "f");
    if (Sig.Params.size() != 1) {
      ADD_FAILURE() << "expected one parameter, got " << Sig.Params.size();
      return {};
    }
    return {Sig.Params[0].SchemaType, Sig.Params[0].PyAnnotation};
  }

  std::string Root;
};

using Type = std::pair<std::string, std::string>;

//===----------------------------------------------------------------------===//
// Parameter types
//===----------------------------------------------------------------------===//

TEST_F(OpSignatureTest, TensorByValueAndByConstReference) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(at::Tensor a, const at::Tensor &b) {}\n",
                           "f");
  ASSERT_EQ(Sig.Params.size(), 2u);
  EXPECT_EQ(Sig.Schema, "(Tensor a, Tensor b) -> ()");
  EXPECT_EQ(Sig.Params[0].CppType, "at::Tensor");
  EXPECT_EQ(Sig.Params[1].CppType, "const at::Tensor &");
  EXPECT_EQ(Sig.Params[1].PyAnnotation, "torch.Tensor");
  EXPECT_TRUE(Sig.Params[1].IsTensor);
  EXPECT_FALSE(Sig.Params[1].Mutable);
}

TEST_F(OpSignatureTest, TorchTensorAliasIsTensor) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(const torch::Tensor &x) {}\n",
                           "f");
  ASSERT_EQ(Sig.Params.size(), 1u);
  EXPECT_EQ(Sig.Params[0].SchemaType, "Tensor");
  EXPECT_EQ(Sig.Params[0].CppType, "const torch::Tensor &");
}

TEST_F(OpSignatureTest, TypedefInsideUpstreamNamespaceIsLookedThrough) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "namespace up {\n"
                           "using Tensor = at::Tensor;\n"
                           "typedef int64_t Index;\n"
                           "void f(const Tensor &x, Index n) {}\n"
                           "} // namespace up\n",
                           "up::f");
  EXPECT_EQ(Sig.Schema, "(Tensor x, int n) -> ()");
  EXPECT_EQ(Sig.CppFunction, "up::f");
  EXPECT_EQ(Sig.OpName, "f");
  // Qualified, so the declaration compiles outside namespace `up`.
  EXPECT_EQ(Sig.CppDeclaration, "void f(const up::Tensor &x, up::Index n)");
}

TEST_F(OpSignatureTest, MutableTensorsGetOneAliasSetEach) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(at::Tensor &out, const at::Tensor &x, at::Tensor &lse) {\n"
                           "  out.copy_(x);\n"
                           "  lse.zero_();\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x, Tensor(b!) lse) -> ()");
  ASSERT_EQ(Sig.Params.size(), 3u);
  EXPECT_TRUE(Sig.Params[0].Mutable);
  EXPECT_TRUE(Sig.Params[0].IsTensor);
  EXPECT_FALSE(Sig.Params[1].Mutable);
  EXPECT_EQ(Sig.Params[2].CppType, "at::Tensor &");
  EXPECT_EQ(Sig.Params[2].PyAnnotation, "torch.Tensor");
}

// fast-hadamard-transform's `at::Tensor &x` with `x = x.reshape(...)`: the
// entry rebinds its own handle, the caller's tensor is untouched.
TEST_F(OpSignatureTest, ANonConstTensorReferenceTheEntryOnlyRebindsIsNoWrite) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(at::Tensor &x, float scale) {\n"
                           "  x = x.reshape({-1, x.size(-1)});\n"
                           "  if (x.stride(-1) != 1) { x = x.contiguous(); }\n"
                           "  return at::empty_like(x);\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor x, float scale) -> Tensor");
  ASSERT_EQ(Sig.Params.size(), 2u);
  EXPECT_FALSE(Sig.Params[0].Mutable);
  EXPECT_EQ(Sig.Params[0].MutableBecause, "");
  // The dispatcher's tensor reaches the reference as the adapter's copy.
  EXPECT_TRUE(Sig.NeedsAdapter);
  EXPECT_EQ(Sig.Params[0].AdapterArg, "x");
  EXPECT_EQ(Sig.BoxedDeclaration, "at::Tensor f(at::Tensor x, double scale)");
  // `empty_like(x)` of the reshaped handle: no shape of the input tells it.
  EXPECT_FALSE(Sig.FakeDerived);
  EXPECT_NE(Sig.FakeReason.find("uses `x`, which line 3 reassigns: it is no longer the input"),
            std::string::npos)
      << Sig.FakeReason;

  // A rebound optional: the same, through std::optional's copy.
  Sig = derive("#include <torch/all.h>\n"
               "void f(const at::Tensor &x, std::optional<at::Tensor> &bias) {\n"
               "  if (!bias.has_value()) { bias = at::zeros_like(x); }\n"
               "}\n",
               "f");
  EXPECT_EQ(Sig.Schema, "(Tensor x, Tensor? bias) -> ()");
  EXPECT_EQ(Sig.BoxedDeclaration, "void f(const at::Tensor &x, std::optional<at::Tensor> bias)");
}

// llm-awq's rotary_embedding_neox: five non-const references, two written
// by the kernel, two only read (`const` pointers, sizes).
TEST_F(OpSignatureTest, NonConstTensorReferencesOnlyReadAreNoWrites) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "__global__ void k(const long *pos, float *q, float *key,\n"
                           "                  const float *cache, int n);\n"
                           "void f(at::Tensor &positions, at::Tensor &query, at::Tensor &key,\n"
                           "       int head_size, at::Tensor &cos_sin_cache) {\n"
                           "  int rot_dim = cos_sin_cache.size(1);\n"
                           "  k<<<query.size(0), 128>>>(positions.data_ptr<long>(),\n"
                           "      query.data_ptr<float>(), key.data_ptr<float>(),\n"
                           "      cos_sin_cache.data_ptr<float>(), rot_dim * head_size);\n"
                           "}\n",
                           "f", "ops.cu");
  EXPECT_EQ(Sig.Schema, "(Tensor positions, Tensor(a!) query, Tensor(b!) key, int head_size, "
                        "Tensor cos_sin_cache) -> ()");
  EXPECT_NE(Sig.Params[1].MutableBecause.find("its data pointer passed to kernel `k`"),
            std::string::npos)
      << Sig.Params[1].MutableBecause;
  EXPECT_TRUE(Sig.NeedsAdapter) << "the read references take the dispatcher's tensors by value";
  EXPECT_EQ(Sig.BoxedDeclaration,
            "void f(at::Tensor positions, at::Tensor &query, at::Tensor &key, int64_t head_size, "
            "at::Tensor cos_sin_cache)");
}

TEST_F(OpSignatureTest, ARebindingNextToAWriteOrAnUnseenUseStaysMutable) {
  struct Shape {
    const char *Body;
    const char *Because;
  };
  for (const Shape &S : {
           // Written in place after the rebinding: the view shares the storage.
           Shape{"x = x.view({-1}); x.zero_();", "`zero_` called on it"},
           // In-place through an operator (ATen's is a member; declared here).
           Shape{"x = x.contiguous(); x += y;", "a non-const reference"},
           // Handed on by non-const reference to a body not seen.
           Shape{"x = x.contiguous(); fill(x);", "a non-const reference"},
           // Handed to a function of another file: undecided.
           Shape{"launch(x, y);", "a non-const reference, handed to `launch`, whose body is not "
                                  "seen"},
       }) {
    OpSignature Sig =
        derive(std::string("#include <torch/all.h>\n"
                           "void fill(at::Tensor &t);\n"
                           "at::Tensor &operator+=(at::Tensor &, const at::Tensor &);\n"
                           "void launch(const at::Tensor &t, const at::Tensor &u);\n"
                           "void f(at::Tensor &x, const at::Tensor &y) {\n") +
                   S.Body + "\n}\n",
               "f");
    EXPECT_EQ(Sig.Schema, "(Tensor(a!) x, Tensor y) -> ()") << S.Body;
    ASSERT_EQ(Sig.Params.size(), 2u);
    EXPECT_EQ(Sig.Params[0].MutableBecause, S.Because) << S.Body;
  }
}

TEST_F(OpSignatureTest, OptionalTensors) {
  EXPECT_EQ(paramType("#include <torch/all.h>\n"
                      "void f(std::optional<at::Tensor> bias) {}\n"),
            Type("Tensor?", "torch.Tensor | None"));
  EXPECT_EQ(paramType("#include <torch/all.h>\n"
                      "void f(const c10::optional<torch::Tensor> &bias) {}\n"),
            Type("Tensor?", "torch.Tensor | None"));
}

// flash-attn's `std::optional<at::Tensor> &out_`, causal-conv1d's
// `c10::optional<at::Tensor> &final_states_out_`: written through; the
// dispatcher passes the optional by value, so the adapter hands the upstream
// function its copy.
TEST_F(OpSignatureTest, NonConstReferencesToOptionalTensorsAreMutable) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(const at::Tensor &x, std::optional<at::Tensor> &out_,\n"
                           "       c10::optional<at::Tensor> &states_, int64_t n) {\n"
                           "  out_->zero_();\n"
                           "  if (states_.has_value()) { states_.value().copy_(x); }\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor x, Tensor(a!)? out_, Tensor(b!)? states_, int n) -> ()");
  ASSERT_EQ(Sig.Params.size(), 4u);
  EXPECT_TRUE(Sig.Params[1].Mutable);
  EXPECT_FALSE(Sig.Params[1].IsTensor);
  EXPECT_EQ(Sig.Params[1].MutableBecause, "`zero_` called on it");
  EXPECT_EQ(Sig.Params[2].PyAnnotation, "torch.Tensor | None");
  EXPECT_TRUE(Sig.NeedsAdapter);
  EXPECT_EQ(Sig.Params[1].AdapterArg, "out_");
  EXPECT_EQ(Sig.BoxedDeclaration, "void f(const at::Tensor &x, std::optional<at::Tensor> out_, "
                                  "std::optional<at::Tensor> states_, int64_t n)");
  EXPECT_TRUE(Sig.WritesUnseen.empty()) << Sig.WritesUnseen;
}

TEST_F(OpSignatureTest, NonConstReferenceToAnOptionalScalarIsUnsupported) {
  EXPECT_NE(inputErrorOf("#include <torch/all.h>\n"
                         "void f(const at::Tensor &x, std::optional<double> &scale) {}\n",
                         "f")
                .find("parameter `scale` has type `std::optional<double> &`"),
            std::string::npos);
}

TEST_F(OpSignatureTest, IntegersAreInt) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(int64_t a, int b, long c, const int64_t &d) {}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(int a, int b, int c, int d) -> ()");
  ASSERT_EQ(Sig.Params.size(), 4u);
  EXPECT_EQ(Sig.Params[0].PyAnnotation, "int");
  EXPECT_EQ(Sig.Params[0].CppType, "int64_t");
}

TEST_F(OpSignatureTest, FloatingPointIsFloat) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(double eps, float scale) {}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(float eps, float scale) -> ()");
  EXPECT_EQ(Sig.Params[1].PyAnnotation, "float");
}

TEST_F(OpSignatureTest, TypesTheDispatcherDoesNotPassNeedAnAdapter) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(const at::Tensor &x, float scale, int shift, long long big,\n"
                           "       const float &ref, std::optional<float> maybe, int64_t n,\n"
                           "       double eps) {}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor x, float scale, int shift, int big, float ref, float? maybe, "
                        "int n, float eps) -> ()");
  EXPECT_TRUE(Sig.NeedsAdapter);
  std::vector<std::string> Boxed, Args;
  for (const OpParam &Param : Sig.Params) {
    Boxed.push_back(Param.BoxedCppType);
    Args.push_back(Param.AdapterArg);
  }
  EXPECT_EQ(Boxed, (std::vector<std::string>{"", "double", "int64_t", "int64_t", "double",
                                             "std::optional<double>", "", ""}));
  EXPECT_EQ(Args, (std::vector<std::string>{
                      "", "static_cast<float>(scale)", "static_cast<int>(shift)",
                      "static_cast<long long>(big)", "static_cast<float>(ref)", "maybe", "", ""}));
  EXPECT_EQ(Sig.BoxedDeclaration,
            "void f(const at::Tensor &x, double scale, int64_t shift, int64_t big, double ref, "
            "std::optional<double> maybe, int64_t n, double eps)");
}

TEST_F(OpSignatureTest, RegistrableTypesNeedNoAdapter) {
  OpSignature Sig =
      derive("#include <torch/all.h>\n"
             "at::Tensor f(const at::Tensor &x, double eps, int64_t n) { return x; }\n",
             "f");
  EXPECT_FALSE(Sig.NeedsAdapter);
  EXPECT_EQ(Sig.BoxedDeclaration, Sig.CppDeclaration);
}

TEST_F(OpSignatureTest, AFloatResultIsBoxedAsDouble) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "float f(const at::Tensor &x) { return 0.f; }\n",
                           "f");
  EXPECT_TRUE(Sig.NeedsAdapter);
  EXPECT_EQ(Sig.BoxedDeclaration, "double f(const at::Tensor &x)");
}

TEST_F(OpSignatureTest, Bool) {
  EXPECT_EQ(paramType("#include <torch/all.h>\n"
                      "void f(bool causal) {}\n"),
            Type("bool", "bool"));
}

TEST_F(OpSignatureTest, ScalarTypeIsDtype) {
  EXPECT_EQ(paramType("#include <torch/all.h>\n"
                      "void f(c10::ScalarType t) {}\n"),
            Type("ScalarType", "torch.dtype"));
  EXPECT_EQ(paramType("#include <torch/all.h>\n"
                      "void f(at::ScalarType t) {}\n"),
            Type("ScalarType", "torch.dtype"));
}

TEST_F(OpSignatureTest, Scalar) {
  EXPECT_EQ(paramType("#include <torch/all.h>\n"
                      "void f(const c10::Scalar &alpha) {}\n"),
            Type("Scalar", "int | float | bool"));
}

TEST_F(OpSignatureTest, StringsAreStr) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(std::string a, const std::string &b, c10::string_view c,\n"
                           "       std::string_view d) {}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(str a, str b, str c, str d) -> ()");
  EXPECT_EQ(Sig.Params[0].PyAnnotation, "str");
}

TEST_F(OpSignatureTest, IntegerListsAreIntArrays) {
  OpSignature Sig =
      derive("#include <torch/all.h>\n"
             "void f(at::IntArrayRef a, c10::ArrayRef<int64_t> b, std::vector<int64_t> c,\n"
             "       const std::vector<int64_t> &d) {}\n",
             "f");
  EXPECT_EQ(Sig.Schema, "(int[] a, int[] b, int[] c, int[] d) -> ()");
  EXPECT_EQ(Sig.Params[0].PyAnnotation, "list[int]");
}

TEST_F(OpSignatureTest, TensorListsAreTensorArrays) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(std::vector<at::Tensor> a, at::TensorList b) {}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor[] a, Tensor[] b) -> ()");
  EXPECT_EQ(Sig.Params[1].PyAnnotation, "list[torch.Tensor]");
  EXPECT_FALSE(Sig.Params[1].IsTensor);
}

TEST_F(OpSignatureTest, OptionalScalars) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(std::optional<int64_t> a, std::optional<double> b,\n"
                           "       c10::optional<bool> c, std::optional<at::ScalarType> d) {}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(int? a, float? b, bool? c, ScalarType? d) -> ()");
  ASSERT_EQ(Sig.Params.size(), 4u);
  EXPECT_EQ(Sig.Params[0].PyAnnotation, "int | None");
  EXPECT_EQ(Sig.Params[3].PyAnnotation, "torch.dtype | None");
}

TEST_F(OpSignatureTest, UnnamedParametersAreNumbered) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &, int64_t) {\n"
                           "  return at::Tensor();\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor arg0, int arg1) -> Tensor");
  EXPECT_EQ(Sig.CppDeclaration, "at::Tensor f(const at::Tensor &arg0, int64_t arg1)");
}

TEST_F(OpSignatureTest, UnsupportedParameterTypeIsAnInputError) {
  EXPECT_EQ(inputErrorOf("#include <torch/all.h>\n"
                         "namespace up {\n"
                         "void f(const at::Tensor &x, int64_t *counts) {}\n"
                         "}\n",
                         "up::f"),
            "entry `up::f`: parameter `counts` has type `int64_t *`, which an op schema "
            "cannot express");
}

TEST_F(OpSignatureTest, NonConstReferenceToScalarIsUnsupported) {
  EXPECT_EQ(inputErrorOf("#include <torch/all.h>\n"
                         "void f(const at::Tensor &x, double &scale) {}\n",
                         "f"),
            "entry `f`: parameter `scale` has type `double &`, which an op schema cannot "
            "express");
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

TEST_F(OpSignatureTest, VoidReturnsNothing) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(at::Tensor &out) {}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out) -> ()");
  EXPECT_TRUE(Sig.Returns.empty());
  EXPECT_EQ(Sig.PyReturn, "None");
  EXPECT_EQ(Sig.CppDeclaration, "void f(at::Tensor &out)");
}

TEST_F(OpSignatureTest, TupleReturnsOneResultPerElement) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "std::tuple<at::Tensor, at::Tensor> f(const at::Tensor &x) {\n"
                           "  return {at::empty_like(x), at::empty_like(x)};\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor x) -> (Tensor, Tensor)");
  EXPECT_EQ(Sig.Returns, (std::vector<std::string>{"Tensor", "Tensor"}));
  EXPECT_EQ(Sig.PyReturn, "tuple[torch.Tensor, torch.Tensor]");
  EXPECT_EQ(Sig.CppDeclaration, "std::tuple<at::Tensor, at::Tensor> f(const at::Tensor &x)");
}

TEST_F(OpSignatureTest, VectorReturnIsTensorArray) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "std::vector<at::Tensor> f(const at::Tensor &a, const at::Tensor &b) {\n"
                           "  return {at::empty_like(a), at::empty_like(b)};\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor a, Tensor b) -> Tensor[]");
  EXPECT_EQ(Sig.PyReturn, "list[torch.Tensor]");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "[torch.empty_like(a), torch.empty_like(b)]");
  EXPECT_EQ(Sig.FakeCpp, "return {at::empty_like(a), at::empty_like(b)};");
}

// fast-hadamard-transform's shape: the input flattened to rows, the output
// allocated like the flattened input, sliced, and reshaped back to the
// input's shape, read before the rebinding.
TEST_F(OpSignatureTest, AReshapeToAnInputsShapeHasTheOptionsOfWhatItReshapes) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(at::Tensor &x) {\n"
                           "  const auto shape_og = x.sizes();\n"
                           "  x = x.reshape({-1, x.size(-1)});\n"
                           "  if (!x.is_contiguous()) { x = x.contiguous(); }\n"
                           "  at::Tensor out = at::empty_like(x);\n"
                           "  if (x.size(1) % 8 != 0) { out = out.narrow(1, 0, 4); }\n"
                           "  return out.reshape(shape_og);\n"
                           "}\n",
                           "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "torch.empty(x.shape, dtype=x.dtype, device=x.device)");
  EXPECT_EQ(Sig.FakeCpp, "return at::empty(x.sizes(), x.options());");

  // A view of a factory allocation, sized from the input.
  Sig = derive("#include <torch/all.h>\n"
               "at::Tensor f(const at::Tensor &x) {\n"
               "  auto flat = at::empty({x.numel()}, x.options());\n"
               "  return flat.view({x.size(0), x.size(1)});\n"
               "}\n",
               "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython,
            "torch.empty((x.shape[0], x.shape[1]), dtype=x.dtype, device=x.device)");
}

TEST_F(OpSignatureTest, AReshapeTheFakeCannotSizeIsNotDerived) {
  struct Shape {
    const char *Body;
    const char *Reason;
  };
  for (const Shape &S : {
           Shape{"auto out = at::empty_like(x);\n  return out.reshape({-1});",
                 "whose size -1 torch infers from the others"},
           Shape{"auto out = at::empty_like(x);\n  out = out.to(at::kHalf);\n"
                 "  return out.reshape(x.sizes());",
                 "uses `out`, which is changed other than by views and copies of itself"},
           // The input's shape read after the rebinding: the flattened one.
           Shape{"x = x.reshape({-1, x.size(-1)});\n  auto out = at::empty_like(x);\n"
                 "  return out.reshape(x.sizes());",
                 "uses `x`, which line 3 reassigns: it is no longer the input"},
       }) {
    OpSignature Sig = derive(std::string("#include <torch/all.h>\n"
                                         "at::Tensor f(at::Tensor &x) {\n  ") +
                                 S.Body + "\n}\n",
                             "f");
    EXPECT_FALSE(Sig.FakeDerived) << S.Body;
    EXPECT_NE(Sig.FakeReason.find(S.Reason), std::string::npos) << Sig.FakeReason;
  }
}

TEST_F(OpSignatureTest, ReturnedMutableParameterAliasesIt) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor &f(const at::Tensor &x, at::Tensor &out) {\n"
                           "  out.zero_();\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor x, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(Sig.PyReturn, "torch.Tensor");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "out");
  EXPECT_EQ(Sig.FakeCpp, "return out;");
  EXPECT_EQ(Sig.CppDeclaration, "at::Tensor &f(const at::Tensor &x, at::Tensor &out)");
}

TEST_F(OpSignatureTest, ReturnedMutableParametersInATupleKeepTheirAliases) {
  OpSignature Sig =
      derive("#include <torch/all.h>\n"
             "std::tuple<at::Tensor &, at::Tensor &> f(at::Tensor &a, at::Tensor &b) {\n"
             "  return std::forward_as_tuple(b, a);\n"
             "}\n",
             "f");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) a, Tensor(b!) b) -> (Tensor(b!), Tensor(a!))");
  EXPECT_EQ(Sig.FakePython, "(b, a)");
  EXPECT_EQ(Sig.FakeCpp, "return {b, a};");
}

TEST_F(OpSignatureTest, ReturnedReferenceToANonParameterIsAnInputError) {
  EXPECT_EQ(inputErrorOf("#include <torch/all.h>\n"
                         "at::Tensor &pick(at::Tensor &a, at::Tensor &b);\n"
                         "at::Tensor &f(at::Tensor &a, at::Tensor &b) {\n"
                         "  return pick(a, b);\n"
                         "}\n",
                         "f"),
            "entry `f`: output 1 is a `at::Tensor &` that is not always the same mutable "
            "tensor parameter");
}

TEST_F(OpSignatureTest, ConstReferenceResultIsUnsupported) {
  EXPECT_EQ(inputErrorOf("#include <torch/all.h>\n"
                         "const at::Tensor &f(const at::Tensor &x) {\n"
                         "  return x;\n"
                         "}\n",
                         "f"),
            "entry `f`: return type `const at::Tensor &`, which an op schema cannot express");
}

//===----------------------------------------------------------------------===//
// Tensors the body writes (TensorWrites.h): taken by value, by const
// reference or as an optional, and written, they are mutable all the same
//===----------------------------------------------------------------------===//

TEST_F(OpSignatureTest, InPlaceMethodMarksATensorTakenByValue) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(at::Tensor out, const at::Tensor &x) { out.copy_(x); }\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x) -> ()");
  ASSERT_EQ(Sig.Params.size(), 2u);
  EXPECT_TRUE(Sig.Params[0].Mutable);
  EXPECT_EQ(Sig.Params[0].MutableBecause, "`copy_` called on it");
  EXPECT_EQ(Sig.Params[0].CppType, "at::Tensor");
  EXPECT_EQ(Sig.Params[0].PyAnnotation, "torch.Tensor");
  EXPECT_FALSE(Sig.Params[1].Mutable);
  EXPECT_EQ(Sig.Params[1].MutableBecause, "");
  // A void op that only writes its outputs has a fake: nothing to return.
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "None");
  EXPECT_EQ(Sig.CppDeclaration, "void f(at::Tensor out, const at::Tensor &x)");
}

TEST_F(OpSignatureTest, InPlaceMethodsOfSeveralShapes) {
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(const at::Tensor &out) { out.zero_(); }\n"),
            "(Tensor(a!) out) -> ()");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(const torch::Tensor &out) { out.fill_(1.5); }\n"),
            "(Tensor(a!) out) -> ()");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(at::Tensor acc, const at::Tensor &x) {\n"
                     "  if (x.numel() > 0)\n"
                     "    acc.add_(x);\n"
                     "}\n"),
            "(Tensor(a!) acc, Tensor x) -> ()");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(at::Tensor out, at::Tensor idx, at::Tensor v) {\n"
                     "  out.index_put_({idx}, v);\n"
                     "}\n"),
            "(Tensor(a!) out, Tensor idx, Tensor v) -> ()");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(const at::Tensor &x, at::Tensor out) {\n"
                     "  out.resize_({x.size(0)});\n"
                     "}\n"),
            "(Tensor x, Tensor(a!) out) -> ()");
}

TEST_F(OpSignatureTest, WrittenTensorsGetAliasSetsInParameterOrder) {
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(at::Tensor a, at::Tensor &b, const at::Tensor &x,\n"
                     "       const at::Tensor &c) {\n"
                     "  c.zero_();\n"
                     "  a.copy_(x);\n"
                     "}\n"),
            "(Tensor(a!) a, Tensor(b!) b, Tensor x, Tensor(c!) c) -> ()");
}

/// The host side of a kernel that takes a `Params` struct (rule 5 of
/// TensorWrites.h): the analysis found `out_ptr` and `state_ptr` written
/// through in the kernels' TUs, `x_ptr` and `bias_ptr` only read.
class ParamsStructTest : public OpSignatureTest {
protected:
  std::string schemaOf(llvm::StringRef Body) {
    std::string Text = "#include <torch/all.h>\n"
                       "#include <optional>\n"
                       "struct Params { void *x_ptr, *out_ptr, *state_ptr; void *bias_ptr; };\n"
                       "void launch(Params &p);\n" +
                       Body.str();
    write("ops.cpp", Text);
    SignatureRequest Request = request();
    addEntry(Request, "ops.cpp", Text, "f");
    Request.WrittenPointerFields = {"c:@S@Params@FI@out_ptr", "c:@S@Params@FI@state_ptr"};
    llvm::Expected<std::vector<OpSignature>> Sigs = deriveSignatures(Request);
    if (!Sigs) {
      ADD_FAILURE() << llvm::toString(Sigs.takeError());
      return "";
    }
    Because = Sigs->front().Params.size() > 1 ? Sigs->front().Params[1].MutableBecause : "";
    return Sigs->front().Schema;
  }
  std::string Because; ///< Why the second parameter is mutable.
};

TEST_F(ParamsStructTest, ADataPointerStoredInAWrittenFieldMarks) {
  EXPECT_EQ(schemaOf("void f(const at::Tensor &x, const at::Tensor &state) {\n"
                     "  Params p;\n"
                     "  p.x_ptr = x.data_ptr();\n"
                     "  p.state_ptr = state.data_ptr();\n"
                     "  launch(p);\n"
                     "}\n"),
            "(Tensor x, Tensor(a!) state) -> ()");
  EXPECT_EQ(
      Because,
      "its data pointer stored in `Params::state_ptr`, which the tree's kernels write through");
  // Through a pointer to the struct, and in an aggregate initialiser.
  EXPECT_EQ(schemaOf("void f(const at::Tensor &x, const at::Tensor &out) {\n"
                     "  Params p;\n"
                     "  Params *q = &p;\n"
                     "  q->out_ptr = reinterpret_cast<float *>(out.data_ptr()) + 1;\n"
                     "  q->x_ptr = x.data_ptr();\n"
                     "  launch(p);\n"
                     "}\n"),
            "(Tensor x, Tensor(a!) out) -> ()");
  EXPECT_EQ(schemaOf("void f(const at::Tensor &x, const at::Tensor &out) {\n"
                     "  Params p{x.data_ptr(), out.data_ptr(), nullptr, nullptr};\n"
                     "  launch(p);\n"
                     "}\n"),
            "(Tensor x, Tensor(a!) out) -> ()");
}

TEST_F(ParamsStructTest, AHelperThatOnlyStoresAPointerInAReadFieldDoesNotMark) {
  // The causal-conv1d shape: the bias' pointer goes to a setter as `void *`,
  // which stores it in a field no kernel writes through; the output's tensor
  // goes by value and its pointer to a written field.
  EXPECT_EQ(
      schemaOf("static void set_params(Params &p, const at::Tensor x, const at::Tensor out,\n"
               "                       void *bias_ptr) {\n"
               "  p.x_ptr = x.data_ptr();\n"
               "  p.out_ptr = out.data_ptr();\n"
               "  p.bias_ptr = bias_ptr;\n"
               "}\n"
               "void f(const at::Tensor &x, const std::optional<at::Tensor> &bias,\n"
               "       const at::Tensor &out) {\n"
               "  Params p;\n"
               "  set_params(p, x, out, bias.has_value() ? bias.value().data_ptr() : nullptr);\n"
               "  launch(p);\n"
               "}\n"),
      "(Tensor x, Tensor? bias, Tensor(a!) out) -> ()");
  // A helper that writes through the pointer still marks.
  EXPECT_EQ(schemaOf("static void clear(void *dst) { static_cast<char *>(dst)[0] = 0; }\n"
                     "void f(const at::Tensor &x, const at::Tensor &y) {\n"
                     "  clear(y.data_ptr());\n"
                     "  (void)x;\n"
                     "}\n"),
            "(Tensor x, Tensor(a!) y) -> ()");
}

TEST_F(ParamsStructTest, WithoutTheAnalysisFieldsNothingIsMarked) {
  std::string Text = "#include <torch/all.h>\n"
                     "struct Params { void *out_ptr; };\n"
                     "void launch(Params &p);\n"
                     "void f(const at::Tensor &out) {\n"
                     "  Params p;\n"
                     "  p.out_ptr = out.data_ptr();\n"
                     "  launch(p);\n"
                     "}\n";
  write("ops.cpp", Text);
  SignatureRequest Request = request();
  addEntry(Request, "ops.cpp", Text, "f");
  llvm::Expected<std::vector<OpSignature>> Sigs = deriveSignatures(Request);
  ASSERT_TRUE(bool(Sigs)) << llvm::toString(Sigs.takeError());
  EXPECT_EQ(Sigs->front().Schema, "(Tensor out) -> ()");
}

/// `f` hands its tensors to a launcher defined elsewhere, so no write is
/// visible: only the upstream's schema (`deriveWith`) or the user's
/// declaration (`deriveDeclaring`) can mark them.
class UpstreamSchemaTest : public OpSignatureTest {
protected:
  llvm::Expected<std::vector<OpSignature>>
  deriveDeclaring(const std::string &UpstreamSchema,
                  std::map<std::string, std::vector<std::string>> Declared) {
    const char *Text =
        "#include <torch/all.h>\n"
        "#include <optional>\n"
        "void launch(const at::Tensor &a, const at::Tensor &b);\n"
        "void f(at::Tensor out, const at::Tensor &x, std::optional<at::Tensor> n) {\n"
        "  launch(out, x);\n"
        "}\n";
    write("ops.cpp", Text);
    SignatureRequest Request = request();
    addEntry(Request, "ops.cpp", Text, "f");
    Request.Entries.front().UpstreamSchema = UpstreamSchema;
    Request.Entries.front().UpstreamSchemaAt = {"csrc/binding.cpp", 7};
    Request.DeclaredWrites = std::move(Declared);
    return deriveSignatures(Request);
  }

  OpSignature deriveWith(const std::string &UpstreamSchema) {
    llvm::Expected<std::vector<OpSignature>> Sigs = deriveDeclaring(UpstreamSchema, {});
    if (!Sigs) {
      ADD_FAILURE() << llvm::toString(Sigs.takeError());
      return {};
    }
    return Sigs->front();
  }
};

TEST_F(UpstreamSchemaTest, WithoutOneNothingIsMarked) {
  OpSignature Sig = deriveWith("");
  EXPECT_EQ(Sig.Schema, "(Tensor out, Tensor x, Tensor? n) -> ()");
  // An op that returns nothing and writes nothing visible is suspect.
  EXPECT_NE(Sig.WritesUnseen.find("it returns nothing, and no tensor parameter is seen written"),
            std::string::npos)
      << Sig.WritesUnseen;
}

TEST_F(UpstreamSchemaTest, AMarkedParameterClearsTheWarning) {
  EXPECT_EQ(deriveWith("(Tensor(a!) out, Tensor x, Tensor? n) -> ()").WritesUnseen, "");
}

// Writes hidden in a function of another file are declared by the user.
TEST_F(UpstreamSchemaTest, DeclaredWritesAreMarked) {
  llvm::Expected<std::vector<OpSignature>> Sigs = deriveDeclaring("", {{"f", {"n", "out"}}});
  ASSERT_TRUE(static_cast<bool>(Sigs)) << llvm::toString(Sigs.takeError());
  const OpSignature &Sig = Sigs->front();
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x, Tensor(b!)? n) -> ()");
  EXPECT_EQ(Sig.Params[0].MutableBecause, "declared written");
  EXPECT_EQ(Sig.Params[2].MutableBecause, "declared written");
  EXPECT_EQ(Sig.WritesUnseen, "");
}

TEST_F(UpstreamSchemaTest, ADeclaredWriteMustNameATensorParameter) {
  for (std::string Name : {"outt", "k"}) {
    llvm::Expected<std::vector<OpSignature>> Sigs = deriveDeclaring("", {{"f", {Name}}});
    ASSERT_FALSE(static_cast<bool>(Sigs));
    EXPECT_EQ(llvm::toString(Sigs.takeError()),
              "op `f` is declared to write `" + Name +
                  "`, which is not one of its tensor parameters (out, x, n)");
  }
}

TEST_F(UpstreamSchemaTest, DeclaredWritesMustNameARegisteredOp) {
  llvm::Expected<std::vector<OpSignature>> Sigs = deriveDeclaring("", {{"g", {"out"}}});
  ASSERT_FALSE(static_cast<bool>(Sigs));
  EXPECT_EQ(llvm::toString(Sigs.takeError()),
            "outputs are declared for op `g`, which this migration does not register (its ops: f)");
}

TEST_F(UpstreamSchemaTest, ItsAliasMarksAreTakenByName) {
  OpSignature Sig = deriveWith("(Tensor x, Tensor(a!) out, Tensor? n, *, int k=1) -> ()");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x, Tensor? n) -> ()");
  ASSERT_EQ(Sig.Params.size(), 3u);
  EXPECT_EQ(Sig.Params[0].MutableBecause,
            "the upstream schema (csrc/binding.cpp:7) marks it `Tensor(a!)`");
  EXPECT_FALSE(Sig.Params[1].Mutable);
}

TEST_F(UpstreamSchemaTest, ItsAliasMarksAreTakenByPositionWhenNamesDiffer) {
  OpSignature Sig = deriveWith("(Tensor(a!) y, Tensor input, Tensor(b!)? count) -> ()");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x, Tensor(b!)? n) -> ()");
}

TEST_F(UpstreamSchemaTest, AnotherArityAndOtherNamesMarkNothing) {
  EXPECT_EQ(deriveWith("(Tensor(a!) y, Tensor input) -> ()").Schema,
            "(Tensor out, Tensor x, Tensor? n) -> ()");
}

TEST_F(UpstreamSchemaTest, ASchemaThatDoesNotParseMarksNothing) {
  EXPECT_EQ(deriveWith("(Tensor(a!)) -> ()").Schema, "(Tensor out, Tensor x, Tensor? n) -> ()");
}

TEST_F(OpSignatureTest, InPlaceMethodThroughAnOptional) {
  for (const char *Write : {"out->copy_(x);", "out.value().zero_();", "(*out).fill_(0.5);",
                            "if (out.has_value()) out->zero_();"}) {
    OpSignature Sig = derive(std::string("#include <torch/all.h>\n"
                                         "void f(std::optional<at::Tensor> out, "
                                         "const at::Tensor &x) {\n  ") +
                                 Write + "\n}\n",
                             "f");
    EXPECT_EQ(Sig.Schema, "(Tensor(a!)? out, Tensor x) -> ()") << Write;
    ASSERT_EQ(Sig.Params.size(), 2u);
    EXPECT_EQ(Sig.Params[0].PyAnnotation, "torch.Tensor | None");
    EXPECT_FALSE(Sig.Params[0].IsTensor);
  }
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(const std::optional<at::Tensor> &out) { out->zero_(); }\n"),
            "(Tensor(a!)? out) -> ()");
}

TEST_F(OpSignatureTest, InPlaceMethodThroughALocalOfTheSameTensor) {
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(at::Tensor out) {\n"
                     "  at::Tensor o = out;\n"
                     "  o.zero_();\n"
                     "}\n"),
            "(Tensor(a!) out) -> ()");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(std::optional<at::Tensor> out) {\n"
                     "  const at::Tensor &o = *out;\n"
                     "  o.zero_();\n"
                     "}\n"),
            "(Tensor(a!)? out) -> ()");
}

TEST_F(OpSignatureTest, ReadsAndOtherTensorsWritesDoNotMark) {
  // The source of a copy, a method that is no in-place op, a new tensor.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "at::Tensor f(const at::Tensor &x, at::Tensor y) {\n"
                     "  at::Tensor out = at::empty_like(x);\n"
                     "  out.copy_(x);\n"
                     "  out.add_(y.contiguous());\n"
                     "  (void)y.sum();\n"
                     "  return out;\n"
                     "}\n"),
            "(Tensor x, Tensor y) -> Tensor");
  // A local initialised from a method's result is another tensor.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(const at::Tensor &x) {\n"
                     "  at::Tensor c = x.contiguous();\n"
                     "  c.zero_();\n"
                     "}\n"),
            "(Tensor x) -> ()");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(std::optional<at::Tensor> bias, const at::Tensor &x) {\n"
                     "  if (bias.has_value())\n"
                     "    TORCH_CHECK(bias->numel() == x.numel(), \"bias\");\n"
                     "}\n"),
            "(Tensor? bias, Tensor x) -> ()");
}

TEST_F(OpSignatureTest, KnownGapAViewThatIsWrittenDoesNotMark) {
  // `view` shares storage, but only the tensor itself is followed.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(at::Tensor out) { out.view({-1}).zero_(); }\n"),
            "(Tensor out) -> ()");
}

TEST_F(OpSignatureTest, OutFunctionMarksItsLeadingOutputs) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(at::Tensor out, const at::Tensor &a, const at::Tensor &b) {\n"
                           "  at::mm_out(out, a, b);\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor a, Tensor b) -> ()");
  EXPECT_EQ(Sig.Params[0].MutableBecause, "passed to `at::mm_out` as an output");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(const at::Tensor &a, const at::Tensor &b,\n"
                     "       const at::Tensor &out) {\n"
                     "  torch::add_out(const_cast<at::Tensor &>(out), a, b);\n"
                     "}\n"),
            "(Tensor a, Tensor b, Tensor(a!) out) -> ()");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(std::optional<at::Tensor> out, const at::Tensor &a) {\n"
                     "  at::mm_out(*out, a, a);\n"
                     "}\n"),
            "(Tensor(a!)? out, Tensor a) -> ()");
  // Two leading outputs of an upstream `_out` function of its own.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void split_out(at::Tensor &lo, at::Tensor &hi, const at::Tensor &x);\n"
                     "void f(at::Tensor x, at::Tensor lo, at::Tensor hi) {\n"
                     "  split_out(lo, hi, x);\n"
                     "}\n"),
            "(Tensor x, Tensor(a!) lo, Tensor(b!) hi) -> ()");
}

TEST_F(OpSignatureTest, OutFunctionInputsAndLaterArgumentsDoNotMark) {
  // The inputs of an `_out` call, and a local as its output.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "at::Tensor f(at::Tensor a, at::Tensor b) {\n"
                     "  at::Tensor out = at::empty_like(a);\n"
                     "  at::mm_out(out, a, b);\n"
                     "  return out;\n"
                     "}\n"),
            "(Tensor a, Tensor b) -> Tensor");
  // `_outf` takes the output last, after a `const` input: not a leading one.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(at::Tensor a, at::Tensor b, at::Tensor out) {\n"
                     "  at::mm_outf(a, b, out);\n"
                     "}\n"),
            "(Tensor a, Tensor b, Tensor out) -> ()");
  // A function without the suffix, defined elsewhere, is not followed.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void fill_ones(at::Tensor &o);\n"
                     "void f(at::Tensor out) { fill_ones(out); }\n"),
            "(Tensor out) -> ()");
}

/// A CUDA source with a kernel and launchers declared, for data pointers.
std::string cudaSource(llvm::StringRef Body) {
  return "#include <torch/all.h>\n"
         "__global__ void k(float *o, const float *x, int n);\n"
         "template <typename T> __global__ void kt(T *o, const T *x);\n"
         "void launch(float *o, const float *x, int n);\n"
         "void copy_bytes(void *dst, const void *src, size_t n);\n" +
         Body.str();
}

TEST_F(OpSignatureTest, DataPointerPassedToAKernelsNonConstPointerMarks) {
  OpSignature Sig = derive(cudaSource("void f(at::Tensor out, const at::Tensor &x) {\n"
                                      "  k<<<1, 1>>>(out.data_ptr<float>(), x.data_ptr<float>(),\n"
                                      "              static_cast<int>(x.numel()));\n"
                                      "}\n"),
                           "f", "ops.cu");
  // `x` goes to `const float *`: read, not written.
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x) -> ()");
  EXPECT_EQ(Sig.Params[0].MutableBecause, "its data pointer passed to kernel `k` as `float *`");
  EXPECT_FALSE(Sig.Params[1].Mutable);
}

TEST_F(OpSignatureTest, DataPointerThroughCastsArithmeticAndTemplates) {
  for (const char *Arg :
       {"reinterpret_cast<float *>(out.data_ptr())", "static_cast<float *>(out.data_ptr())",
        "(float *)out.data_ptr()", "out.data_ptr<float>() + 4",
        "x.numel() > 0 ? out.data_ptr<float>() : nullptr", "out.mutable_data_ptr<float>()"}) {
    EXPECT_EQ(schemaOf(cudaSource(std::string("void f(const at::Tensor &x, const at::Tensor &out) "
                                              "{\n  launch(") +
                                  Arg + ", x.data_ptr<float>(), 4);\n}\n"),
                       "ops.cu"),
              "(Tensor x, Tensor(a!) out) -> ()")
        << Arg;
  }
  EXPECT_EQ(schemaOf(cudaSource("void f(at::Tensor out, at::Tensor x) {\n"
                                "  kt<at::Half><<<1, 1>>>(\n"
                                "      reinterpret_cast<at::Half *>(out.data_ptr()),\n"
                                "      reinterpret_cast<const at::Half *>(x.data_ptr()));\n"
                                "}\n"),
                     "ops.cu"),
            "(Tensor(a!) out, Tensor x) -> ()");
  EXPECT_EQ(schemaOf(cudaSource("void f(at::Tensor dst, at::Tensor src) {\n"
                                "  copy_bytes(dst.data_ptr(), src.data_ptr(), 16);\n"
                                "}\n"),
                     "ops.cu"),
            "(Tensor(a!) dst, Tensor src) -> ()");
  EXPECT_EQ(schemaOf(cudaSource("void f(std::optional<at::Tensor> lse, at::Tensor x) {\n"
                                "  if (lse)\n"
                                "    k<<<1, 1>>>(lse->data_ptr<float>(), x.data_ptr<float>(), 1);\n"
                                "}\n"),
                     "ops.cu"),
            "(Tensor(a!)? lse, Tensor x) -> ()");
}

TEST_F(OpSignatureTest, MutableDataPointerAlwaysMarks) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(at::Tensor out) {\n"
                           "  float *p = out.mutable_data_ptr<float>();\n"
                           "  (void)p;\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out) -> ()");
  EXPECT_EQ(Sig.Params[0].MutableBecause, "its `mutable_data_ptr` taken");
}

TEST_F(OpSignatureTest, LocalDataPointerPassedOrWrittenThroughMarks) {
  EXPECT_EQ(schemaOf(cudaSource("void f(at::Tensor out, at::Tensor x) {\n"
                                "  float *o = out.data_ptr<float>();\n"
                                "  const float *in = x.data_ptr<float>();\n"
                                "  k<<<1, 1>>>(o, in, 1);\n"
                                "}\n"),
                     "ops.cu"),
            "(Tensor(a!) out, Tensor x) -> ()");
  for (const char *Store : {"o[0] = 1.0f;", "*o = 1.0f;", "o[1] += 2.0f;", "++o[2];"})
    EXPECT_EQ(schemaOf(std::string("#include <torch/all.h>\n"
                                   "void f(const at::Tensor &out) {\n"
                                   "  auto *o = reinterpret_cast<float *>(out.data_ptr());\n"
                                   "  ") +
                       Store + "\n}\n"),
              "(Tensor(a!) out) -> ()")
        << Store;
  // A store into a class-typed element is an operator call.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void f(at::Tensor out) {\n"
                     "  at::Half *o = out.data_ptr<at::Half>();\n"
                     "  o[0] = at::Half{0};\n"
                     "}\n"),
            "(Tensor(a!) out) -> ()");
}

TEST_F(OpSignatureTest, ReadOnlyDataPointersDoNotMark) {
  // `data_ptr<float>()` to `const float *`, `const_data_ptr`, a const local,
  // a cast to const, and a non-const local that is only read.
  OpSignature Sig =
      derive(cudaSource("void f(at::Tensor out, at::Tensor x, at::Tensor y,\n"
                        "       at::Tensor z, at::Tensor w) {\n"
                        "  const float *pz = z.data_ptr<float>();\n"
                        "  float *pw = w.data_ptr<float>();\n"
                        "  float first = pw[0];\n"
                        "  launch(out.data_ptr<float>(), x.data_ptr<float>(), 1);\n"
                        "  k<<<1, 1>>>(out.data_ptr<float>(), y.const_data_ptr<float>(),"
                        " 1);\n"
                        "  kt<float><<<1, 1>>>(out.data_ptr<float>(), pz);\n"
                        "  copy_bytes(out.data_ptr(),\n"
                        "             reinterpret_cast<const float *>(w.data_ptr()),"
                        " 4);\n"
                        "  (void)first;\n"
                        "}\n"),
             "f", "ops.cu");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x, Tensor y, Tensor z, Tensor w) -> ()");
}

TEST_F(OpSignatureTest, DataPointerInDispatchLambdasMarks) {
  EXPECT_EQ(schemaOf(cudaSource("void f(at::Tensor out, at::Tensor x) {\n"
                                "  [&] { k<<<1, 1>>>(out.data_ptr<float>(), x.data_ptr<float>(),"
                                " 1); }();\n"
                                "}\n"),
                     "ops.cu"),
            "(Tensor(a!) out, Tensor x) -> ()");
  // A generic lambda: the writes are in its instantiations.
  EXPECT_EQ(schemaOf(cudaSource("void f(at::Tensor out, at::Tensor x) {\n"
                                "  auto run = [&](auto tag) {\n"
                                "    using T = decltype(tag);\n"
                                "    kt<T><<<1, 1>>>(out.data_ptr<T>(), x.data_ptr<T>());\n"
                                "  };\n"
                                "  run(float{});\n"
                                "}\n"),
                     "ops.cu"),
            "(Tensor(a!) out, Tensor x) -> ()");
}

TEST_F(OpSignatureTest, TensorPassedToAWritingFunctionOfTheMainFileMarks) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "static void clear(const at::Tensor &o, const at::Tensor &x) {\n"
                           "  o.zero_();\n"
                           "}\n"
                           "void f(at::Tensor out, const at::Tensor &x) { clear(out, x); }\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x) -> ()");
  EXPECT_EQ(Sig.Params[0].MutableBecause,
            "passed to `clear`, which writes its parameter `o` (`zero_` called on it)");
  // Two calls deep, through an optional and a kernel launch.
  EXPECT_EQ(schemaOf(cudaSource("namespace {\n"
                                "void run(at::Tensor o, at::Tensor x) {\n"
                                "  k<<<1, 1>>>(o.data_ptr<float>(), x.data_ptr<float>(), 1);\n"
                                "}\n"
                                "void dispatch(const at::Tensor &o, const at::Tensor &x) {\n"
                                "  run(o, x);\n"
                                "}\n"
                                "} // namespace\n"
                                "void f(std::optional<at::Tensor> out, at::Tensor x) {\n"
                                "  if (out.has_value())\n"
                                "    dispatch(out.value(), x);\n"
                                "}\n"),
                     "ops.cu"),
            "(Tensor(a!)? out, Tensor x) -> ()");
  // A template and a lambda defined in the main file.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "template <typename T> void fill(const at::Tensor &o, T v) {\n"
                     "  o.fill_(v);\n"
                     "}\n"
                     "void f(at::Tensor a, at::Tensor b) {\n"
                     "  fill(a, 1.0);\n"
                     "  auto clear = [](const at::Tensor &t) { t.zero_(); };\n"
                     "  clear(b);\n"
                     "}\n"),
            "(Tensor(a!) a, Tensor(b!) b) -> ()");
}

TEST_F(OpSignatureTest, FunctionsThatOnlyReadOrLieElsewhereDoNotMark) {
  // Read only; and a helper in a header, whose body the parse skips.
  write("helpers.h", "#pragma once\n"
                     "#include <torch/all.h>\n"
                     "inline void clear_in_header(const at::Tensor &t) { t.zero_(); }\n");
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "#include \"helpers.h\"\n"
                     "static int64_t rows(const at::Tensor &t) { return t.size(0); }\n"
                     "void f(at::Tensor x, at::Tensor y) {\n"
                     "  TORCH_CHECK(rows(x) > 0, \"empty\");\n"
                     "  clear_in_header(y);\n"
                     "}\n"),
            "(Tensor x, Tensor y) -> ()");
  // The helper writes its other parameter.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "static void put(const at::Tensor &dst, const at::Tensor &src) {\n"
                     "  dst.copy_(src);\n"
                     "}\n"
                     "void f(at::Tensor x, at::Tensor y) {\n"
                     "  at::Tensor tmp = at::empty_like(x);\n"
                     "  put(tmp, x);\n"
                     "  put(y, tmp);\n"
                     "}\n"),
            "(Tensor x, Tensor(a!) y) -> ()");
}

TEST_F(OpSignatureTest, RecursiveHelpersEndAndChainsStopAtTheDepthLimit) {
  // A cycle: `a` and `b` call each other; `b` writes.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "void b(const at::Tensor &t, int n);\n"
                     "void a(const at::Tensor &t, int n) { if (n > 0) b(t, n - 1); }\n"
                     "void b(const at::Tensor &t, int n) {\n"
                     "  if (n > 0) a(t, n - 1); else t.zero_();\n"
                     "}\n"
                     "void f(at::Tensor x) { a(x, 3); }\n"),
            "(Tensor(a!) x) -> ()");
  // A cycle that writes nothing.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "int64_t a(const at::Tensor &t, int n);\n"
                     "int64_t b(const at::Tensor &t, int n) { return n ? a(t, n - 1) : 0; }\n"
                     "int64_t a(const at::Tensor &t, int n) { return b(t, n) + t.dim(); }\n"
                     "void f(at::Tensor x) { (void)a(x, 3); }\n"),
            "(Tensor x) -> ()");
  // Four calls deep is followed, five is not.
  std::string Chain = "#include <torch/all.h>\n"
                      "void h5(const at::Tensor &t) { t.zero_(); }\n"
                      "void h4(const at::Tensor &t, const at::Tensor &u) { u.zero_(); h5(t); }\n"
                      "void h3(const at::Tensor &t, const at::Tensor &u) { h4(t, u); }\n"
                      "void h2(const at::Tensor &t, const at::Tensor &u) { h3(t, u); }\n"
                      "void h1(const at::Tensor &t, const at::Tensor &u) { h2(t, u); }\n"
                      "void f(at::Tensor deep, at::Tensor near) { h1(deep, near); }\n";
  EXPECT_EQ(schemaOf(Chain), "(Tensor deep, Tensor(a!) near) -> ()");
}

TEST_F(OpSignatureTest, ReturnedWrittenTensorsAliasTheirParameters) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(at::Tensor out, const at::Tensor &x) {\n"
                           "  out.copy_(x);\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor(a!) out, Tensor x) -> Tensor(a!)");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "out");
  EXPECT_EQ(Sig.FakeCpp, "return out;");
  // An optional keeps its `?` in the result.
  EXPECT_EQ(schemaOf("#include <torch/all.h>\n"
                     "std::optional<at::Tensor> f(std::optional<at::Tensor> out) {\n"
                     "  if (out)\n"
                     "    out->zero_();\n"
                     "  return out;\n"
                     "}\n"),
            "(Tensor(a!)? out) -> Tensor(a!)?");
  // An input returned as it is is still no new tensor.
  OpSignature Read = derive("#include <torch/all.h>\n"
                            "at::Tensor f(at::Tensor x) { return x; }\n",
                            "f");
  EXPECT_EQ(Read.Schema, "(Tensor x) -> Tensor");
  EXPECT_FALSE(Read.FakeDerived);
}

//===----------------------------------------------------------------------===//
// Fakes that are derived
//===----------------------------------------------------------------------===//

TEST_F(OpSignatureTest, FakeOfEmptyLike) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  at::Tensor out = at::empty_like(x);\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakeReason, "");
  EXPECT_EQ(Sig.FakePython, "torch.empty_like(x)");
  EXPECT_EQ(Sig.FakeCpp, "return at::empty_like(x);");
}

TEST_F(OpSignatureTest, FakeOfTorchSpellings) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "torch::Tensor f(const torch::Tensor &x) {\n"
                           "  auto out = torch::empty_like(x);\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.FakePython, "torch.empty_like(x)");
  EXPECT_EQ(Sig.FakeCpp, "return at::empty_like(x);");
}

TEST_F(OpSignatureTest, FakeOfEmptyFromSizesThroughLocals) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  const int64_t rows = x.size(0);\n"
                           "  int64_t cols = x.size(1);\n"
                           "  at::Tensor out = at::empty({rows, cols}, x.options());\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython,
            "torch.empty((x.shape[0], x.shape[1]), dtype=x.dtype, device=x.device)");
  EXPECT_EQ(Sig.FakeCpp, "return at::empty({x.size(0), x.size(1)}, x.options());");
}

TEST_F(OpSignatureTest, FakeOfProductsLiteralsAndSizesSubscripts) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "constexpr int kPack = 2;\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  const int64_t tokens = x.size(0) * x.sizes()[1];\n"
                           "  return at::empty({tokens, kPack * 4, x.size(-1)}, x.options());\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.FakePython, "torch.empty((x.shape[0] * x.shape[1], 8, x.shape[-1]), "
                            "dtype=x.dtype, device=x.device)");
  EXPECT_EQ(Sig.FakeCpp, "return at::empty({x.size(0) * x.size(1), 8, x.size(-1)}, x.options());");
}

TEST_F(OpSignatureTest, FakeOfOptionsWithDtype) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  auto opts = x.options().dtype(at::kFloat);\n"
                           "  return at::empty({x.size(0)}, opts);\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.FakePython, "torch.empty((x.shape[0],), dtype=torch.float32, device=x.device)");
  EXPECT_EQ(Sig.FakeCpp,
            "return at::empty({x.size(0)}, x.options().dtype(at::ScalarType::Float));");
}

TEST_F(OpSignatureTest, FakeOfDtypeConstantAndBuiltOptions) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "std::tuple<at::Tensor, at::Tensor> f(const at::Tensor &x) {\n"
                           "  auto counts = at::zeros({4}, at::kInt);\n"
                           "  auto out = torch::empty({x.size(0)},\n"
                           "      torch::dtype(torch::kFloat32).device(x.device()));\n"
                           "  return {counts, out};\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.FakePython, "(torch.zeros((4,), dtype=torch.int32), "
                            "torch.empty((x.shape[0],), dtype=torch.float32, device=x.device))");
  EXPECT_EQ(Sig.FakeCpp, "return {at::zeros({4}, at::ScalarType::Int), at::empty({x.size(0)}, "
                         "at::dtype(at::ScalarType::Float).device(x.device()))};");
}

TEST_F(OpSignatureTest, FakeOfDtypeTakenFromParameters) {
  OpSignature Sig =
      derive("#include <torch/all.h>\n"
             "std::tuple<at::Tensor, at::Tensor> f(const at::Tensor &x,\n"
             "                                     const at::Tensor &y,\n"
             "                                     at::ScalarType out_dtype) {\n"
             "  auto a = at::empty_like(x, x.options().dtype(out_dtype));\n"
             "  auto b = at::ones_like(x, at::TensorOptions().dtype(y.scalar_type()));\n"
             "  return std::make_tuple(a, b);\n"
             "}\n",
             "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "(torch.empty_like(x, dtype=out_dtype, device=x.device), "
                            "torch.ones_like(x, dtype=y.dtype))");
  EXPECT_EQ(Sig.FakeCpp, "return {at::empty_like(x, x.options().dtype(out_dtype)), "
                         "at::ones_like(x, at::TensorOptions().dtype(y.scalar_type()))};");
}

TEST_F(OpSignatureTest, FakeOfTupleThroughMakeTuple) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "std::tuple<at::Tensor, at::Tensor> f(const at::Tensor &x) {\n"
                           "  at::Tensor a = at::empty_like(x);\n"
                           "  at::Tensor b = at::empty({x.size(0)}, x.options());\n"
                           "  return std::make_tuple(a, b);\n"
                           "}\n",
                           "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "(torch.empty_like(x), torch.empty((x.shape[0],), dtype=x.dtype, "
                            "device=x.device))");
  EXPECT_EQ(Sig.FakeCpp, "return {at::empty_like(x), at::empty({x.size(0)}, x.options())};");
}

TEST_F(OpSignatureTest, FakeOfNewEmptyAndWholeShape) {
  OpSignature Sig =
      derive("#include <torch/all.h>\n"
             "std::tuple<at::Tensor, at::Tensor> f(const at::Tensor &x) {\n"
             "  return {x.new_empty({x.size(0), 2}), at::empty(x.sizes(), x.options())};\n"
             "}\n",
             "f");
  EXPECT_EQ(Sig.FakePython,
            "(x.new_empty((x.shape[0], 2)), torch.empty(x.shape, dtype=x.dtype, device=x.device))");
  EXPECT_EQ(Sig.FakeCpp,
            "return {x.new_empty({x.size(0), 2}), at::empty(x.sizes(), x.options())};");
}

TEST_F(OpSignatureTest, FakeOfIntegerParameterSize) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &x, int64_t n) {\n"
                           "  return at::empty({n, x.numel()}, x.options());\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.FakePython, "torch.empty((n, x.numel()), dtype=x.dtype, device=x.device)");
  EXPECT_EQ(Sig.FakeCpp, "return at::empty({n, x.numel()}, x.options());");
}

TEST_F(OpSignatureTest, FakeOfTensorAssignedOnce) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  at::Tensor out;\n"
                           "  out = at::empty_like(x);\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "torch.empty_like(x)");
}

TEST_F(OpSignatureTest, FakeOfContiguousCopyKeepsItsLayout) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "std::tuple<at::Tensor, at::Tensor> f(const at::Tensor &x) {\n"
                           "  auto xc = x.contiguous();\n"
                           "  return {at::empty_like(xc), at::empty({xc.size(0)}, xc.options())};\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.FakePython, "(torch.empty_like(x.contiguous()), "
                            "torch.empty((x.shape[0],), dtype=x.dtype, device=x.device))");
}

TEST_F(OpSignatureTest, FakeIgnoresDataWritesInLambdasAndLaunchers) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void launch(at::Tensor &o, const at::Tensor &x) { o.data_ptr(); }\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  auto out = at::empty_like(x);\n"
                           "  [&] { float *p = out.data_ptr<float>(); (void)p; }();\n"
                           "  launch(out, x);\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "torch.empty_like(x)");
}

TEST_F(OpSignatureTest, FakeOfOutParameterOpIsNone) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "void f(at::Tensor &out, const at::Tensor &x) {\n"
                           "  out.zero_();\n"
                           "}\n",
                           "f");
  EXPECT_TRUE(Sig.FakeDerived);
  EXPECT_EQ(Sig.FakePython, "None");
  EXPECT_EQ(Sig.FakeCpp, "");
}

TEST_F(OpSignatureTest, AgreeingEarlyReturnIsFine) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  at::Tensor out = at::empty_like(x);\n"
                           "  if (x.numel() == 0) return out;\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
}

TEST_F(OpSignatureTest, FakeThroughATenShapedDeclarations) {
  // ATen declares most tensor methods on `at::TensorBase`, takes sizes as
  // `const std::initializer_list &`, dtypes as `std::optional`, and has
  // defaulted trailing parameters: the same constructs, spelled that way.
  write("aten_like/ATen/ATen.h",
        "#pragma once\n"
        "#include <cstdint>\n"
        "#include <initializer_list>\n"
        "#include <optional>\n"
        "#include <tuple>\n"
        "namespace c10 {\n"
        "enum class ScalarType : int8_t { Byte, Char, Short, Int, Long, Half, Float, Double };\n"
        "constexpr auto kFloat = ScalarType::Float;\n"
        "enum class MemoryFormat { Contiguous, Preserve };\n"
        "template <typename T> class ArrayRef {\n"
        "public:\n"
        "  constexpr ArrayRef(const std::initializer_list<T> &list);\n"
        "  const T &operator[](size_t i) const;\n"
        "};\n"
        "using IntArrayRef = ArrayRef<int64_t>;\n"
        "struct TypeMeta {};\n"
        "struct Device {};\n"
        "struct TensorOptions {\n"
        "  TensorOptions();\n"
        "  TensorOptions dtype(std::optional<ScalarType> t) const noexcept;\n"
        "  TensorOptions dtype(TypeMeta t) const noexcept;\n"
        "  TensorOptions device(std::optional<Device> d) const noexcept;\n"
        "};\n"
        "} // namespace c10\n"
        "namespace at {\n"
        "using c10::IntArrayRef;\n"
        "using c10::kFloat;\n"
        "using c10::MemoryFormat;\n"
        "using c10::ScalarType;\n"
        "using c10::TensorOptions;\n"
        "class TensorBase {\n"
        "public:\n"
        "  int64_t size(int64_t dim) const;\n"
        "  IntArrayRef sizes() const;\n"
        "  int64_t numel() const;\n"
        "  ScalarType scalar_type() const;\n"
        "  c10::TypeMeta dtype() const;\n"
        "  c10::Device device() const;\n"
        "  TensorOptions options() const;\n"
        "};\n"
        "class Tensor : public TensorBase {\n"
        "public:\n"
        "  Tensor contiguous(MemoryFormat f = MemoryFormat::Contiguous) const;\n"
        "  Tensor new_empty(IntArrayRef size, TensorOptions options = {}) const;\n"
        "};\n"
        "Tensor empty(IntArrayRef size, TensorOptions options = {},\n"
        "             std::optional<MemoryFormat> f = std::nullopt);\n"
        "Tensor empty_like(const Tensor &self, TensorOptions options = {},\n"
        "                  std::optional<MemoryFormat> f = std::nullopt);\n"
        "} // namespace at\n");
  llvm::StringRef Text =
      "#include <ATen/ATen.h>\n"
      "std::tuple<at::Tensor, at::Tensor, at::Tensor> f(const at::Tensor &x) {\n"
      "  auto xc = x.contiguous();\n"
      "  auto a = at::empty({x.size(0), x.sizes()[1]}, x.options().dtype(at::kFloat));\n"
      "  auto b = at::empty_like(xc, x.options().dtype(x.dtype()).device(x.device()));\n"
      "  auto c = x.new_empty({x.numel()});\n"
      "  return {a, b, c};\n"
      "}\n";
  write("ops.cpp", Text);
  SignatureRequest Request = request();
  addEntry(Request, "ops.cpp", Text, "f");
  Request.TUFlags["ops.cpp"] = analyze::commonClangFlags(opmig::findToolchain("", {StubsDir}));
  Request.ExtraArgs = {"-std=c++17", "-isystem", Root + "/aten_like"};
  llvm::Expected<std::vector<OpSignature>> Sigs = deriveSignatures(Request);
  ASSERT_TRUE(bool(Sigs)) << llvm::toString(Sigs.takeError());
  const OpSignature &Sig = Sigs->front();
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython,
            "(torch.empty((x.shape[0], x.shape[1]), dtype=torch.float32, device=x.device), "
            "torch.empty_like(x.contiguous(), dtype=x.dtype, device=x.device), "
            "x.new_empty((x.numel(),)))");
  EXPECT_EQ(
      Sig.FakeCpp,
      "return {at::empty({x.size(0), x.size(1)}, x.options().dtype(at::ScalarType::Float)), "
      "at::empty_like(x.contiguous(), x.options().dtype(x.scalar_type()).device(x.device())), "
      "x.new_empty({x.numel()})};");
}

//===----------------------------------------------------------------------===//
// Fakes that are not derived, and why
//===----------------------------------------------------------------------===//

TEST_F(OpSignatureTest, NoFakeForDataDependentSize) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  const int64_t n = x.sum().item<int64_t>();\n"
                           "  at::Tensor out = at::empty({n}, x.options());\n"
                           "  return out;\n"
                           "}\n",
                           "f");
  EXPECT_FALSE(Sig.FakeDerived);
  EXPECT_EQ(Sig.FakeReason, "output 1 of f: dimension 0 of `out` uses `x.sum().item<int64_t>()`, "
                            "which is not an input size, a literal or a product of those");
  EXPECT_EQ(Sig.FakePython, "");
  EXPECT_EQ(Sig.FakeCpp, "");
}

TEST_F(OpSignatureTest, NoFakeWhenReturnsDisagree) {
  llvm::StringRef Text = "#include <torch/all.h>\n"
                         "at::Tensor f(const at::Tensor &x, const at::Tensor &y) {\n"
                         "  if (x.dim() == 1)\n"
                         "    return at::empty_like(x);\n"
                         "  return at::empty_like(y);\n"
                         "}\n";
  OpSignature Sig = derive(Text, "f");
  EXPECT_FALSE(Sig.FakeDerived);
  EXPECT_EQ(Sig.FakeReason,
            "the returns of f disagree: line " + std::to_string(lineOf(Text, "empty_like(x)")) +
                " returns `torch.empty_like(x)`, line " +
                std::to_string(lineOf(Text, "empty_like(y)")) + " returns `torch.empty_like(y)`");
}

TEST_F(OpSignatureTest, NoFakeForUnknownProducer) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "std::tuple<at::Tensor, at::Tensor> f(const at::Tensor &a,\n"
                           "                                     const at::Tensor &b) {\n"
                           "  at::Tensor l = at::empty_like(a);\n"
                           "  at::Tensor out = at::matmul(a, b);\n"
                           "  return {l, out};\n"
                           "}\n",
                           "f");
  EXPECT_FALSE(Sig.FakeDerived);
  EXPECT_EQ(
      Sig.FakeReason,
      "output 2 of f: `out` is computed by `at::matmul(...)`, not an allocation of input shape");
}

TEST_F(OpSignatureTest, NoFakeWhenResizedAfterAllocation) {
  llvm::StringRef Text = "#include <torch/all.h>\n"
                         "at::Tensor f(const at::Tensor &x) {\n"
                         "  at::Tensor out = at::empty_like(x);\n"
                         "  out.resize_({4});\n"
                         "  return out;\n"
                         "}\n";
  OpSignature Sig = derive(Text, "f");
  EXPECT_EQ(Sig.FakeReason, "output 1 of f: `out` is changed by `resize_` at line " +
                                std::to_string(lineOf(Text, "resize_")) + " after its allocation");
}

TEST_F(OpSignatureTest, NoFakeWhenPassedToAnOpaqueFunctionByReference) {
  llvm::StringRef Text = "#include <torch/all.h>\n"
                         "void fill(at::Tensor &o);\n"
                         "at::Tensor f(const at::Tensor &x) {\n"
                         "  at::Tensor out = at::empty_like(x);\n"
                         "  fill(out);\n"
                         "  return out;\n"
                         "}\n";
  OpSignature Sig = derive(Text, "f");
  EXPECT_EQ(Sig.FakeReason, "output 1 of f: `out` is passed by non-const reference to `fill` at "
                            "line " +
                                std::to_string(lineOf(Text, "fill(out)")) +
                                " after its allocation");
}

TEST_F(OpSignatureTest, NoFakeWhenAssignedUnderACondition) {
  llvm::StringRef Text = "#include <torch/all.h>\n"
                         "at::Tensor f(const at::Tensor &x) {\n"
                         "  at::Tensor out;\n"
                         "  if (x.dim() > 1)\n"
                         "    out = at::empty_like(x);\n"
                         "  return out;\n"
                         "}\n";
  OpSignature Sig = derive(Text, "f");
  EXPECT_EQ(Sig.FakeReason, "output 1 of f: `out` is assigned under a condition at line " +
                                std::to_string(lineOf(Text, "out = ")));
}

TEST_F(OpSignatureTest, NoFakeWhenAnInputIsReturned) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  return x;\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.FakeReason, "output 1 of f: the input `x` is returned as it is, not a new tensor");
}

TEST_F(OpSignatureTest, NoFakeForScalarOutputs) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "std::tuple<at::Tensor, int64_t> f(const at::Tensor &x) {\n"
                           "  return {at::empty_like(x), x.size(0)};\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.Schema, "(Tensor x) -> (Tensor, int)");
  EXPECT_EQ(Sig.PyReturn, "tuple[torch.Tensor, int]");
  EXPECT_EQ(Sig.FakeReason, "output 2 of f has type `int`; only tensor outputs are derived");
}

TEST_F(OpSignatureTest, NoFakeForUnknownOptions) {
  OpSignature Sig = derive("#include <torch/all.h>\n"
                           "at::TensorOptions pick_options();\n"
                           "at::Tensor f(const at::Tensor &x) {\n"
                           "  return at::empty({x.size(0)}, pick_options());\n"
                           "}\n",
                           "f");
  EXPECT_EQ(Sig.FakeReason, "output 1 of f: the options argument of the returned value uses "
                            "`pick_options()`, which is not an input's options or a dtype");
}

//===----------------------------------------------------------------------===//
// Requests
//===----------------------------------------------------------------------===//

TEST_F(OpSignatureTest, SeveralEntriesKeepTheirOrderAndOpNames) {
  llvm::StringRef A = "#include <torch/all.h>\n"
                      "void a_op(at::Tensor &out) {}\n";
  llvm::StringRef B = "#include <torch/all.h>\n"
                      "at::Tensor b_op(const at::Tensor &x) { return at::empty_like(x); }\n"
                      "void c_op(const at::Tensor &x, double eps) {}\n";
  write("b.cpp", B);
  write("a.cpp", A);
  SignatureRequest Request = request();
  addEntry(Request, "b.cpp", B, "b_op");
  addEntry(Request, "a.cpp", A, "a_op");
  addEntry(Request, "b.cpp", B, "c_op");
  Request.OpNames = {"first", "second", "third"};
  llvm::Expected<std::vector<OpSignature>> Sigs = deriveSignatures(Request);
  ASSERT_TRUE(bool(Sigs)) << llvm::toString(Sigs.takeError());
  ASSERT_EQ(Sigs->size(), 3u);
  EXPECT_EQ((*Sigs)[0].OpName, "first");
  EXPECT_EQ((*Sigs)[0].Schema, "(Tensor x) -> Tensor");
  EXPECT_EQ((*Sigs)[1].OpName, "second");
  EXPECT_EQ((*Sigs)[1].Schema, "(Tensor(a!) out) -> ()");
  EXPECT_EQ((*Sigs)[2].OpName, "third");
  EXPECT_EQ((*Sigs)[2].Schema, "(Tensor x, float eps) -> ()");
}

TEST_F(OpSignatureTest, EntryWithoutDefinitionAtItsLineIsAnInputError) {
  llvm::StringRef Text = "#include <torch/all.h>\n"
                         "void f(at::Tensor &out) {}\n";
  write("ops.cpp", Text);
  SignatureRequest Request = request();
  addEntry(Request, "ops.cpp", Text, "f");
  Request.Entries.front().Loc.Line = 1;
  llvm::Expected<std::vector<OpSignature>> Sigs = deriveSignatures(Request);
  ASSERT_FALSE(bool(Sigs));
  llvm::Error Err = Sigs.takeError();
  EXPECT_TRUE(Err.isA<InputError>());
  EXPECT_EQ(llvm::toString(std::move(Err)),
            "entry `f`: no definition at ops.cpp:1 in the parse of that file");
}

//===----------------------------------------------------------------------===//
// The bundled sample
//===----------------------------------------------------------------------===//

class SampleSignatureTest : public ::testing::Test {
protected:
  /// The sample's analysis is shared: it parses the whole tree.
  static void SetUpTestSuite() {
    analyze::AnalyzeOptions Options;
    Options.SourceRoot = std::string(OPMIG_SOURCE_DIR) + "/samples/upstream";
    Options.Entries = {"merge_attn_states", "rms_norm"};
    // A non-empty torch option skips the probe for an installed torch, as
    // OPMIG_NO_TORCH does for the tool; the stand-ins come in as extra args.
    Options.TorchIncludeDirs = {StubsDir};
    Options.ExtraArgs = {"-isystem", StubsDir};
    llvm::Expected<analyze::AnalysisResult> Result = analyze::analyzeClosure(Options);
    if (!Result) {
      Failure = llvm::toString(Result.takeError());
      return;
    }
    SignatureRequest Request;
    Request.SourceRoot = Result->SourceRoot;
    Request.Entries = Result->Entries;
    for (const analyze::ResolvedEntry &Entry : Result->Entries)
      Request.OpNames.push_back(Entry.Function);
    Request.TUFlags = Result->TUFlags;
    Request.ExternalDirs = Result->SubmoduleDirs;
    llvm::Expected<std::vector<OpSignature>> Derived = deriveSignatures(Request);
    if (!Derived) {
      Failure = llvm::toString(Derived.takeError());
      return;
    }
    Sigs = std::move(*Derived);
  }

  void SetUp() override {
    ASSERT_EQ(Failure, "");
    ASSERT_EQ(Sigs.size(), 2u);
  }

  static inline std::vector<OpSignature> Sigs;
  static inline std::string Failure;
};

TEST_F(SampleSignatureTest, MergeAttnStates) {
  const OpSignature &Sig = Sigs[0];
  EXPECT_EQ(Sig.OpName, "merge_attn_states");
  EXPECT_EQ(Sig.Schema, "(Tensor v_a, Tensor lse_a, Tensor v_b, Tensor lse_b) -> (Tensor, Tensor)");
  EXPECT_EQ(Sig.PyReturn, "tuple[torch.Tensor, torch.Tensor]");
  EXPECT_EQ(Sig.CppDeclaration,
            "std::tuple<at::Tensor, at::Tensor> merge_attn_states(const at::Tensor &v_a, "
            "const at::Tensor &lse_a, const at::Tensor &v_b, const at::Tensor &lse_b)");
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "(torch.empty_like(v_a), torch.empty((v_a.shape[0], v_a.shape[1]), "
                            "dtype=lse_a.dtype, device=lse_a.device))");
  EXPECT_EQ(Sig.FakeCpp, "return {at::empty_like(v_a), at::empty({v_a.size(0), v_a.size(1)}, "
                         "lse_a.options())};");
}

TEST_F(SampleSignatureTest, RmsNorm) {
  const OpSignature &Sig = Sigs[1];
  EXPECT_EQ(Sig.OpName, "rms_norm");
  // As the sample's own registration defines it.
  EXPECT_EQ(Sig.Schema, "(Tensor x, Tensor weight, float eps) -> Tensor");
  EXPECT_EQ(Sig.PyReturn, "torch.Tensor");
  ASSERT_EQ(Sig.Params.size(), 3u);
  EXPECT_EQ(Sig.Params[2].PyAnnotation, "float");
  EXPECT_EQ(Sig.CppDeclaration,
            "at::Tensor rms_norm(const at::Tensor &x, const at::Tensor &weight, double eps)");
  // Two returns (an early one for empty input), both of `out`.
  EXPECT_TRUE(Sig.FakeDerived) << Sig.FakeReason;
  EXPECT_EQ(Sig.FakePython, "torch.empty_like(x)");
  EXPECT_EQ(Sig.FakeCpp, "return at::empty_like(x);");
}

} // namespace
