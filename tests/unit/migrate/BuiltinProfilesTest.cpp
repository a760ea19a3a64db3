//===- BuiltinProfilesTest.cpp - The built-in profiles on their targets ---===//
//
// Renders each built-in profile into a copy of its fixture target
// (tests/fixtures/targets/) with a context built by hand, as the migrate
// pipeline would build it for two ops: `merge_attn_states`, whose fake is
// derived, and `scatter_tokens`, whose fake is not. Checks what the specs
// ask of the result: generated Python compiles, generated C++ parses against
// the stand-in headers, the cache-dit domain module has the spec's sections
// in order, fakes are `_fake_<op>`, namespaces are the profile's, the blocks
// land where the target's conventions want them, and a second render over
// the first one's output changes nothing.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/Profile.h"
#include "opmig/migrate/TargetEdits.h"
#include "opmig/migrate/TemplateRenderer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <optional>

namespace opmig::migrate {
namespace {

using nlohmann::json;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

const std::string ProfilesDir = OPMIG_SOURCE_DIR "/rules/profiles";
const std::string TargetsDir = OPMIG_FIXTURES_DIR "/targets";
const std::string StubsDir = OPMIG_FIXTURES_DIR "/stubs/include";

/// Prints the top-level statements of a Python file that make up its
/// structure: definitions with their decorators, assignments, and calls.
constexpr const char *TopLevelScript = R"(import ast, sys
for n in ast.parse(open(sys.argv[1]).read()).body:
    if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
        print("def", n.name, *[ast.unparse(d) for d in n.decorator_list])
    elif isinstance(n, (ast.Assign, ast.AnnAssign)):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target]
        print("set", *[ast.unparse(t) for t in targets])
    elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call):
        print("call", ast.unparse(n.value))
)";

struct RunResult {
  int ExitCode = -1;
  std::string Output; ///< stdout and stderr together.
};

RunResult runProgram(llvm::StringRef Name, const std::vector<std::string> &Args) {
  llvm::ErrorOr<std::string> Program = llvm::sys::findProgramByName(Name);
  if (!Program)
    return {-1, Name.str() + " is not on PATH"};
  llvm::SmallString<128> OutFile;
  if (fs::createTemporaryFile("opmig-builtin-profiles", "txt", OutFile))
    return {-1, "cannot create a temporary file"};
  std::vector<llvm::StringRef> Argv{*Program};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(OutFile),
                                                llvm::StringRef(OutFile)};
  std::string Error;
  int Code = llvm::sys::ExecuteAndWait(*Program, Argv, std::nullopt, Redirects,
                                       /*SecondsToWait=*/120, 0, &Error);
  auto Buffer = llvm::MemoryBuffer::getFile(OutFile);
  fs::remove(OutFile);
  return {Code, Error + (Buffer ? (*Buffer)->getBuffer().str() : "")};
}

std::string readFile(const std::string &File) {
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  return Buffer ? (*Buffer)->getBuffer().str() : "<missing " + File + ">";
}

void writeFile(const std::string &File, const std::string &Content) {
  fs::create_directories(path::parent_path(File));
  std::error_code EC;
  llvm::raw_fd_ostream OS(File, EC);
  ASSERT_FALSE(EC) << File << ": " << EC.message();
  OS << Content;
}

void copyTree(const std::string &From, const std::string &To) {
  std::error_code EC;
  for (fs::recursive_directory_iterator It(From, EC), End; It != End && !EC; It.increment(EC)) {
    std::string Dest = To + It->path().substr(From.size());
    if (It->type() == fs::file_type::directory_file)
      fs::create_directories(Dest);
    else
      ASSERT_FALSE(fs::copy_file(It->path(), Dest)) << It->path();
  }
  ASSERT_FALSE(EC) << From << ": " << EC.message();
}

/// A profile template expanded with only `domain` known, as the planner
/// expands the profile's scalar fields.
std::string expand(const std::string &Template) {
  llvm::Expected<std::string> Text = renderTemplate(Template, {{"domain", "attn"}}, "profile");
  if (!Text) {
    ADD_FAILURE() << llvm::toString(Text.takeError());
    return "";
  }
  return *Text;
}

/// As GlueContext declares an entry in its namespace.
std::string scoped(const std::string &Namespace, const std::string &Declaration) {
  return "namespace " + Namespace + " {\n" + Declaration + ";\n} // namespace " + Namespace;
}

const std::string MergeDeclaration =
    "std::tuple<at::Tensor, at::Tensor> merge_attn_states(const at::Tensor &v_a, const "
    "at::Tensor &lse_a, const at::Tensor &v_b, const at::Tensor &lse_b)";

const std::string ScatterDeclaration =
    "at::Tensor scatter_tokens(const at::Tensor &x, const at::Tensor &index, int num_slots, "
    "float scale, const std::optional<at::Tensor> &bias)";

