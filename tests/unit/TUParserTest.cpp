//===- TUParserTest.cpp - Tests for the facts one parse extracts ----------===//
//
// Each test writes a tiny tree into a fresh temporary directory, parses one
// TU of it and checks one fact. Host C++ (`.cpp`) keeps most parses in the
// tens of milliseconds; only the CUDA cases parse a `.cu` against the real
// toolkit.
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/TUParser.h"

#include "opmig/analyze/CompileFlags.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::analyze;

namespace {

using Names = std::set<std::string>;

std::string makeTempDir(llvm::StringRef Prefix) {
  llvm::SmallString<128> Created, Real;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory(Prefix, Created));
  // Facts name files by real path (the temp dir may sit behind a symlink).
  EXPECT_FALSE(llvm::sys::fs::real_path(Created, Real));
  return std::string(Real);
}

class TUParserTest : public ::testing::Test {
protected:
  void SetUp() override {
    Root = makeTempDir("opmig-tuparser");
    Outside = makeTempDir("opmig-tuparser-outside");
  }
  void TearDown() override {
    llvm::sys::fs::remove_directories(Root);
    llvm::sys::fs::remove_directories(Outside);
  }

  /// Writes `Text` to `Relative` under `Dir` (parents created); returns the
  /// absolute path.
  static std::string writeIn(const std::string &Dir, llvm::StringRef Relative,
                             llvm::StringRef Text) {
    std::string File = Dir + "/" + Relative.str();
    EXPECT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(File)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    EXPECT_FALSE(EC) << File;
    OS << Text;
    return File;
  }
  std::string write(llvm::StringRef Relative, llvm::StringRef Text) {
    return writeIn(Root, Relative, Text);
  }

  ParseRequest request(const std::string &MainFile, std::vector<std::string> Flags) const {
    ParseRequest Request;
    Request.MainFile = MainFile;
    Request.SourceRoot = Root;
    Request.Directory = Root;
    Request.Flags = std::move(Flags);
    return Request;
  }

  /// Parses a host C++ TU: no CUDA, no system headers needed.
  TUFacts parseCpp(const std::string &MainFile, std::vector<std::string> Extra = {}) const {
    std::vector<std::string> Flags = {"-std=c++17"};
    Flags.insert(Flags.end(), Extra.begin(), Extra.end());
    return parseTranslationUnit(request(MainFile, Flags));
  }

  /// Parses a `.cu` TU for one side against the real toolkit.
  TUFacts parseCuda(const std::string &MainFile, ParseSide Side) const {
    // A non-empty torch option skips the python probe for torch (seconds);
    // commonClangFlags does not use the torch dirs anyway.
    ToolchainPaths Toolchain = findToolchain("", {Outside});
    std::vector<std::string> Flags = commonClangFlags(Toolchain);
    Flags.push_back("-std=c++17");
    ParseRequest Request = request(MainFile, Flags);
    Request.Side = Side;
    return parseTranslationUnit(Request);
  }

  std::string Root, Outside;
};

/// USR of the symbol named `Name`; "<none>" (and a failure) when absent, so
/// that comparisons against it cannot pass by accident.
std::string usrOf(const TUFacts &Facts, llvm::StringRef Name) {
  for (const auto &[Usr, Sym] : Facts.Symbols)
    if (Sym.Name == Name && Sym.Kind != SymbolKind::Macro)
      return Usr;
  ADD_FAILURE() << "no symbol named " << Name.str();
  return "<none>";
}

const SymbolFact &symbolNamed(const TUFacts &Facts, llvm::StringRef Name) {
  static const SymbolFact None;
  auto It = Facts.Symbols.find(usrOf(Facts, Name));
  return It == Facts.Symbols.end() ? None : It->second;
}

/// The references of `Name`'s definition, by qualified name (macro ids kept
/// as they are: they carry the defining file and line).
Names refsOf(const TUFacts &Facts, llvm::StringRef Name) {
  Names Result;
  for (const std::string &Ref : symbolNamed(Facts, Name).Refs) {
    auto It = Facts.Symbols.find(Ref);
    Result.insert(
        It == Facts.Symbols.end() || It->second.Kind == SymbolKind::Macro ? Ref : It->second.Name);
  }
  return Result;
}