json mergeAttnStates(const std::string &Namespace) {
  json Params = json::array();
  for (const char *Name : {"v_a", "lse_a", "v_b", "lse_b"})
    Params.push_back({{"name", Name},
                      {"schema_type", "Tensor"},
                      {"py_annotation", "torch.Tensor"},
                      {"cpp_type", "const at::Tensor &"},
                      {"is_tensor", true},
                      {"mutable", false},
                      {"stand_in_shape", Name[0] == 'v' ? "(4, 4, 4)" : "(4, 4)"}});
  return {{"name", "merge_attn_states"},
          {"cpp_function", Namespace + "::merge_attn_states"},
          {"cpp_name", "merge_attn_states"},
          {"upstream_function", "merge_attn_states"},
          {"schema", "(Tensor v_a, Tensor lse_a, Tensor v_b, Tensor lse_b) -> (Tensor, Tensor)"},
          {"cpp_declaration", MergeDeclaration},
          {"cpp_namespace", Namespace},
          {"scoped_declaration", scoped(Namespace, MergeDeclaration)},
          {"boxed_declaration",
           "std::tuple<at::Tensor, at::Tensor> merge_attn_states(const at::Tensor "
           "&v_a, const at::Tensor &lse_a, const at::Tensor &v_b, const "
           "at::Tensor &lse_b)"},
          {"needs_adapter", false},
          {"adapter_args", "v_a, lse_a, v_b, lse_b"},
          {"registered_function", Namespace + "::merge_attn_states"},
          {"py_params", "v_a: torch.Tensor, lse_a: torch.Tensor, v_b: torch.Tensor, lse_b: "
                        "torch.Tensor"},
          {"py_args", "v_a, lse_a, v_b, lse_b"},
          {"py_return", "tuple[torch.Tensor, torch.Tensor]"},
          {"returns_none", false},
          {"params", Params},
          {"tensor_params", {"v_a", "lse_a", "v_b", "lse_b"}},
          {"first_tensor", "v_a"},
          {"fake_derived", true},
          {"fake_python", "(torch.empty_like(v_a), torch.empty((v_a.shape[0], v_a.shape[1]), "
                          "dtype=lse_a.dtype, device=lse_a.device))"},
          {"fake_cpp", "return {at::empty_like(v_a), at::empty({v_a.size(0), v_a.size(1)}, "
                       "lse_a.options())};"},
          {"fake_reason", ""},
          {"fake_checks",
           {{{"python_condition", "v_a.dim() == 3"},
             {"python_message", "f\"merge_attn_states: v_a must have 3 dims, got {v_a.dim()}\""},
             {"cpp_condition", "v_a.dim() == 3"},
             {"cpp_message", "\"merge_attn_states: v_a must have 3 dims, got \", v_a.dim()"}},
            {{"python_condition", "v_b.size(0) == v_a.size(0)"},
             {"python_message", "f\"merge_attn_states: v_b.size(0) must equal v_a.size(0)\""},
             {"cpp_condition", "v_b.size(0) == v_a.size(0)"},
             {"cpp_message", "\"merge_attn_states: v_b.size(0) must equal v_a.size(0)\""}}}},
          {"stand_ins_pass_fake_checks", true},
          {"first", true},
          {"last", false}};
}

json param(const char *Name, const char *Schema, const char *Py, const char *Cpp, bool Tensor,
           const char *Boxed = "") {
  return {{"name", Name},
          {"schema_type", Schema},
          {"py_annotation", Py},
          {"cpp_type", Cpp},
          {"boxed_cpp_type", Boxed},
          {"is_tensor", Tensor},
          {"mutable", false},
          {"stand_in_shape", Tensor ? "(2, 3, 4, 5)" : "None"}};
}

/// An op whose output size depends on tensor values: no fake is derived.
/// It declares `int` and `float`, which a TORCH_LIBRARY kernel cannot take.
json scatterTokens(const std::string &Namespace) {
  return {
      {"name", "scatter_tokens"},
      {"cpp_function", Namespace + "::scatter_tokens"},
      {"cpp_name", "scatter_tokens"},
      {"upstream_function", "sample_ops::scatter_tokens"},
      {"schema", "(Tensor x, Tensor index, int num_slots, float scale, Tensor? bias) -> Tensor"},
      {"cpp_declaration", ScatterDeclaration},
      {"cpp_namespace", Namespace},
      {"scoped_declaration", scoped(Namespace, ScatterDeclaration)},
      {"boxed_declaration", "at::Tensor scatter_tokens(const at::Tensor &x, const at::Tensor "
                            "&index, int64_t num_slots, double scale, const "
                            "std::optional<at::Tensor> &bias)"},
      {"needs_adapter", true},
      {"adapter_args", "x, index, static_cast<int>(num_slots), static_cast<float>(scale), bias"},
      {"registered_function", "adapters::scatter_tokens"},
      {"py_params", "x: torch.Tensor, index: torch.Tensor, num_slots: int, scale: float, bias: "
                    "torch.Tensor | None"},
      {"py_args", "x, index, num_slots, scale, bias"},
      {"py_return", "torch.Tensor"},
      {"returns_none", false},
      {"params",
       {param("x", "Tensor", "torch.Tensor", "const at::Tensor &", true),
        param("index", "Tensor", "torch.Tensor", "const at::Tensor &", true),
        param("num_slots", "int", "int", "int", false, "int64_t"),
        param("scale", "float", "float", "float", false, "double"),
        param("bias", "Tensor?", "torch.Tensor | None", "const std::optional<at::Tensor> &",
              true)}},
      {"tensor_params", {"x", "index", "bias"}},
      {"first_tensor", "x"},
      {"fake_derived", false},
      {"fake_python", ""},
      {"fake_cpp", ""},
      {"fake_reason", "the output size depends on the values of index"},
      {"fake_checks", json::array()},
      {"stand_ins_pass_fake_checks", true},
      {"first", false},
      {"last", true}};
}

/// The context the migrate pipeline builds for a port of the two ops into
/// profile `P`, domain `attn`, with two migrated TUs.
json sampleContext(const Profile &P) {
  std::string NativeDir = expand(P.NativeDir), Namespace = expand(P.Namespace);
  std::string IncludeRoot = expand(P.IncludeRoot), Extension = expand(P.Extension);
  llvm::StringRef Ext(Extension);
  bool Dotted = Ext.contains('.');
  std::vector<std::string> Sources = {NativeDir + "/attention/merge_attn_states.cu",
                                      NativeDir + "/attention/scatter_tokens.cu",
                                      NativeDir + "/attn.cpp"};
  std::sort(Sources.begin(), Sources.end());
  json InNativeDir = json::array();
  for (const std::string &Source : Sources)
    InNativeDir.push_back(Source.substr(NativeDir.size() + 1));
  std::string BindingHeader = NativeDir + "/attn.h";
  return {{"domain", "attn"},
          {"domain_upper", "ATTN"},
          {"namespace", Namespace},
          {"op_namespace", expand(P.OpNamespace)},
          {"extension", Extension},
          {"extension_name", (Dotted ? Ext.rsplit('.').second : Ext).str()},
          {"extension_package", (Dotted ? Ext.split('.').first : llvm::StringRef()).str()},
          {"native_dir", NativeDir},
          {"include_root", IncludeRoot},
          {"profile", P.Name},
          {"cxx_standard", 17},
          {"defines", {"-DENABLE_BF16=1", "-U__CUDA_NO_HALF_OPERATORS__"}},
          {"nvcc_flags", {"--expt-relaxed-constexpr"}},
          {"third_party",
           {{{"name", "spdlog"},
             {"upstream_dir", "third_party/spdlog"},
             {"target_dir", NativeDir + "/third_party/spdlog"},
             {"include_dirs", {NativeDir + "/third_party/spdlog/include"}},
             {"headers", {NativeDir + "/third_party/spdlog/include/spdlog/spdlog.h"}}}}},
          {"third_party_include_dirs", {NativeDir + "/third_party/spdlog/include"}},
          {"third_party_include_dirs_in_native_dir", {"third_party/spdlog/include"}},
          {"third_party_headers", {NativeDir + "/third_party/spdlog/include/spdlog/spdlog.h"}},
          {"python_headers", false},
          {"any_adapter", true},
          {"any_op", true},
          {"any_entry_header", false},
          {"entry_header_includes", json::array()},
          {"upstream",
           {{"repo", "https://github.com/example/sample_ops"},
            {"commit", "0123456789abcdef0123456789abcdef01234567"},
            {"dirty", false}}},
          {"tool", {{"name", "opmig"}, {"version", "0.3.0"}}},
          {"sources", Sources},
          {"sources_in_native_dir", InNativeDir},
          {"headers", {NativeDir + "/attention/merge_attn_states.h", BindingHeader}},
          {"binding_header_include", P.Includes == IncludeStyle::RelativeToRoot
                                         ? BindingHeader.substr(IncludeRoot.size() + 1)
                                         : "attn.h"},
          {"ops", {mergeAttnStates(Namespace), scatterTokens(Namespace)}}};
}

class BuiltinProfilesTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(fs::createUniqueDirectory("opmig-builtin-profiles", Dir));
    Root = std::string(Dir);
  }
  void TearDown() override { fs::remove_directories(Root); }

  /// Copies fixture target `Target`, loads built-in profile `Name`, renders
  /// it there and writes every output; fills `Outputs` and `P`.
  void port(const std::string &Name, const std::string &Target) {
    ASSERT_NO_FATAL_FAILURE(copyTree(TargetsDir + "/" + Target, Root));
    llvm::Expected<Profile> Loaded = loadProfile(Name, ProfilesDir);
    ASSERT_TRUE(bool(Loaded)) << llvm::toString(Loaded.takeError());
    P = std::move(*Loaded);
    Context = sampleContext(P);
    ASSERT_NO_FATAL_FAILURE(render(Outputs));
    for (const GeneratedOutput &Output : Outputs)
      ASSERT_NO_FATAL_FAILURE(writeFile(at(Output.Path), Output.Content));
  }

  void render(std::vector<GeneratedOutput> &Into) {
    llvm::Expected<std::vector<GeneratedOutput>> Rendered = renderProfile(P, Context, Root);
    ASSERT_TRUE(bool(Rendered)) << llvm::toString(Rendered.takeError());
    Into = std::move(*Rendered);
  }

  std::string at(const std::string &Rel) const { return Root + "/" + Rel; }
  std::string read(const std::string &Rel) const { return readFile(at(Rel)); }

  std::vector<std::string> outputsEndingIn(std::initializer_list<llvm::StringRef> Suffixes) const {
    std::vector<std::string> Paths;
    for (const GeneratedOutput &Output : Outputs)
      if (llvm::any_of(Suffixes, [&](llvm::StringRef S) {
            return llvm::StringRef(Output.Path).ends_with(S);
          }))
        Paths.push_back(Output.Path);
    return Paths;
  }

  void expectPythonCompiles() const {
    std::vector<std::string> Python = outputsEndingIn({".py"});
    EXPECT_FALSE(Python.empty());
    for (const std::string &File : Python) {
      RunResult R = runProgram("python3", {"-m", "py_compile", at(File)});
      EXPECT_EQ(R.ExitCode, 0) << File << ":\n" << R.Output;
    }
  }

  /// Every generated C/C++ file parses with Clang 22 against the stand-in
  /// headers, warning-free.
  void expectCppParses() const {
    std::vector<std::string> Cpp = outputsEndingIn({".h", ".cpp"});
    EXPECT_FALSE(Cpp.empty());
    std::string IncludeRoot = Context["include_root"].get<std::string>();
    for (const std::string &File : Cpp) {
      bool Header = llvm::StringRef(File).ends_with(".h");
      std::vector<std::string> Args = {"-fsyntax-only", "-x",       Header ? "c++-header" : "c++",
                                       "-std=c++17",    "-Wall",    "-Wextra",
                                       "-Werror",       "-isystem", StubsDir};
      if (!IncludeRoot.empty())
        Args.insert(Args.end(), {"-I", at(IncludeRoot)});
      Args.push_back(at(File));
      RunResult R = runProgram("clang++-22", Args);
      EXPECT_EQ(R.ExitCode, 0) << File << ":\n" << R.Output;
    }
  }

  /// The structure of Python file `Rel` (TopLevelScript), one line each.
  std::string topLevel(const std::string &Rel) const {
    RunResult R = runProgram("python3", {"-c", TopLevelScript, at(Rel)});
    EXPECT_EQ(R.ExitCode, 0) << R.Output;
    return R.Output;
  }

  /// Rendering again over the written output gives the same files.
  void expectFixedPoint() {
    std::vector<GeneratedOutput> Again;
    ASSERT_NO_FATAL_FAILURE(render(Again));
    ASSERT_EQ(Again.size(), Outputs.size());
    for (size_t I = 0; I < Again.size(); ++I) {
      EXPECT_EQ(Again[I].Path, Outputs[I].Path);
      EXPECT_EQ(Again[I].Content, read(Again[I].Path)) << Again[I].Path;
    }
  }

  std::string Root;
  Profile P;
  json Context;
  std::vector<GeneratedOutput> Outputs;
};

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

//===----------------------------------------------------------------------===//
// cache-dit
//===----------------------------------------------------------------------===//

TEST_F(BuiltinProfilesTest, CacheDitOutputCompiles) {
  ASSERT_NO_FATAL_FAILURE(port("cache-dit", "cache_dit_like"));
  expectPythonCompiles();
  expectCppParses();
}

TEST_F(BuiltinProfilesTest, CacheDitGeneratesTheSpecFiles) {
  ASSERT_NO_FATAL_FAILURE(port("cache-dit", "cache_dit_like"));
  std::vector<std::string> Paths;
  for (const GeneratedOutput &Output : Outputs)
    Paths.push_back(Output.Path + (Output.EditsTargetFile ? " (edited)" : ""));
  EXPECT_EQ(llvm::join(Paths, "\n"), "csrc/kernels/attn/attn.h\n"
                                     "csrc/kernels/attn/attn.cpp\n"
                                     "src/cache_dit/kernels/_attn.py\n"
                                     "tests/kernels/test_attn_module.py\n"
                                     "tests/kernels/test_cuda_merge_attn_states.py\n"
                                     "tests/kernels/test_cuda_scatter_tokens.py\n"
                                     "tests/kernels/test_attn_spec.py\n"
                                     "src/cache_dit/kernels/__init__.py (edited)\n"
                                     "setup.py (edited)\n"
                                     "tests/kernels/test_ops_dispatch.py (edited)\n"
                                     "tools/inspect_release_wheel.py (edited)");
}

TEST_F(BuiltinProfilesTest, CacheDitDomainModuleHasTheSpecSectionsInOrder) {
  ASSERT_NO_FATAL_FAILURE(port("cache-dit", "cache_dit_like"));
  EXPECT_EQ(topLevel("src/cache_dit/kernels/_attn.py"),
            "set _EXTENSION_MODULE_NAME\n"
            "set _cached_extension_module\n"
            "set _cached_load_error\n"
            "def _load_extension_module\n"
            "def attn_extension_is_available\n"
            "def attn_get_load_error\n"
            "def _get_required_ops_module\n"
            "def _call_merge_attn_states\n"
            "def _call_scatter_tokens\n"
            "call torch.library.define('cache_dit_cuda_ops::merge_attn_states', '(Tensor v_a, "
            "Tensor lse_a, Tensor v_b, Tensor lse_b) -> (Tensor, Tensor)')\n"
            "def _merge_attn_states torch.library.impl('cache_dit_cuda_ops::merge_attn_states', "
            "'CUDA')\n"
            "def _fake_merge_attn_states "
            "torch.library.register_fake('cache_dit_cuda_ops::merge_attn_states')\n"
            "call torch.library.define('cache_dit_cuda_ops::scatter_tokens', '(Tensor x, Tensor "
            "index, int num_slots, float scale, Tensor? bias) -> Tensor')\n"
            "def _scatter_tokens torch.library.impl('cache_dit_cuda_ops::scatter_tokens', "
            "'CUDA')\n"
            "def _fake_scatter_tokens "
            "torch.library.register_fake('cache_dit_cuda_ops::scatter_tokens')\n"
            "def merge_attn_states\n"
            "def scatter_tokens\n"
            "set __all__\n");
}