/// Qualified names of every non-macro symbol the parse recorded.
Names symbolNames(const TUFacts &Facts) {
  Names Result;
  for (const auto &[Usr, Sym] : Facts.Symbols)
    if (Sym.Kind != SymbolKind::Macro)
      Result.insert(Sym.Name);
  return Result;
}

std::string macroId(llvm::StringRef Name, const std::string &File, unsigned Line) {
  return "macro:" + Name.str() + "@" + File + ":" + std::to_string(Line);
}

//===----------------------------------------------------------------------===//
// Definitions and their references
//===----------------------------------------------------------------------===//

TEST_F(TUParserTest, FunctionDefinitionHasKindFileLineAndRange) {
  llvm::StringRef Text = "// leading comment\n"
                         "namespace ns {\n"
                         "int answer() { return 42; }\n"
                         "}\n";
  std::string Main = write("a.cpp", Text);
  TUFacts Facts = parseCpp(Main);
  ASSERT_TRUE(Facts.Completed);
  const SymbolFact &Answer = symbolNamed(Facts, "ns::answer");
  EXPECT_EQ(Answer.Kind, SymbolKind::Function);
  EXPECT_TRUE(Answer.IsDefinition);
  EXPECT_EQ(Answer.File, Main);
  EXPECT_EQ(Answer.Line, 3u);
  // The range runs from `int` to just past the body's closing brace.
  EXPECT_EQ(Answer.BeginOffset, Text.find("int answer"));
  EXPECT_EQ(Answer.EndOffset, Text.find("}\n}") + 1);
}

TEST_F(TUParserTest, FunctionReferencesItsCallee) {
  std::string Main = write("a.cpp", "int helper(int V) { return V + 1; }\n"
                                    "int caller() { return helper(1); }\n");
  EXPECT_EQ(refsOf(parseCpp(Main), "caller"), Names{"helper"});
}

TEST_F(TUParserTest, FunctionReferencesTypesItUses) {
  std::string Main = write("a.cpp", "namespace geo {\n"
                                    "struct Point { int X; };\n"
                                    "}\n"
                                    "int norm(const geo::Point &P) { return P.X; }\n");
  EXPECT_EQ(refsOf(parseCpp(Main), "norm"), Names{"geo::Point"});
}

TEST_F(TUParserTest, EnumeratorUseReferencesTheEnum) {
  std::string Main = write("a.cpp", "enum class Mode { Fast, Slow };\n"
                                    "bool isFast(int M) { return M == (int)Mode::Fast; }\n");
  EXPECT_EQ(refsOf(parseCpp(Main), "isFast"), Names{"Mode"});
}