TEST_F(BuiltinProfilesTest, CacheDitModuleLoadsValidatesFakesAndWraps) {
  ASSERT_NO_FATAL_FAILURE(port("cache-dit", "cache_dit_like"));
  std::string Module = read("src/cache_dit/kernels/_attn.py");
  EXPECT_TRUE(contains(Module, "_EXTENSION_MODULE_NAME = \"cache_dit._C_attn\"\n"));
  EXPECT_TRUE(
      contains(Module, "\"`CACHE_DIT_BUILD_ATTN=1 pip install -e . --no-build-isolation`\""))
      << Module;
  EXPECT_TRUE(contains(Module, "    return _get_required_ops_module().merge_attn_states(v_a, "
                               "lse_a, v_b, lse_b)\n"));
  EXPECT_TRUE(contains(Module, "    for arg_name, tensor in ((\"x\", x), (\"index\", index), "
                               "(\"bias\", bias), ):\n"));
  EXPECT_TRUE(contains(Module, "def _fake_merge_attn_states(v_a: torch.Tensor, lse_a: "
                               "torch.Tensor, v_b: torch.Tensor, lse_b: torch.Tensor) -> "
                               "tuple[torch.Tensor, torch.Tensor]:\n"
                               "    torch._check(\n"
                               "        v_a.dim() == 3,\n"
                               "        lambda: f\"merge_attn_states: v_a must have 3 dims, got "
                               "{v_a.dim()}\",\n"
                               "    )\n"
                               "    torch._check(\n"
                               "        v_b.size(0) == v_a.size(0),\n"
                               "        lambda: f\"merge_attn_states: v_b.size(0) must equal "
                               "v_a.size(0)\",\n"
                               "    )\n"
                               "    return (torch.empty_like(v_a), torch.empty((v_a.shape[0], "
                               "v_a.shape[1]), dtype=lse_a.dtype, device=lse_a.device))\n"));
  EXPECT_TRUE(contains(Module, "    raise NotImplementedError(\n"
                               "        \"fake not implemented for "
                               "cache_dit_cuda_ops::scatter_tokens: the output size depends on "
                               "the values of index\"\n"
                               "    )\n"));
  EXPECT_FALSE(contains(Module, "def _("));
  EXPECT_TRUE(contains(Module, "    return torch.ops.cache_dit_cuda_ops.scatter_tokens(x, index, "
                               "num_slots, scale, bias)\n"));
  EXPECT_TRUE(contains(Module, "    :param bias: ``Tensor?``.\n"));
  EXPECT_FALSE(contains(Module, "triton"));
}

TEST_F(BuiltinProfilesTest, CacheDitBindingPairIsTheExtensionEntryPoint) {
  ASSERT_NO_FATAL_FAILURE(port("cache-dit", "cache_dit_like"));
  std::string Header = read("csrc/kernels/attn/attn.h");
  EXPECT_TRUE(contains(Header, "namespace cache_dit::attn {\n"
                               "std::tuple<at::Tensor, at::Tensor> merge_attn_states("));
  EXPECT_TRUE(contains(Header, "} // namespace cache_dit::attn\n"));
  std::string Binding = read("csrc/kernels/attn/attn.cpp");
  EXPECT_TRUE(contains(Binding, "#include \"attn/attn.h\"\n"));
  EXPECT_TRUE(contains(Binding, "PYBIND11_MODULE(_C_attn, m) {\n"));
  EXPECT_TRUE(contains(Binding,
                       "  ops.def(\"merge_attn_states\", "
                       "&cache_dit::attn::merge_attn_states);\n"
                       "  ops.def(\"scatter_tokens\", &cache_dit::attn::scatter_tokens);\n"));
}

TEST_F(BuiltinProfilesTest, CacheDitTargetFilesGetTheirBlocks) {
  ASSERT_NO_FATAL_FAILURE(port("cache-dit", "cache_dit_like"));
  EXPECT_EQ(read("src/cache_dit/kernels/__init__.py"),
            "\"\"\"Public CUDA operators: one flat namespace, re-exported from the domain "
            "modules.\"\"\"\n"
            "\n"
            "from ._comm import fp8_comm_per_token_quant\n"
            "# >>> opmig attn:init-reexport (generated by opmig migrate; edit the profile, not "
            "this block)\n"
            "from ._attn import merge_attn_states\n"
            "from ._attn import scatter_tokens\n"
            "# <<< opmig attn:init-reexport\n"
            "\n"
            "__all__ = [\n"
            "    \"fp8_comm_per_token_quant\",\n"
            "    # >>> opmig attn:init-all (generated by opmig migrate; edit the profile, not "
            "this block)\n"
            "    \"merge_attn_states\",\n"
            "    \"scatter_tokens\",\n"
            "    # <<< opmig attn:init-all\n"
            "]\n");
  std::string Setup = read("setup.py");
  EXPECT_TRUE(contains(Setup, "    candidates = [\n"
                              "        _get_comm_extension(),\n"
                              "        # >>> opmig attn:setup-ext-modules (generated by opmig "
                              "migrate; edit the profile, not this block)\n"
                              "        _get_attn_extension(),\n"
                              "        # <<< opmig attn:setup-ext-modules\n"
                              "    ]\n"))
      << Setup;
  EXPECT_TRUE(contains(Setup, "    return [\n"
                              "        \"csrc/kernels/attn/attention/merge_attn_states.cu\",\n"
                              "        \"csrc/kernels/attn/attention/scatter_tokens.cu\",\n"
                              "        \"csrc/kernels/attn/attn.cpp\",\n"
                              "    ]\n"));
  EXPECT_TRUE(
      contains(Setup, "    flags = (\"CACHE_DIT_BUILD_ATTN\", \"CACHE_DIT_BUILD_SVDQUANT\")\n"));
  EXPECT_LT(Setup.find("def _get_attn_extension():"), Setup.find("def _get_ext_modules()"));
  EXPECT_TRUE(contains(read("tests/kernels/test_ops_dispatch.py"),
                       "    (\"merge_attn_states\", \"cache_dit.kernels._attn\"),\n"
                       "    (\"scatter_tokens\", \"cache_dit.kernels._attn\"),\n"));
  EXPECT_TRUE(contains(read("tools/inspect_release_wheel.py"),
                       "    \"cache_dit._C_comm\",\n"
                       "    # >>> opmig attn:wheel-extension (generated by opmig migrate; edit "
                       "the profile, not this block)\n"
                       "    \"cache_dit._C_attn\",\n"));
}

TEST_F(BuiltinProfilesTest, CacheDitTestsCheckTheWiringAndRunTheSpecsCases) {
  ASSERT_NO_FATAL_FAILURE(port("cache-dit", "cache_dit_like"));
  std::string Derived = read("tests/kernels/test_cuda_merge_attn_states.py");
  EXPECT_TRUE(contains(Derived, "def test_fake_merge_attn_states_gives_the_derived_shapes_and_"
                                "dtypes():\n"));
  EXPECT_FALSE(contains(Derived, "fails_loudly"));
  std::string NotDerived = read("tests/kernels/test_cuda_scatter_tokens.py");
  EXPECT_TRUE(contains(NotDerived, "match=\"fake not implemented for "
                                   "cache_dit_cuda_ops::scatter_tokens\""));
  EXPECT_TRUE(contains(NotDerived, "    (\"bias\", \"Tensor?\", (2, 3, 4, 5)),\n"));
  // The stand-ins pass the fake's shape checks.
  EXPECT_TRUE(contains(Derived, "    (\"v_a\", \"Tensor\", (4, 4, 4)),\n"));
  // No placeholder is left: the numerics are the spec's cases, in the domain's test_spec.
  EXPECT_FALSE(contains(Derived + NotDerived, ": write "));
  std::string Spec = read("tests/kernels/test_attn_spec.py");
  EXPECT_TRUE(contains(Spec, "SPEC_PATH = \"csrc/kernels/attn/opmig-validation-spec.json\"\n"));
  EXPECT_TRUE(contains(Spec, "from cache_dit.kernels import _attn as domain_module\n"));
  EXPECT_TRUE(contains(Spec, "def test_parity_with_the_reference(param):\n"));
  std::string Module = read("tests/kernels/test_attn_module.py");
  EXPECT_TRUE(contains(Module, "        \"sys.modules['cache_dit._C_attn'] = None\\n\"\n"));
}

// Stand-ins that cannot pass the fake's checks would fail the test for its
// own inputs: the fake's wiring is then left to the spec's cases.
TEST_F(BuiltinProfilesTest, CacheDitHasNoDerivedFakeTestWithoutPassingStandIns) {
  ASSERT_NO_FATAL_FAILURE(copyTree(TargetsDir + "/cache_dit_like", Root));
  llvm::Expected<Profile> Loaded = loadProfile("cache-dit", ProfilesDir);
  ASSERT_TRUE(bool(Loaded)) << llvm::toString(Loaded.takeError());
  P = std::move(*Loaded);
  Context = sampleContext(P);
  Context["ops"][0]["stand_ins_pass_fake_checks"] = false;
  ASSERT_NO_FATAL_FAILURE(render(Outputs));
  auto Test = llvm::find_if(Outputs, [](const GeneratedOutput &Output) {
    return Output.Path == "tests/kernels/test_cuda_merge_attn_states.py";
  });
  ASSERT_NE(Test, Outputs.end());
  EXPECT_FALSE(contains(Test->Content, "test_fake_merge_attn_states"));
  EXPECT_TRUE(contains(Test->Content, "def test_merge_attn_states_has_no_cpu_kernel():\n"));
}

//===----------------------------------------------------------------------===//
// VeOmni
//===----------------------------------------------------------------------===//

TEST_F(BuiltinProfilesTest, VeomniOutputCompiles) {
  ASSERT_NO_FATAL_FAILURE(port("veomni", "veomni_like"));
  expectPythonCompiles();
  expectCppParses();
}