TEST_F(TUParserTest, TypedefAndUsingAliasesAreReferenced) {
  std::string Main = write("a.cpp", "typedef float Real;\n"
                                    "using Index = long;\n"
                                    "Real at(Index I) { return (Real)I; }\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_EQ(refsOf(Facts, "at"), (Names{"Real", "Index"}));
  EXPECT_EQ(symbolNamed(Facts, "Index").Kind, SymbolKind::Alias);
}

TEST_F(TUParserTest, GlobalConstexprVariableIsReferenced) {
  std::string Main = write("a.cpp", "constexpr int BlockSize = 128;\n"
                                    "int blocks(int N) { return N / BlockSize; }\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_EQ(refsOf(Facts, "blocks"), Names{"BlockSize"});
  EXPECT_EQ(symbolNamed(Facts, "BlockSize").Kind, SymbolKind::Variable);
}

TEST_F(TUParserTest, ConstructorCallReferencesConstructorAndClass) {
  std::string Main = write("a.cpp", "class Timer {\n"
                                    "public:\n"
                                    "  explicit Timer(int Ticks) : Ticks(Ticks) {}\n"
                                    "  int Ticks;\n"
                                    "};\n"
                                    "int run() { Timer T(3); return T.Ticks; }\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_EQ(refsOf(Facts, "run"), (Names{"Timer", "Timer::Timer"}));
  EXPECT_EQ(symbolNamed(Facts, "Timer::Timer").Parent, usrOf(Facts, "Timer"));
}

TEST_F(TUParserTest, OutOfLineMembersNameTheirClassAsParent) {
  std::string Main = write("a.cpp", "struct Box {\n"
                                    "  int get() const;\n"
                                    "  static int Count;\n"
                                    "};\n"
                                    "int Box::get() const { return Count; }\n"
                                    "int Box::Count = 0;\n");
  TUFacts Facts = parseCpp(Main);
  std::string Box = usrOf(Facts, "Box");
  const SymbolFact &Get = symbolNamed(Facts, "Box::get");
  EXPECT_EQ(Get.Parent, Box);
  EXPECT_TRUE(Get.IsDefinition);
  EXPECT_EQ(Get.Line, 5u);
  const SymbolFact &Count = symbolNamed(Facts, "Box::Count");
  EXPECT_EQ(Count.Parent, Box);
  EXPECT_TRUE(Count.IsDefinition);
  EXPECT_EQ(Count.Line, 6u);
}

TEST_F(TUParserTest, FunctionPointerInGlobalArrayIsARefOfTheArray) {
  std::string Main = write("a.cpp", "int one() { return 1; }\n"
                                    "int two() { return 2; }\n"
                                    "int three() { return 3; }\n"
                                    "int (*const Table[])() = {one, two};\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_EQ(refsOf(Facts, "Table"), (Names{"one", "two"}));
  EXPECT_EQ(symbolNamed(Facts, "Table").Kind, SymbolKind::Variable);
}

//===----------------------------------------------------------------------===//
// Templates
//===----------------------------------------------------------------------===//

TEST_F(TUParserTest, SpecializationOfInvisibleTemplateIsRecordedOnUser) {
  // Only declared here: another TU must provide convert<float>; its explicit
  // instantiation there must name the same specialization USR.
  std::string Header = write("convert.h", "template <typename T> T convert(T V);\n");
  std::string User = write("user.cpp", "#include \"convert.h\"\n"
                                       "float use(float V) { return convert<float>(V); }\n");
  std::string Provider =
      write("provider.cpp", "#include \"convert.h\"\n"
                            "template <typename T> T convert(T V) { return V; }\n"
                            "template float convert<float>(float);\n");
  TUFacts UserFacts = parseCpp(User), ProviderFacts = parseCpp(Provider);
  ASSERT_EQ(ProviderFacts.Instantiations.size(), 1u);
  const InstantiationFact &Provided = ProviderFacts.Instantiations.front();
  const SymbolFact &Use = symbolNamed(UserFacts, "use");
  EXPECT_EQ(Use.Specializations,
            (std::map<std::string, std::string>{{Provided.Specialization, Provided.Template}}));
  EXPECT_EQ(Provided.Template, usrOf(UserFacts, "convert"));
  EXPECT_EQ(symbolNamed(UserFacts, "convert").Kind, SymbolKind::Template);
  EXPECT_EQ(symbolNamed(UserFacts, "convert").File, Header);
}

TEST_F(TUParserTest, SpecializationUsedInGenericLambdaIsRecorded) {
  // A dtype dispatch through `[&](auto Tag) {...}`: the call to convert<T>
  // only exists in the lambda's instantiation for float.
  write("convert.h", "template <typename T> T convert(T V);\n");
  std::string User =
      write("user.cpp", "#include \"convert.h\"\n"
                        "template <typename F> void dispatch(F Fn) { Fn(1.0f); }\n"
                        "void use() {\n"
                        "  dispatch([&](auto Tag) { convert<decltype(Tag)>(Tag); });\n"
                        "}\n");
  TUFacts Facts = parseCpp(User);
  const SymbolFact &Use = symbolNamed(Facts, "use");
  ASSERT_EQ(Use.Specializations.size(), 1u);
  EXPECT_EQ(Use.Specializations.begin()->second, usrOf(Facts, "convert"));
}

TEST_F(TUParserTest, VisibleTemplateBodyRecordsNoSpecialization) {
  // The using TU generates the code itself: no other TU is needed.
  std::string Main = write("a.cpp", "template <typename T> T twice(T V) { return V + V; }\n"
                                    "float use(float V) { return twice(V); }\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_TRUE(symbolNamed(Facts, "use").Specializations.empty());
  EXPECT_EQ(refsOf(Facts, "use"), Names{"twice"});
}

TEST_F(TUParserTest, ExplicitInstantiationRecordsFileAndLine) {
  std::string Main = write("inst.cpp", "template <typename T> T twice(T V) { return V + V; }\n"
                                       "\n"
                                       "template float twice<float>(float);\n");
  TUFacts Facts = parseCpp(Main);
  ASSERT_EQ(Facts.Instantiations.size(), 1u);
  const InstantiationFact &Inst = Facts.Instantiations.front();
  EXPECT_EQ(Inst.Template, usrOf(Facts, "twice"));
  EXPECT_NE(Inst.Specialization, Inst.Template);
  EXPECT_EQ(Inst.File, Main);
  EXPECT_EQ(Inst.Line, 3u);
}

TEST_F(TUParserTest, ExplicitSpecializationRecordsInstantiation) {
  std::string Main = write("spec.cpp", "template <typename T> T zero() { return T(); }\n"
                                       "template <>\n"
                                       "float zero<float>() { return 0.0f; }\n");
  TUFacts Facts = parseCpp(Main);
  ASSERT_EQ(Facts.Instantiations.size(), 1u);
  const InstantiationFact &Inst = Facts.Instantiations.front();
  EXPECT_EQ(Inst.Template, usrOf(Facts, "zero"));
  EXPECT_NE(Inst.Specialization, Inst.Template);
  EXPECT_EQ(Inst.File, Main);
  EXPECT_EQ(Inst.Line, 3u);
}

TEST_F(TUParserTest, ExplicitClassTemplateInstantiationRecordsFileAndLine) {
  std::string Main = write("vec.cpp", "template <typename T> struct Vec { T X; };\n"
                                      "template struct Vec<float>;\n");
  TUFacts Facts = parseCpp(Main);
  ASSERT_EQ(Facts.Instantiations.size(), 1u);
  const InstantiationFact &Inst = Facts.Instantiations.front();
  EXPECT_EQ(Inst.Template, usrOf(Facts, "Vec"));
  EXPECT_NE(Inst.Specialization, Inst.Template);
  EXPECT_EQ(Inst.File, Main);
  EXPECT_EQ(Inst.Line, 2u);
}

//===----------------------------------------------------------------------===//
// Macros
//===----------------------------------------------------------------------===//

TEST_F(TUParserTest, MacroExpandedInFunctionIsARefOfIt) {
  std::string Main = write("a.cpp", "#define SQUARE(X) ((X) * (X))\n"
                                    "int area(int S) { return SQUARE(S); }\n");
  TUFacts Facts = parseCpp(Main);
  std::string Id = macroId("SQUARE", Main, 1);
  EXPECT_EQ(refsOf(Facts, "area"), Names{Id});
  ASSERT_TRUE(Facts.Symbols.count(Id));
  EXPECT_EQ(Facts.Symbols.at(Id).Kind, SymbolKind::Macro);
  EXPECT_TRUE(Facts.FileScopeRefs.empty());
}

TEST_F(TUParserTest, MacroExpandedAtFileScopeLandsInFileScopeRefs) {
  std::string Main = write("a.cpp", "#define VERSION 3\n"
                                    "static_assert(VERSION == 3, \"version\");\n"
                                    "int other() { return 0; }\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_EQ(Facts.FileScopeRefs,
            (std::map<std::string, Names>{{Main, {macroId("VERSION", Main, 1)}}}));
  EXPECT_EQ(refsOf(Facts, "other"), Names{});
}

TEST_F(TUParserTest, IfdefOfTreeMacroIsARef) {
  std::string Main = write("a.cpp", "#define USE_FAST\n"
                                    "int pick() {\n"
                                    "#ifdef USE_FAST\n"
                                    "  return 1;\n"
                                    "#else\n"
                                    "  return 2;\n"
                                    "#endif\n"
                                    "}\n");
  EXPECT_EQ(refsOf(parseCpp(Main), "pick"), Names{macroId("USE_FAST", Main, 1)});
}

TEST_F(TUParserTest, DefinedOfTreeMacroIsARef) {
  std::string Main = write("a.cpp", "#define WITH_FP8 1\n"
                                    "int pick() {\n"
                                    "#if defined(WITH_FP8)\n"
                                    "  return 8;\n"
                                    "#endif\n"
                                    "  return 16;\n"
                                    "}\n");
  EXPECT_EQ(refsOf(parseCpp(Main), "pick"), Names{macroId("WITH_FP8", Main, 1)});
}

TEST_F(TUParserTest, CudaArchBranchIsReferencedOnlyOnDeviceSide) {
  std::string Main = write("k.cu", "__host__ __device__ int fastPath() { return 1; }\n"
                                   "__host__ __device__ int slowPath() { return 2; }\n"
                                   "__host__ __device__ int pick() {\n"
                                   "#ifdef __CUDA_ARCH__\n"
                                   "  return fastPath();\n"
                                   "#else\n"
                                   "  return slowPath();\n"
                                   "#endif\n"
                                   "}\n");
  TUFacts Host = parseCuda(Main, ParseSide::Host);
  TUFacts Device = parseCuda(Main, ParseSide::Device);
  ASSERT_TRUE(Host.Errors.empty()) << Host.Errors.front().Message;
  ASSERT_TRUE(Device.Errors.empty()) << Device.Errors.front().Message;
  EXPECT_EQ(refsOf(Host, "pick"), Names{"slowPath"});
  EXPECT_EQ(refsOf(Device, "pick"), Names{"fastPath"});
}

//===----------------------------------------------------------------------===//
// CUDA kernels
//===----------------------------------------------------------------------===//

TEST_F(TUParserTest, KernelHasKindKernelAndItsLaunchIsARef) {
  std::string Main = write("k.cu", "__global__ void fill(float *X) { X[threadIdx.x] = 1; }\n"
                                   "void launch(float *X) { fill<<<1, 32>>>(X); }\n");
  TUFacts Facts = parseCuda(Main, ParseSide::Host);
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  EXPECT_EQ(symbolNamed(Facts, "fill").Kind, SymbolKind::Kernel);
  EXPECT_EQ(symbolNamed(Facts, "launch").Kind, SymbolKind::Function);
  EXPECT_EQ(refsOf(Facts, "launch"), Names{"fill"});
}

//===----------------------------------------------------------------------===//
// Pointer fields written through (PointerFieldWrites.h)
//===----------------------------------------------------------------------===//

/// The fields of `Params` (see below) that `Body`'s functions write through,
/// by name.
Names writtenFields(const TUFacts &Facts) {
  Names Fields;
  for (const std::string &Usr : Facts.WrittenPointerFields)
    Fields.insert(Usr.substr(Usr.rfind('@') + 1));
  return Fields;
}

constexpr llvm::StringLiteral ParamsStruct = R"cpp(
struct Params {
  void *__restrict__ x_ptr;
  void *__restrict__ out_ptr;
  void *state_ptr;
  int *index_ptr;
  float *bias_ptr;
  int n;
};
)cpp";

TEST_F(TUParserTest, FieldsWrittenThroughLocalsCastsAndArithmetic) {
  std::string Main =
      write("k.cpp", ParamsStruct.str() + "template <typename T> void kernel(Params p, int i) {\n"
                                          "  T *out = reinterpret_cast<T *>(p.out_ptr) + i * p.n;\n"
                                          "  T *x = static_cast<T *>(p.x_ptr) + i;\n"
                                          "  T *state = nullptr;\n"
                                          "  state = (T *)p.state_ptr;\n"
                                          "  out[0] = x[0] + (p.bias_ptr ? p.bias_ptr[i] : 0);\n"
                                          "  ++state[i];\n"
                                          "  float first = p.index_ptr[i];\n"
                                          "  (void)first;\n"
                                          "}\n"
                                          "template void kernel<float>(Params, int);\n");
  TUFacts Facts = parseCpp(Main);
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  // x, bias and index are only read.
  EXPECT_EQ(writtenFields(Facts), (Names{"out_ptr", "state_ptr"}));
}

TEST_F(TUParserTest, FieldsWrittenDirectlyOrThroughAPointerToTheStruct) {
  std::string Main =
      write("k.cpp", ParamsStruct.str() + "struct Pair { float a, b; };\n"
                                          "void direct(Params p) { p.index_ptr[0] = 1; }\n"
                                          "void arrow(const Params *p) {\n"
                                          "  *static_cast<float *>(p->out_ptr) = 2;\n"
                                          "  reinterpret_cast<Pair *>(p->state_ptr)->b = 3;\n"
                                          "  p->bias_ptr[1] += 4;\n"
                                          "}\n");
  TUFacts Facts = parseCpp(Main);
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  EXPECT_EQ(writtenFields(Facts), (Names{"index_ptr", "out_ptr", "state_ptr", "bias_ptr"}));
}

TEST_F(TUParserTest, FieldsPassedToCalleesAreFollowedWhereVisible) {
  std::string Main =
      write("k.cpp", ParamsStruct.str() + "void store(float *dst, float v) { dst[0] = v; }\n"
                                          "float load(float *src) { return src[0]; }\n"
                                          "void opaque(float *p);\n"
                                          "void body(Params p) {\n"
                                          "  store(static_cast<float *>(p.out_ptr), 1);\n"
                                          "  float v = load(static_cast<float *>(p.x_ptr));\n"
                                          "  opaque(p.bias_ptr);\n"
                                          "  (void)v;\n"
                                          "}\n");
  TUFacts Facts = parseCpp(Main);
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  // `load` only reads; `opaque` has no body, so it may write.
  EXPECT_EQ(writtenFields(Facts), (Names{"out_ptr", "bias_ptr"}));
}

TEST_F(TUParserTest, FieldsWrittenByAKernelTakingParamsByValue) {
  std::string Main =
      write("k.cu", ParamsStruct.str() +
                        "template <int kWidth, typename T> __global__ void update(Params p) {\n"
                        "  T *state = reinterpret_cast<T *>(p.state_ptr) + blockIdx.x * p.n;\n"
                        "  const T *x = reinterpret_cast<const T *>(p.x_ptr);\n"
                        "  for (int i = 0; i < kWidth; ++i) state[i] = x[i];\n"
                        "}\n"
                        "void launch(Params &p) { update<4, float><<<1, 32>>>(p); }\n");
  TUFacts Facts = parseCuda(Main, ParseSide::Host);
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  EXPECT_EQ(writtenFields(Facts), Names{"state_ptr"});
}

//===----------------------------------------------------------------------===//
// Registrations
//===----------------------------------------------------------------------===//

/// Enough of torch/library.h for registrations to type-check.
constexpr llvm::StringLiteral TorchLibraryStub = R"cpp(#pragma once
namespace torch {
class Library {
public:
  Library &def(const char *Schema);
  template <class F> Library &def(const char *Schema, F &&Fn);
  template <class F> Library &impl(const char *Name, F &&Fn);
};
} // namespace torch
namespace c10 {
template <class FuncType, FuncType *FuncPtr> struct CompileTimeFunctionPointer {};
} // namespace c10
#define TORCH_FN(func) ::c10::CompileTimeFunctionPointer<decltype(func), func>()
#define TORCH_LIBRARY(ns, m) void TORCH_LIBRARY_init_##ns(torch::Library &m)
)cpp";

/// Enough of pybind11.h for a module definition to type-check.
constexpr llvm::StringLiteral PybindStub = R"cpp(#pragma once
namespace pybind11 {
class module_ {
public:
  template <class F, class... Extra> module_ &def(const char *Name, F &&Fn, const Extra &...);
};
} // namespace pybind11
#define PYBIND11_MODULE(name, m) void pybind11_init_##name(pybind11::module_ &m)
)cpp";

TEST_F(TUParserTest, TorchDefAndImplRecordRegistrations) {
  write("stub/torch/library.h", TorchLibraryStub);
  std::string Main = write("reg.cpp", "#include <torch/library.h>\n"
                                      "int fn(int X) { return X; }\n"
                                      "int fn2(int X) { return -X; }\n"
                                      "TORCH_LIBRARY(myops, m) {\n"
                                      "  m.def(\"op(Tensor x) -> Tensor\");\n"
                                      "  m.impl(\"op\", &fn);\n"
                                      "  m.def(\"ns2::op2\", &fn2);\n"
                                      "}\n");
  TUFacts Facts = parseCpp(Main, {"-I" + Root + "/stub"});
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  ASSERT_EQ(Facts.Registrations.size(), 3u);
  const RegistrationFact &Def = Facts.Registrations[0], &Impl = Facts.Registrations[1],
                         &Def2 = Facts.Registrations[2];
  EXPECT_EQ(Def.Via, "torch-op");
  EXPECT_EQ(Def.Namespace, "myops");
  EXPECT_EQ(Def.OpName, "op");
  EXPECT_EQ(Def.Function, "");
  EXPECT_EQ(Def.File, Main);
  EXPECT_EQ(Def.Line, 5u);
  EXPECT_EQ(Impl.Via, "torch-op");
  EXPECT_EQ(Impl.Namespace, "myops");
  EXPECT_EQ(Impl.OpName, "op");
  EXPECT_EQ(Impl.Function, usrOf(Facts, "fn"));
  EXPECT_EQ(Impl.Line, 6u);
  EXPECT_EQ(Def2.Via, "torch-op");
  EXPECT_EQ(Def2.Namespace, "ns2");
  EXPECT_EQ(Def2.OpName, "op2");
  EXPECT_EQ(Def2.Function, usrOf(Facts, "fn2"));
  EXPECT_EQ(Def2.Line, 7u);
}

TEST_F(TUParserTest, TorchFnImplBindsTheFunctionTemplateArgument) {
  // TORCH_FN(f) passes `f` as a template argument, not as a call argument.
  write("stub/torch/library.h", TorchLibraryStub);
  std::string Main = write("reg.cpp", "#include <torch/library.h>\n"
                                      "int fn(int X) { return X; }\n"
                                      "TORCH_LIBRARY(myops, m) {\n"
                                      "  m.impl(\"op\", TORCH_FN(fn));\n"
                                      "}\n");
  TUFacts Facts = parseCpp(Main, {"-I" + Root + "/stub"});
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  ASSERT_EQ(Facts.Registrations.size(), 1u);
  EXPECT_EQ(Facts.Registrations[0].OpName, "op");
  EXPECT_EQ(Facts.Registrations[0].Function, usrOf(Facts, "fn"));
}

TEST_F(TUParserTest, PybindDefRecordsRegistrationInModuleNamespace) {
  write("stub/pybind11/pybind11.h", PybindStub);
  std::string Main = write("mod.cpp", "#include <pybind11/pybind11.h>\n"
                                      "int forward(int X) { return X; }\n"
                                      "PYBIND11_MODULE(my_ext, m) {\n"
                                      "  m.def(\"forward\", &forward, \"doc\");\n"
                                      "}\n");
  TUFacts Facts = parseCpp(Main, {"-I" + Root + "/stub"});
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  ASSERT_EQ(Facts.Registrations.size(), 1u);
  const RegistrationFact &Reg = Facts.Registrations.front();
  EXPECT_EQ(Reg.Via, "pybind");
  EXPECT_EQ(Reg.Namespace, "my_ext");
  EXPECT_EQ(Reg.OpName, "forward");
  EXPECT_EQ(Reg.Function, usrOf(Facts, "forward"));
  EXPECT_EQ(Reg.Line, 4u);
}

//===----------------------------------------------------------------------===//
// Includes and errors
//===----------------------------------------------------------------------===//

TEST_F(TUParserTest, InTreeIncludeIsResolved) {
  std::string Header = write("inc/util.h", "inline int util() { return 1; }\n");
  std::string Main = write("a.cpp", "#include \"inc/util.h\"\n"
                                    "int user() { return util(); }\n");
  TUFacts Facts = parseCpp(Main);
  ASSERT_EQ(Facts.Includes.size(), 1u);
  const IncludeFact &Include = Facts.Includes.front();
  EXPECT_EQ(Include.Includer, Main);
  EXPECT_EQ(Include.Line, 1u);
  EXPECT_EQ(Include.Spelling, "inc/util.h");
  EXPECT_FALSE(Include.Angled);
  EXPECT_EQ(Include.Resolved, Header);
  EXPECT_FALSE(Include.HasIncludeOnly);
  EXPECT_EQ(refsOf(Facts, "user"), Names{"util"});
}

TEST_F(TUParserTest, MissingIncludeDoesNotStopTheParse) {
  std::string Main = write("a.cpp", "#include <absent/x.h>\n"
                                    "int after() { return 0; }\n"
                                    "int later() { return after(); }\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_TRUE(Facts.Completed);
  ASSERT_EQ(Facts.Includes.size(), 1u);
  const IncludeFact &Include = Facts.Includes.front();
  EXPECT_EQ(Include.Spelling, "absent/x.h");
  EXPECT_TRUE(Include.Angled);
  EXPECT_EQ(Include.Resolved, "");
  EXPECT_EQ(refsOf(Facts, "later"), Names{"after"});
}

TEST_F(TUParserTest, SyntaxErrorYieldsDiagnosticAndTheRestOfTheFacts) {
  std::string Main = write("a.cpp", "int good() { return 1; }\n"
                                    "int bad() { return 1 +; }\n"
                                    "int later() { return good(); }\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_TRUE(Facts.Completed);
  ASSERT_EQ(Facts.Errors.size(), 1u);
  const ParseErrorFact &Diag = Facts.Errors.front();
  EXPECT_EQ(Diag.File, Main);
  EXPECT_EQ(Diag.Line, 2u);
  EXPECT_EQ(Diag.Message, "expected expression");
  EXPECT_EQ(refsOf(Facts, "later"), Names{"good"});
}

//===----------------------------------------------------------------------===//
// What is not a tree symbol
//===----------------------------------------------------------------------===//

TEST_F(TUParserTest, BuiltinsAndImplicitMembersAreNotTreeSymbols) {
  // The copy uses Pod's implicit copy constructor: it folds into Pod.
  std::string Main = write("a.cpp", "struct Pod { int V; };\n"
                                    "float inf() { return __builtin_inff(); }\n"
                                    "Pod copy(const Pod &P) { Pod Q = P; return Q; }\n");
  TUFacts Facts = parseCpp(Main);
  EXPECT_EQ(symbolNames(Facts), (Names{"Pod", "inf", "copy"}));
  EXPECT_EQ(refsOf(Facts, "inf"), Names{});
  EXPECT_EQ(refsOf(Facts, "copy"), Names{"Pod"});
}

TEST_F(TUParserTest, SymbolsOutsideSourceRootAreNotRecorded) {
  writeIn(Outside, "ext.h",
          "struct ExtType { int V; };\n"
          "inline int external() { return 1; }\n");
  std::string Main = write("a.cpp", "#include \"ext.h\"\n"
                                    "int inside() { ExtType E{2}; return E.V + external(); }\n");
  TUFacts Facts = parseCpp(Main, {"-I" + Outside});
  ASSERT_TRUE(Facts.Errors.empty()) << Facts.Errors.front().Message;
  EXPECT_EQ(symbolNames(Facts), Names{"inside"});
  EXPECT_EQ(refsOf(Facts, "inside"), Names{});
}

TEST_F(TUParserTest, ExternalDirsAreExcluded) {
  write("third_party/vendor.h", "inline int vendored() { return 1; }\n");
  std::string Main = write("a.cpp", "#include \"third_party/vendor.h\"\n"
                                    "int user() { return vendored(); }\n");
  ParseRequest Request = request(Main, {"-std=c++17"});
  // Without the exclusion the vendored function is a tree symbol.
  EXPECT_EQ(symbolNames(parseTranslationUnit(Request)), (Names{"user", "vendored"}));
  Request.ExternalDirs = {Root + "/third_party"};
  TUFacts Facts = parseTranslationUnit(Request);
  EXPECT_EQ(symbolNames(Facts), Names{"user"});
  EXPECT_EQ(refsOf(Facts, "user"), Names{});
}

} // namespace