TEST_F(BuiltinProfilesTest, VeomniOpDirectoryFollowsThePointerPattern) {
  ASSERT_NO_FATAL_FAILURE(port("veomni", "veomni_like"));
  EXPECT_EQ(topLevel("veomni/ops/attn/__init__.py"), "set _merge_attn_states\n"
                                                     "set _scatter_tokens\n"
                                                     "def merge_attn_states\n"
                                                     "def scatter_tokens\n"
                                                     "def apply_veomni_attn_patch\n"
                                                     "set __all__\n");
  std::string Init = read("veomni/ops/attn/__init__.py");
  EXPECT_TRUE(contains(Init, "    if _scatter_tokens is None:\n"
                             "        raise NotImplementedError(\n"));
  EXPECT_TRUE(contains(Init, "    global _merge_attn_states\n"
                             "    global _scatter_tokens\n"
                             "    if is_torch_npu_available():\n"
                             "        return\n"
                             "    from .cuda_impl import cuda_merge_attn_states, "
                             "cuda_scatter_tokens\n"
                             "\n"
                             "    _merge_attn_states = cuda_merge_attn_states\n"
                             "    _scatter_tokens = cuda_scatter_tokens\n"));
  std::string Impl = read("veomni/ops/attn/cuda_impl.py");
  EXPECT_TRUE(contains(Impl, "    \"attention/merge_attn_states.cu\",\n"
                             "    \"attention/scatter_tokens.cu\",\n"
                             "    \"attn.cpp\",\n"));
  EXPECT_TRUE(contains(Impl, "                name=\"veomni_attn_cuda\",\n"));
  EXPECT_TRUE(contains(Impl, "torch.library.define(\"veomni_ops::merge_attn_states\", "));
  EXPECT_TRUE(contains(Impl, "@torch.library.register_fake(\"veomni_ops::scatter_tokens\")\n"
                             "def _fake_scatter_tokens("));
  EXPECT_TRUE(contains(Impl, "    torch._check(\n"
                             "        v_a.dim() == 3,\n"
                             "        lambda: f\"merge_attn_states: v_a must have 3 dims, got "
                             "{v_a.dim()}\",\n"
                             "    )\n"));
  EXPECT_TRUE(contains(read("veomni/ops/attn/csrc/attn.cpp"),
                       "#include \"attn.h\"\n\nPYBIND11_MODULE(veomni_attn_cuda, m) {\n"));
  EXPECT_TRUE(contains(read("veomni/ops/attn/csrc/attn.h"), "namespace veomni::ops::attn {\n"));
}

TEST_F(BuiltinProfilesTest, VeomniRegistersTheOpsAndDocumentsThem) {
  ASSERT_NO_FATAL_FAILURE(port("veomni", "veomni_like"));
  std::string Marker = " (generated by opmig migrate; edit the profile, not this block)\n";
  std::string Ops = read("veomni/ops/__init__.py");
  EXPECT_TRUE(contains(Ops, "from .fused_rms_norm import fused_rms_norm as "
                            "fused_rms_norm_forward\n"
                            "# >>> opmig attn:ops-import" +
                                Marker +
                                "from . import attn\n"
                                "from .attn import merge_attn_states\n"
                                "from .attn import scatter_tokens\n"
                                "# <<< opmig attn:ops-import\n"))
      << Ops;
  EXPECT_TRUE(contains(Ops, "    \"fused_rms_norm_forward\",\n"
                            "    # >>> opmig attn:ops-all" +
                                Marker +
                                "    \"merge_attn_states\",\n"
                                "    \"scatter_tokens\",\n"));
  EXPECT_TRUE(contains(Ops, "        (\"_fused_rms_norm\", fused_rms_norm._fused_rms_norm),\n"
                            "        # >>> opmig attn:build-all-ops" +
                                Marker +
                                "        (\"_merge_attn_states\", attn._merge_attn_states),\n"
                                "        (\"_scatter_tokens\", attn._scatter_tokens),\n"));
  EXPECT_TRUE(contains(Ops, "    fused_rms_norm.apply_veomni_rms_norm_patch()\n"
                            "    # >>> opmig attn:apply-ops-patch" +
                                Marker +
                                "    attn.apply_veomni_attn_patch()\n"
                                "    # <<< opmig attn:apply-ops-patch\n"));
  EXPECT_TRUE(contains(read("docs/design/kernel_selection.md"),
                       "| Fused RMSNorm | `fused_rms_norm/` | import | eager (PyTorch), npu "
                       "(torch_npu) | device |\n"
                       "| `merge_attn_states`, `scatter_tokens` | `attn/` | import | cuda "
                       "(migrated from https://github.com/example/sample_ops, JIT-built) | none: "
                       "CUDA only, unbound on NPU <!-- opmig attn:kernel-row --> |\n"
                       "\n## Lifecycle\n"));
  EXPECT_TRUE(contains(read(".agents/knowledge/architecture.md"),
                       "├── ops/                Optimized kernels and dispatch\n"
                       "│   ├── attn/  CUDA kernels of `merge_attn_states`, `scatter_tokens`, "
                       "migrated from https://github.com/example/sample_ops (JIT-built) <!-- opmig "
                       "attn:architecture-tree -->\n"
                       "│   ├── fused_rms_norm/ Fused RMSNorm (eager and Triton)\n"))
      << read(".agents/knowledge/architecture.md");
  std::string Tests = read("tests/ops/test_attn.py");
  EXPECT_TRUE(contains(Tests, "def test_scatter_tokens_stays_unbound_on_npu(monkeypatch):\n"));
  EXPECT_TRUE(
      contains(Tests, "    assert \"_merge_attn_states\" in ops.format_kernel_functions()\n"));
}

//===----------------------------------------------------------------------===//
// generic
//===----------------------------------------------------------------------===//

TEST_F(BuiltinProfilesTest, GenericOutputParsesAndRegistersCudaAndMetaKernels) {
  ASSERT_NO_FATAL_FAILURE(port("generic", "generic_like"));
  expectCppParses();
  std::string Registration = read("kernels/attn/attn.cpp");
  EXPECT_TRUE(contains(Registration, "#include \"attn/attn.h\"\n"));
  EXPECT_TRUE(contains(Registration, "TORCH_LIBRARY(opmig_attn, m) {\n"
                                     "  m.def(\"merge_attn_states(Tensor v_a, Tensor lse_a, "
                                     "Tensor v_b, Tensor lse_b) -> (Tensor, Tensor)\");\n"));
  EXPECT_TRUE(contains(Registration, "TORCH_LIBRARY_IMPL(opmig_attn, CUDA, m) {\n"
                                     "  m.impl(\"merge_attn_states\", "
                                     "TORCH_FN(opmig::kernels::attn::merge_attn_states));\n"));
  EXPECT_TRUE(contains(Registration, "TORCH_LIBRARY_IMPL(opmig_attn, Meta, m) {\n"
                                     "  m.impl(\"merge_attn_states\", "
                                     "TORCH_FN(meta_kernels::merge_attn_states));\n"));
  // The Meta kernel checks the shapes the kernel checks before it allocates.
  EXPECT_TRUE(contains(Registration, "  (void)lse_b;\n"
                                     "  TORCH_CHECK(v_a.dim() == 3,\n"
                                     "              \"merge_attn_states: v_a must have 3 dims, "
                                     "got \", v_a.dim());\n"
                                     "  TORCH_CHECK(v_b.size(0) == v_a.size(0),\n"
                                     "              \"merge_attn_states: v_b.size(0) must equal "
                                     "v_a.size(0)\");\n"
                                     "  return {at::empty_like(v_a)"));
  EXPECT_TRUE(contains(Registration, "  TORCH_CHECK(false, \"fake not implemented for "
                                     "opmig_attn::scatter_tokens: the output size depends on the "
                                     "values of index\");\n"));
  // scatter_tokens declares int and float: registered through an adapter,
  // and its Meta kernel takes the dispatcher's types too.
  EXPECT_TRUE(contains(Registration,
                       "at::Tensor scatter_tokens(const at::Tensor &x, const at::Tensor &index, "
                       "int64_t num_slots, double scale, const std::optional<at::Tensor> &bias) "
                       "{\n"
                       "  return opmig::kernels::attn::scatter_tokens(x, index, "
                       "static_cast<int>(num_slots), static_cast<float>(scale), bias);\n"
                       "}\n"));
  EXPECT_TRUE(contains(Registration,
                       "  m.impl(\"scatter_tokens\", TORCH_FN(adapters::scatter_tokens));\n"));
  EXPECT_TRUE(contains(read("kernels/attn/attn.h"), "namespace opmig::kernels::attn {\n"));
  std::string Cmake = read("kernels/attn/CMakeLists.txt");
  EXPECT_TRUE(contains(Cmake, "add_library(opmig_attn SHARED\n"
                              "  attention/merge_attn_states.cu\n"
                              "  attention/scatter_tokens.cu\n"
                              "  attn.cpp\n"
                              ")\n"));
  EXPECT_TRUE(contains(Cmake, "find_package(Torch REQUIRED)\n"));
  EXPECT_EQ(read("kernels/CMakeLists.txt"),
            "# One add_subdirectory() per kernel domain; each domain builds its own op library.\n"
            "# >>> opmig attn:subdirectory (generated by opmig migrate; edit the profile, not "
            "this block)\n"
            "add_subdirectory(attn)\n"
            "# <<< opmig attn:subdirectory\n");
}

TEST_F(BuiltinProfilesTest, GenericCreatesKernelsCMakeListsWhenMissing) {
  ASSERT_NO_FATAL_FAILURE(copyTree(TargetsDir + "/generic_like", Root));
  ASSERT_FALSE(fs::remove(at("kernels/CMakeLists.txt")));
  llvm::Expected<Profile> Loaded = loadProfile("generic", ProfilesDir);
  ASSERT_TRUE(bool(Loaded)) << llvm::toString(Loaded.takeError());
  P = std::move(*Loaded);
  Context = sampleContext(P);
  ASSERT_NO_FATAL_FAILURE(render(Outputs));
  auto Created = llvm::find_if(
      Outputs, [](const GeneratedOutput &O) { return O.Path == "kernels/CMakeLists.txt"; });
  ASSERT_NE(Created, Outputs.end());
  EXPECT_EQ(Created->Content, "# >>> opmig attn:subdirectory (generated by opmig migrate; edit "
                              "the profile, not this block)\n"
                              "add_subdirectory(attn)\n"
                              "# <<< opmig attn:subdirectory\n");
}

//===----------------------------------------------------------------------===//
// All profiles
//===----------------------------------------------------------------------===//

TEST_F(BuiltinProfilesTest, SecondRenderIsAFixedPoint) {
  for (auto [Name, Target] : {std::pair{"cache-dit", "cache_dit_like"},
                              {"veomni", "veomni_like"},
                              {"generic", "generic_like"}}) {
    SCOPED_TRACE(Name);
    fs::remove_directories(Root);
    ASSERT_NO_FATAL_FAILURE(port(Name, Target));
    expectFixedPoint();
  }
}

} // namespace
} // namespace opmig::migrate
