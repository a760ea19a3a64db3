//===- CompileFlagsTest.cpp - Tests for compile command normalization -----===//

#include "opmig/analyze/CompileFlags.h"

#include "opmig/analyze/UpstreamBuildFlags.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>

using namespace opmig;
using namespace opmig::analyze;

namespace {

using Strings = std::vector<std::string>;

/// A fresh directory, removed with everything in it at scope exit.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> Created;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-compileflags", Created));
    Path = std::string(Created);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }

  /// Creates `Relative` and its parents; returns its absolute path.
  std::string dir(llvm::StringRef Relative) const {
    std::string Dir = path(Relative);
    EXPECT_FALSE(llvm::sys::fs::create_directories(Dir));
    return Dir;
  }

  /// Writes `Text` to `Relative` (parents must exist); returns its path.
  std::string file(llvm::StringRef Relative, llvm::StringRef Text) const {
    std::string File = path(Relative);
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    EXPECT_FALSE(EC) << File;
    OS << Text;
    return File;
  }

  std::string path(llvm::StringRef Relative) const { return Path + "/" + Relative.str(); }

  std::string Path;
};

/// Sets (or with nullopt, unsets) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, std::optional<std::string> Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old;
    set(Value);
  }
  ~ScopedEnv() { set(Saved); }

private:
  void set(const std::optional<std::string> &Value) {
    if (Value)
      ::setenv(Name, Value->c_str(), /*overwrite=*/1);
    else
      ::unsetenv(Name);
  }

  const char *Name;
  std::optional<std::string> Saved;
};

TUFlags nvcc(Strings Args) {
  Args.insert(Args.begin(), "/usr/local/cuda/bin/nvcc");
  return normalizeCompileCommand(Args, "/build");
}

Strings nvccArgs(Strings Args) { return nvcc(std::move(Args)).Args; }

std::string messageOf(llvm::Error Err) {
  EXPECT_TRUE(Err.isA<opmig::InputError>());
  return llvm::toString(std::move(Err));
}

//===----------------------------------------------------------------------===//
// nvcc: GPU architectures
//===----------------------------------------------------------------------===//

TEST(NvccArchTest, GencodeSeparateValue) {
  TUFlags Flags = nvcc({"-gencode", "arch=compute_90a,code=sm_90a"});
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_90a"});
  EXPECT_EQ(Flags.Args, Strings{"--cuda-gpu-arch=sm_90a"});
}

TEST(NvccArchTest, GencodeEqualsWithBracketedCodeList) {
  TUFlags Flags = nvcc({"-gencode=arch=compute_90a,code=[compute_90a,sm_90a]"});
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_90a"});
  EXPECT_EQ(Flags.Args, Strings{"--cuda-gpu-arch=sm_90a"});
}

TEST(NvccArchTest, GencodeQuotedCodeList) {
  TUFlags Flags = nvcc({"-gencode", "arch=compute_80,code=\"sm_80,compute_80\""});
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_80"});
}

TEST(NvccArchTest, GenerateCodeLongForm) {
  TUFlags Flags = nvcc({"--generate-code=arch=compute_100a,code=[sm_100a]"});
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_100a"});
  EXPECT_EQ(Flags.Args, Strings{"--cuda-gpu-arch=sm_100a"});
}

TEST(NvccArchTest, ComputeOnlyCodeMapsToSm) {
  TUFlags Flags = nvcc({"-gencode", "arch=compute_89,code=compute_89"});
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_89"});
  EXPECT_EQ(Flags.Args, Strings{"--cuda-gpu-arch=sm_89"});
}

TEST(NvccArchTest, ArchEqualsForm) { EXPECT_EQ(nvcc({"-arch=sm_80"}).GpuArchs, Strings{"sm_80"}); }

TEST(NvccArchTest, ArchSeparateForm) {
  TUFlags Flags = nvcc({"-arch", "sm_90"});
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_90"});
  EXPECT_EQ(Flags.Args, Strings{"--cuda-gpu-arch=sm_90"});
}

TEST(NvccArchTest, GpuArchitectureLongForm) {
  EXPECT_EQ(nvcc({"--gpu-architecture=sm_90a"}).GpuArchs, Strings{"sm_90a"});
  EXPECT_EQ(nvcc({"--gpu-architecture", "compute_86"}).GpuArchs, Strings{"sm_86"});
}

TEST(NvccArchTest, CodeNamesTheRealArchForAVirtualArch) {
  TUFlags Flags = nvcc({"-arch=compute_90", "-code=sm_90a,compute_90"});
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_90a"});
  EXPECT_EQ(Flags.Args, Strings{"--cuda-gpu-arch=sm_90a"});
}

TEST(NvccArchTest, ArchesWithoutARealNameAreIgnored) {
  TUFlags Flags = nvcc({"-arch=native"});
  EXPECT_TRUE(Flags.GpuArchs.empty());
  EXPECT_TRUE(Flags.Args.empty());
}

TEST(NvccArchTest, DuplicatesRemovedOrderKept) {
  TUFlags Flags =
      nvcc({"-gencode", "arch=compute_90a,code=sm_90a", "-gencode", "arch=compute_80,code=sm_80",
            "-gencode=arch=compute_90a,code=sm_90a", "-arch=sm_80"});
  EXPECT_EQ(Flags.GpuArchs, (Strings{"sm_90a", "sm_80"}));
  EXPECT_EQ(Flags.Args, (Strings{"--cuda-gpu-arch=sm_90a", "--cuda-gpu-arch=sm_80"}));
}

//===----------------------------------------------------------------------===//
// nvcc: other translations
//===----------------------------------------------------------------------===//

TEST(NvccTranslateTest, RdcTrueBecomesGpuRdc) {
  EXPECT_EQ(nvccArgs({"-rdc=true"}), Strings{"-fgpu-rdc"});
  EXPECT_EQ(nvccArgs({"-rdc", "true"}), Strings{"-fgpu-rdc"});
}

TEST(NvccTranslateTest, RelocatableDeviceCodeLongForm) {
  EXPECT_EQ(nvccArgs({"--relocatable-device-code=true"}), Strings{"-fgpu-rdc"});
}

TEST(NvccTranslateTest, RdcFalseIsDropped) { EXPECT_TRUE(nvccArgs({"-rdc=false"}).empty()); }

TEST(NvccTranslateTest, SeparateCompilationBecomesGpuRdc) {
  EXPECT_EQ(nvccArgs({"-dc"}), Strings{"-fgpu-rdc"});
}

TEST(NvccTranslateTest, UseFastMathBothForms) {
  EXPECT_EQ(nvccArgs({"--use_fast_math"}), Strings{"-ffast-math"});
  EXPECT_EQ(nvccArgs({"-use_fast_math"}), Strings{"-ffast-math"});
}

// What a build of the migrated code must repeat is recorded apart, spelled
// one way; Clang gets only what it has an equivalent for.
TEST(NvccTranslateTest, RecordsTheFlagsAMigratedBuildCarries) {
  TUFlags Flags =
      nvcc({"-expt-relaxed-constexpr", "-use_fast_math", "-ftz=true", "-maxrregcount", "64",
            "--prec-div", "false", "-lineinfo", "-Xptxas=-v", "-O3", "--fmad=maybe"});
  EXPECT_EQ(Flags.NvccFlags, (Strings{"--expt-relaxed-constexpr", "--use_fast_math", "--ftz=true",
                                      "--maxrregcount=64", "--prec-div=false"}));
  EXPECT_EQ(Flags.Args, (Strings{"-ffast-math", "-O3"}));
}

TEST(NvccTranslateTest, XcompilerSeparateValue) {
  EXPECT_EQ(nvccArgs({"-Xcompiler", "-fPIC"}), Strings{"-fPIC"});
}

TEST(NvccTranslateTest, XcompilerEqualsCommaList) {
  EXPECT_EQ(nvccArgs({"-Xcompiler=-fPIC,-Wall,-fvisibility=hidden"}),
            (Strings{"-fPIC", "-Wall", "-fvisibility=hidden"}));
}

TEST(NvccTranslateTest, CompilerOptionsLongForm) {
  EXPECT_EQ(nvccArgs({"--compiler-options", "-fopenmp,-O2"}), (Strings{"-fopenmp", "-O2"}));
}

TEST(NvccTranslateTest, HostIncludePathIsMadeAbsolute) {
  EXPECT_EQ(nvccArgs({"-Xcompiler", "-isystem,../third_party"}),
            (Strings{"-isystem", "/third_party"}));
}

TEST(NvccTranslateTest, LanguageCuBecomesCuda) {
  EXPECT_EQ(nvccArgs({"-x", "cu"}), (Strings{"-x", "cuda"}));
}

TEST(NvccTranslateTest, OtherLanguagesKept) {
  EXPECT_EQ(nvccArgs({"-x", "c++"}), (Strings{"-x", "c++"}));
}

TEST(NvccTranslateTest, StdAllForms) {
  EXPECT_EQ(nvccArgs({"-std=c++17"}), Strings{"-std=c++17"});
  EXPECT_EQ(nvccArgs({"--std", "c++17"}), Strings{"-std=c++17"});
  EXPECT_EQ(nvccArgs({"-std", "c++20"}), Strings{"-std=c++20"});
  EXPECT_EQ(nvccArgs({"--std=c++20"}), Strings{"-std=c++20"});
}

TEST(NvccTranslateTest, KeepsMacroOptimizationAndHostFlags) {
  EXPECT_EQ(nvccArgs({"-DFOO=1", "-D", "BAR", "--define-macro=BAZ", "-UQUX", "-O3", "-fPIC",
                      "-Wno-deprecated-gpu-targets", "-m64"}),
            (Strings{"-DFOO=1", "-DBAR", "-DBAZ", "-UQUX", "-O3", "-fPIC",
                     "-Wno-deprecated-gpu-targets", "-m64"}));
}

TEST(NvccTranslateTest, IncludePathFormsMadeAbsolute) {
  EXPECT_EQ(
      nvccArgs(
          {"--include-path=a", "-I=b", "-I", "c", "-Id/../e", "--include-path", "f", "-I/abs/./g"}),
      (Strings{"-I/build/a", "-I/build/b", "-I/build/c", "-I/build/e", "-I/build/f", "-I/abs/g"}));
}

TEST(NvccTranslateTest, SystemAndPreIncludesMadeAbsolute) {
  EXPECT_EQ(nvccArgs({"-isystem", "sys", "--system-include=sys2", "-include", "pre.h",
                      "--pre-include", "../pre2.h"}),
            (Strings{"-isystem", "/build/sys", "-isystem", "/build/sys2", "-include",
                     "/build/pre.h", "-include", "/pre2.h"}));
}

TEST(NvccTranslateTest, OptionsFileIsExpanded) {
  TempDir Tmp;
  Tmp.file("includes_CUDA.rsp", "-I\"inc dir\" -isystem /usr/include/x --expt-relaxed-constexpr");
  TUFlags Flags = normalizeCompileCommand(
      {"nvcc", "--options-file", "includes_CUDA.rsp", "-x", "cu", "-c", "a.cu"}, Tmp.Path);
  EXPECT_EQ(Flags.Args,
            (Strings{"-I" + Tmp.path("inc dir"), "-isystem", "/usr/include/x", "-x", "cuda"}));
}

TEST(NvccTranslateTest, MissingOptionsFileIsSkipped) {
  EXPECT_EQ(nvccArgs({"--options-file", "absent.rsp", "-DX"}), Strings{"-DX"});
}

//===----------------------------------------------------------------------===//
// nvcc: dropped flags
//===----------------------------------------------------------------------===//

TEST(NvccDropTest, FlagsWithoutValue) {
  EXPECT_TRUE(
      nvccArgs({"--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--expt-extended-lambda",
                "--extended-lambda", "-extended-lambda", "-lineinfo", "--generate-line-info", "-G",
                "--keep", "-forward-unknown-to-host-compiler", "--resource-usage",
                "--display-error-number"})
          .empty());
}

TEST(NvccDropTest, FlagsWithSeparateValue) {
  EXPECT_TRUE(nvccArgs({"-Xptxas",
                        "-v",
                        "-Xcudafe",
                        "--diag_suppress=177",
                        "-Xnvlink",
                        "--verbose",
                        "--ptxas-options",
                        "-O3",
                        "--threads",
                        "4",
                        "-t",
                        "8",
                        "-ccbin",
                        "/usr/bin/g++-12",
                        "--compiler-bindir",
                        "/opt/gcc",
                        "-maxrregcount",
                        "64",
                        "--maxrregcount",
                        "128",
                        "--default-stream",
                        "per-thread",
                        "--diag-suppress",
                        "177,550",
                        "-diag-suppress",
                        "20012"})
                  .empty());
}

TEST(NvccDropTest, FlagsWithEqualsValue) {
  EXPECT_TRUE(nvccArgs({"-Xptxas=-v", "--ptxas-options=-v", "--threads=0", "-maxrregcount=32",
                        "--maxrregcount=32", "--default-stream=legacy", "--diag-suppress=177",
                        "-diag-suppress=186", "-ccbin=/usr/bin/g++", "--compiler-bindir=/opt"})
                  .empty());
}

TEST(NvccDropTest, NvccWerrorKinds) {
  EXPECT_TRUE(nvccArgs({"-Werror=cross-execution-space-call", "--Werror=reorder", "-Werror",
                        "all-warnings"})
                  .empty());
}

TEST(NvccDropTest, FloatingPointModeFlags) {
  EXPECT_TRUE(nvccArgs({"--ftz=true", "--prec-div=false", "--prec-sqrt", "false", "--fmad=true",
                        "-fmad", "false"})
                  .empty());
}

TEST(NvccDropTest, StaticGlobalTemplateStub) {
  EXPECT_TRUE(
      nvccArgs({"-static-global-template-stub=false", "--static-global-template-stub", "true"})
          .empty());
}

TEST(NvccDropTest, FastCompileIsNotAnOptimizationLevel) {
  EXPECT_EQ(nvccArgs({"-Ofc=max", "--Ofast-compile", "mid", "-O2"}), Strings{"-O2"});
}

TEST(NvccDropTest, UnknownNvccOptionsAndTheirValues) {
  EXPECT_EQ(nvccArgs({"--keep-dir", "tmp", "-Xlinker", "-rpath", "-g", "-DX"}), Strings{"-DX"});
}

TEST(NvccDropTest, OutputAndDependencyFlags) {
  EXPECT_TRUE(
      nvccArgs({"-MD", "-MT", "a.cu.o", "-MF", "a.cu.o.d", "-c", "a.cu", "-o", "a.cu.o"}).empty());
}

TEST(NvccTest, DetectedByBasenameContainingNvcc) {
  EXPECT_EQ(
      normalizeCompileCommand({"/opt/cuda-13/bin/nvcc.exe", "--expt-relaxed-constexpr"}, "/b").Args,
      Strings{});
  EXPECT_EQ(normalizeCompileCommand({"g++", "--expt-relaxed-constexpr"}, "/b").Args,
            Strings{"--expt-relaxed-constexpr"});
}

TEST(NvccTest, RealisticCMakeCommand) {
  // As CMake 3.28 with Ninja writes it for a CUDA target with
  // CUDA_ARCHITECTURES 90a and CUDA_SEPARABLE_COMPILATION off.
  Strings Argv = {"/usr/local/cuda/bin/nvcc",
                  "-forward-unknown-to-host-compiler",
                  "-DTORCH_EXTENSION_NAME=causal_conv1d",
                  "-Dcausal_conv1d_EXPORTS",
                  "-I/src/csrc",
                  "-I/src/build/_deps",
                  "-isystem",
                  "/opt/torch/include",
                  "-O3",
                  "-DNDEBUG",
                  "-std=c++17",
                  "--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]",
                  "-Xcompiler=-fPIC",
                  "--expt-relaxed-constexpr",
                  "--expt-extended-lambda",
                  "--use_fast_math",
                  "-Xptxas=-v",
                  "-lineinfo",
                  "-MD",
                  "-MT",
                  "CMakeFiles/causal_conv1d.dir/csrc/causal_conv1d.cu.o",
                  "-MF",
                  "CMakeFiles/causal_conv1d.dir/csrc/causal_conv1d.cu.o.d",
                  "-x",
                  "cu",
                  "-c",
                  "/src/csrc/causal_conv1d.cu",
                  "-o",
                  "CMakeFiles/causal_conv1d.dir/csrc/causal_conv1d.cu.o"};
  TUFlags Flags = normalizeCompileCommand(Argv, "/src/build");
  EXPECT_EQ(Flags.Args, (Strings{"-DTORCH_EXTENSION_NAME=causal_conv1d", "-Dcausal_conv1d_EXPORTS",
                                 "-I/src/csrc", "-I/src/build/_deps", "-isystem",
                                 "/opt/torch/include", "-O3", "-DNDEBUG", "-std=c++17", "-fPIC",
                                 "-ffast-math", "-x", "cuda", "--cuda-gpu-arch=sm_90a"}));
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_90a"});
  EXPECT_EQ(Flags.Directory, "/src/build");
}

//===----------------------------------------------------------------------===//
// Host compilers
//===----------------------------------------------------------------------===//

TEST(HostCompilerTest, GxxPassesThroughMinusInputOutputAndDeps) {
  TUFlags Flags =
      normalizeCompileCommand({"/usr/bin/g++", "-DNDEBUG", "-I/src/include", "-std=gnu++17", "-O2",
                               "-g", "-pthread", "-fopenmp", "-Wall", "-march=native", "-MD", "-MT",
                               "a.o", "-MF", "a.o.d", "-o", "a.o", "-c", "/src/a.cpp"},
                              "/src/build");
  EXPECT_EQ(Flags.Args, (Strings{"-DNDEBUG", "-I/src/include", "-std=gnu++17", "-O2", "-g",
                                 "-pthread", "-fopenmp", "-Wall", "-march=native"}));
  EXPECT_TRUE(Flags.GpuArchs.empty());
  EXPECT_EQ(Flags.Directory, "/src/build");
}

TEST(HostCompilerTest, ClangxxCudaKeepsGpuArchs) {
  TUFlags Flags = normalizeCompileCommand({"clang++", "-x", "cuda", "--cuda-gpu-arch=sm_90",
                                           "--cuda-gpu-arch=sm_90", "--offload-arch=sm_80",
                                           "-fgpu-rdc", "-c", "k.cu"},
                                          "/b");
  EXPECT_EQ(Flags.Args,
            (Strings{"-x", "cuda", "--cuda-gpu-arch=sm_90", "--offload-arch=sm_80", "-fgpu-rdc"}));
  EXPECT_EQ(Flags.GpuArchs, (Strings{"sm_90", "sm_80"}));
}

TEST(HostCompilerTest, RelativeIncludesMadeAbsolute) {
  EXPECT_EQ(normalizeCompileCommand({"c++", "-Iinc", "-I", "../other/./inc", "-isystem", "sys",
                                     "-isystemsys2", "-iquote", "q", "-include", "cfg.h",
                                     "-I/abs/../abs2"},
                                    "/src/build")
                .Args,
            (Strings{"-I/src/build/inc", "-I/src/other/inc", "-isystem", "/src/build/sys",
                     "-isystem", "/src/build/sys2", "-iquote", "/src/build/q", "-include",
                     "/src/build/cfg.h", "-I/abs2"}));
}

TEST(HostCompilerTest, IncludePchIsNotAJoinedInclude) {
  EXPECT_EQ(normalizeCompileCommand({"clang++", "-include-pch", "/p/a.pch"}, "/b").Args,
            (Strings{"-include-pch", "/p/a.pch"}));
}

TEST(HostCompilerTest, DropsDependencyFlags) {
  EXPECT_EQ(normalizeCompileCommand({"g++", "-M", "-MM", "-MD", "-MMD", "-MP", "-MF", "x.d", "-MT",
                                     "x.o", "-MQ", "x.o", "-MFy.d", "-DKEEP"},
                                    "/b")
                .Args,
            Strings{"-DKEEP"});
}

TEST(HostCompilerTest, DropsInputOfEverySourceExtension) {
  for (const char *Input : {"a.cu", "a.cpp", "a.cc", "a.cxx", "a.c", "/abs/dir.v2/b.cu"})
    EXPECT_EQ(normalizeCompileCommand({"clang++", "-DX", Input}, "/b").Args, Strings{"-DX"})
        << Input;
}

TEST(HostCompilerTest, EmptyCommand) {
  TUFlags Flags = normalizeCompileCommand({}, "/b");
  EXPECT_TRUE(Flags.Args.empty());
  EXPECT_EQ(Flags.Directory, "/b");
}

//===----------------------------------------------------------------------===//
// Compile databases
//===----------------------------------------------------------------------===//

TEST(CompileDatabaseTest, LoadsCommandForm) {
  TempDir Tmp;
  std::string Build = Tmp.dir("build");
  Tmp.file("build/compile_commands.json", R"([{
    "directory": ")" + Build + R"(",
    "command": "/usr/local/cuda/bin/nvcc -Iinc -gencode arch=compute_90a,code=sm_90a -x cu -c ../src/a.cu -o a.o",
    "file": "../src/a.cu"
  }])");
  llvm::Expected<CompileDatabase> Database = loadCompileDatabase(Build);
  ASSERT_TRUE(bool(Database)) << llvm::toString(Database.takeError());
  ASSERT_EQ(Database->ByFile.size(), 1u);
  const auto &[File, Flags] = *Database->ByFile.begin();
  EXPECT_EQ(File, Tmp.path("src/a.cu"));
  EXPECT_EQ(Flags.Args, (Strings{"-I" + Build + "/inc", "-x", "cuda", "--cuda-gpu-arch=sm_90a"}));
  EXPECT_EQ(Flags.GpuArchs, Strings{"sm_90a"});
  EXPECT_EQ(Flags.Directory, Build);
}

TEST(CompileDatabaseTest, LoadsArgumentsForm) {
  TempDir Tmp;
  std::string Build = Tmp.dir("build");
  Tmp.file("build/compile_commands.json", R"([
    {"directory": ")" + Build + R"(",
     "arguments": ["/usr/bin/c++", "-I../include", "-std=c++17", "-c", "/src/b.cpp", "-o", "b.o"],
     "file": "/src/b.cpp"},
    {"directory": ")" + Build + R"(",
     "arguments": ["nvcc", "-arch=sm_80", "-c", "/src/c.cu"],
     "file": "/src/c.cu"}
  ])");
  llvm::Expected<CompileDatabase> Database = loadCompileDatabase(Build);
  ASSERT_TRUE(bool(Database)) << llvm::toString(Database.takeError());
  ASSERT_EQ(Database->ByFile.size(), 2u);
  EXPECT_EQ(Database->ByFile.at("/src/b.cpp").Args,
            (Strings{"-I" + Tmp.path("include"), "-std=c++17"}));
  EXPECT_EQ(Database->ByFile.at("/src/c.cu").GpuArchs, Strings{"sm_80"});
}

TEST(CompileDatabaseTest, MissingDirectoryIsInputError) {
  TempDir Tmp;
  std::string Missing = Tmp.path("no-such-build");
  llvm::Expected<CompileDatabase> Database = loadCompileDatabase(Missing);
  ASSERT_FALSE(bool(Database));
  std::string Message = messageOf(Database.takeError());
  EXPECT_NE(Message.find(Missing + "/compile_commands.json"), std::string::npos) << Message;
  EXPECT_NE(Message.find("not a directory"), std::string::npos) << Message;
}

TEST(CompileDatabaseTest, MissingFileIsInputError) {
  TempDir Tmp;
  llvm::Expected<CompileDatabase> Database = loadCompileDatabase(Tmp.Path);
  ASSERT_FALSE(bool(Database));
  std::string Message = messageOf(Database.takeError());
  EXPECT_NE(Message.find(Tmp.path("compile_commands.json")), std::string::npos) << Message;
  EXPECT_NE(Message.find("CMAKE_EXPORT_COMPILE_COMMANDS"), std::string::npos) << Message;
}

TEST(CompileDatabaseTest, MalformedJsonIsInputError) {
  TempDir Tmp;
  std::string File = Tmp.file("compile_commands.json", R"([{"directory": "/b", "file": )");
  llvm::Expected<CompileDatabase> Database = loadCompileDatabase(Tmp.Path);
  ASSERT_FALSE(bool(Database));
  std::string Message = messageOf(Database.takeError());
  EXPECT_NE(Message.find(File), std::string::npos) << Message;
}

TEST(CompileDatabaseTest, EmptyArrayIsInputError) {
  TempDir Tmp;
  std::string File = Tmp.file("compile_commands.json", "[]\n");
  llvm::Expected<CompileDatabase> Database = loadCompileDatabase(Tmp.Path);
  ASSERT_FALSE(bool(Database));
  std::string Message = messageOf(Database.takeError());
  EXPECT_NE(Message.find(File), std::string::npos) << Message;
  EXPECT_NE(Message.find("no entries"), std::string::npos) << Message;
}

//===----------------------------------------------------------------------===//
// Toolchain
//===----------------------------------------------------------------------===//

/// A directory that looks like a CUDA install to findToolchain.
std::string fakeCuda(const TempDir &Tmp, llvm::StringRef Name) {
  Tmp.dir(Name.str() + "/include");
  Tmp.file(Name.str() + "/include/cuda_runtime.h", "");
  return Tmp.path(Name);
}

TEST(ToolchainTest, CudaPathFromOption) {
  TempDir Tmp;
  ScopedEnv NoTorch("OPMIG_NO_TORCH", "1");
  std::string Cuda = fakeCuda(Tmp, "cuda-opt");
  EXPECT_EQ(findToolchain(Cuda, {}).CudaPath, Cuda);
}

TEST(ToolchainTest, CudaPathFromCudaHome) {
  TempDir Tmp;
  ScopedEnv NoTorch("OPMIG_NO_TORCH", "1");
  ScopedEnv Home("CUDA_HOME", fakeCuda(Tmp, "cuda-home"));
  EXPECT_EQ(findToolchain("", {}).CudaPath, Tmp.path("cuda-home"));
}

TEST(ToolchainTest, CudaPathEmptyWithoutRuntimeHeader) {
  TempDir Tmp;
  ScopedEnv NoTorch("OPMIG_NO_TORCH", "1");
  EXPECT_EQ(findToolchain(Tmp.dir("not-cuda"), {}).CudaPath, "");
}

TEST(ToolchainTest, CudaPathDefaultsToUsrLocalCuda) {
  ScopedEnv NoTorch("OPMIG_NO_TORCH", "1");
  ScopedEnv Home("CUDA_HOME", std::nullopt);
  bool Installed = llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h");
  EXPECT_EQ(findToolchain("", {}).CudaPath, Installed ? "/usr/local/cuda" : "");
}

TEST(ToolchainTest, ResourceDirHoldsClangCudaWrappers) {
  ScopedEnv NoTorch("OPMIG_NO_TORCH", "1");
  std::string ResourceDir = findToolchain("", {}).ResourceDir;
  EXPECT_TRUE(llvm::sys::fs::exists(ResourceDir + "/include/__clang_cuda_runtime_wrapper.h"))
      << ResourceDir;
}

TEST(ToolchainTest, TorchIncludeOptionWins) {
  ScopedEnv NoTorch("OPMIG_NO_TORCH", std::nullopt);
  ScopedEnv Path("PATH", "/nonexistent");
  EXPECT_EQ(
      findToolchain("", {"/opt/torch/include", "/opt/torch/include/api/../api"}).Torch.IncludeDirs,
      (Strings{"/opt/torch/include", "/opt/torch/include/api"}));
}

/// A `python3` on a PATH of its own, printing `Output` and exiting `Status`.
class FakePython {
public:
  FakePython(llvm::StringRef Output, int Status)
      : Path("PATH", Tmp.Path), NoTorch("OPMIG_NO_TORCH", std::nullopt) {
    std::string Script = Tmp.file("python3", "#!/bin/sh\nprintf '" + Output.str() + "'\nexit " +
                                                 std::to_string(Status) + "\n");
    EXPECT_FALSE(llvm::sys::fs::setPermissions(
        Script, llvm::sys::fs::all_read | llvm::sys::fs::all_exe | llvm::sys::fs::owner_write));
  }

  TempDir Tmp;

private:
  ScopedEnv Path;
  ScopedEnv NoTorch;
};

/// A torch package folder as a PyPI wheel lays it out, its headers
/// demanding C++`Standard` (0: no demand).
std::string makeTorchPackage(TempDir &Tmp, unsigned Standard) {
  std::string Package = Tmp.dir("site-packages/torch");
  Tmp.dir("site-packages/torch/include/torch/csrc/api/include/torch");
  Tmp.dir("site-packages/torch/include/ATen");
  Tmp.dir("site-packages/torch/lib");
  Tmp.file("site-packages/torch/version.py", "__version__ = '9.1.0+cu999'\n");
  std::string Check = Standard
                          ? "#if __cplusplus < 1\n#error C++" + std::to_string(Standard) +
                                " or later compatible compiler is required to use ATen.\n#endif\n"
                          : "";
  Tmp.file("site-packages/torch/include/ATen/ATen.h", "#pragma once\n" + Check);
  return Package;
}

TEST(ToolchainTest, TorchProbeReadsThePackageWithoutImportingIt) {
  TempDir Torch;
  std::string Package = makeTorchPackage(Torch, 20);
  FakePython Python(
      "python_include=" + Torch.path("nowhere") + "\\ntorch_package=" + Package + "\\n", 0);
  ToolchainPaths Found = findToolchain("", {});
  EXPECT_EQ(Found.Torch.IncludeDirs,
            (Strings{Package + "/include", Package + "/include/torch/csrc/api/include"}));
  EXPECT_EQ(Found.Torch.LibDir, Package + "/lib");
  EXPECT_EQ(Found.Torch.Version, "9.1.0+cu999");
  EXPECT_EQ(Found.Torch.CxxStandard, 20u);
  EXPECT_EQ(Found.PythonIncludeDir, "") << "a directory without Python.h is not Python's";
}

TEST(ToolchainTest, PythonIncludeDirNeedsPythonH) {
  TempDir Tmp;
  std::string Include = Tmp.dir("python/include");
  Tmp.file("python/include/Python.h", "");
  FakePython Python("python_include=" + Include + "\\n", 0);
  ToolchainPaths Found = findToolchain("", {});
  EXPECT_EQ(Found.PythonIncludeDir, Include);
  EXPECT_TRUE(Found.Torch.IncludeDirs.empty());
}

TEST(ToolchainTest, TorchIncludeOptionFindsLibAndStandardBesideIt) {
  TempDir Torch;
  std::string Package = makeTorchPackage(Torch, 17);
  ToolchainPaths Found = findToolchain("", {Package + "/include"});
  EXPECT_EQ(Found.Torch.LibDir, Package + "/lib");
  EXPECT_EQ(Found.Torch.CxxStandard, 17u);
}

TEST(ToolchainTest, TorchProbeIgnoresFailingPython) {
  TempDir Torch;
  FakePython Python("torch_package=" + makeTorchPackage(Torch, 20) + "\\n", 1);
  EXPECT_TRUE(findToolchain("", {}).Torch.IncludeDirs.empty());
}

TEST(ToolchainTest, TorchProbeSkippedWithOptOut) {
  TempDir Torch;
  FakePython Python("torch_package=" + makeTorchPackage(Torch, 20) + "\\n", 0);
  ScopedEnv NoTorch("OPMIG_NO_TORCH", "1");
  EXPECT_TRUE(findToolchain("", {}).Torch.IncludeDirs.empty());
}

//===----------------------------------------------------------------------===//
// Inferred and common flags
//===----------------------------------------------------------------------===//

TEST(InferFlagsTest, IncludesRootAndSourceDirsAtAnyDepth) {
  TempDir Tmp;
  std::string Root = Tmp.dir("repo");
  Tmp.dir("repo/csrc/include");
  Tmp.dir("repo/third_party/cutlass/include");
  Tmp.dir("repo/lib/src");
  Tmp.dir("repo/docs");
  Tmp.dir("repo/.git/include");
  Tmp.dir("repo/.cache/src");
  std::string Outside = Tmp.dir("outside/include");
  ASSERT_FALSE(llvm::sys::fs::create_link(Tmp.path("outside"), Tmp.path("repo/linked")));
  ASSERT_FALSE(llvm::sys::fs::create_link(Outside, Tmp.path("repo/src")));
  ToolchainPaths Toolchain;
  Toolchain.Torch.IncludeDirs = {"/opt/torch/include"};
  TUFlags Flags = inferFlags(Root + "/./", Toolchain);
  EXPECT_EQ(Flags.Args, (Strings{"-std=c++17", "-I" + Root, "-I" + Root + "/csrc",
                                 "-I" + Root + "/csrc/include", "-I" + Root + "/lib/src",
                                 "-I" + Root + "/third_party/cutlass/include", "-isystem",
                                 "/opt/torch/include"}));
  EXPECT_EQ(Flags.Directory, Root);
  EXPECT_TRUE(Flags.GpuArchs.empty());
}

TEST(InferFlagsTest, StandardIsTheNewestThatTorchOrTheUpstreamDemands) {
  TempDir Tmp;
  std::string Root = Tmp.dir("repo");
  ToolchainPaths Toolchain;
  Toolchain.Torch.IncludeDirs = {"/opt/torch/include"};
  Toolchain.Torch.CxxStandard = 20;
  Toolchain.PythonIncludeDir = "/opt/python/include";
  EXPECT_EQ(inferFlags(Root, Toolchain).Args,
            (Strings{"-std=c++20", "-I" + Root, "-isystem", "/opt/torch/include", "-isystem",
                     "/opt/python/include"}));
  UpstreamBuildFlags Upstream;
  Upstream.CxxStandard = 23;
  Upstream.Defines = {"-DENABLE_BF16=1", "-U__CUDA_NO_HALF_OPERATORS__"};
  Upstream.IncludeDirs = {Tmp.dir("repo/third_party/cutlass/include")};
  EXPECT_EQ(inferFlags(Root, Toolchain, Upstream).Args,
            (Strings{"-std=c++23", "-DENABLE_BF16=1", "-U__CUDA_NO_HALF_OPERATORS__", "-I" + Root,
                     "-I" + Root + "/third_party/cutlass/include", "-isystem", "/opt/torch/include",
                     "-isystem", "/opt/python/include"}));
}

TEST(CommonFlagsTest, WithCuda) {
  ToolchainPaths Toolchain;
  Toolchain.CudaPath = "/usr/local/cuda";
  Toolchain.ResourceDir = "/usr/lib/llvm-22/lib/clang/22";
  EXPECT_EQ(commonClangFlags(Toolchain),
            (Strings{"-resource-dir=/usr/lib/llvm-22/lib/clang/22", "--cuda-path=/usr/local/cuda",
                     "-isystem", "/usr/local/cuda/include/cccl", "-Wno-unknown-cuda-version", "-w",
                     "-ferror-limit=0"}));
}

TEST(CommonFlagsTest, WithoutCuda) {
  ToolchainPaths Toolchain;
  Toolchain.ResourceDir = "/r";
  EXPECT_EQ(commonClangFlags(Toolchain),
            (Strings{"-resource-dir=/r", "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version",
                     "-w", "-ferror-limit=0"}));
}

//===----------------------------------------------------------------------===//
// Flags the upstream's own build declares
//===----------------------------------------------------------------------===//

std::string python3() {
  llvm::ErrorOr<std::string> Python = llvm::sys::findProgramByName("python3");
  return Python ? *Python : "";
}

TEST(UpstreamBuildFlagsTest, ReadsSetupPyStatically) {
  if (python3().empty())
    GTEST_SKIP() << "no python3 on PATH: setup.py is read on CPython's ast";
  TempDir Tmp;
  std::string Root = Tmp.dir("repo");
  Tmp.dir("repo/src");
  Tmp.dir("repo/third_party/cutlass/include");
  Tmp.dir("repo/third_party/json/single_include");
  // The shapes real extension builds use: flag lists in variables, a
  // comprehension, os.path.join and pathlib spellings, and one computed path
  // that cannot be read statically.
  Tmp.file("repo/setup.py", R"py(
import os
from pathlib import Path
ROOT = os.path.dirname(__file__)
NVCC_FLAGS = ["-DENABLE_BF16=1", "-U__CUDA_NO_HALF_OPERATORS__", "--expt-relaxed-constexpr",
              "-std=c++20", "-O3", "-use_fast_math", "--ftz=false", "-lineinfo",
              "--maxrregcount=128", "---expt-extended-lambda", "-Xptxas=-v"]
CXX_FLAGS = ("-DBUILD_NUNCHAKU=1 -fvisibility=hidden").split()
INCLUDE_DIRS = [os.path.join(ROOT, "src"), Path(ROOT) / "third_party" / "cutlass" / "include"]
def ext():
    return CUDAExtension(
        name="demo._C",
        sources=[f for f in ["src/a.cu"]],
        include_dirs=INCLUDE_DIRS + ["third_party/json/single_include", os.environ["SOMEWHERE"]],
        extra_compile_args={"cxx": CXX_FLAGS, "nvcc": NVCC_FLAGS + ["-I../outside"]})
)py");
  UpstreamBuildFlags Flags = readUpstreamBuildFlags(Root, python3());
  EXPECT_EQ(Flags.CxxStandard, 20u);
  // torch's own nvcc defines come first, as on its command line: the
  // script's `-U` after them wins.
  EXPECT_EQ(Flags.Defines,
            (Strings{"-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                     "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__",
                     "-DENABLE_BF16=1", "-U__CUDA_NO_HALF_OPERATORS__", "-DBUILD_NUNCHAKU=1"}));
  EXPECT_EQ(Flags.IncludeDirs, (Strings{Root + "/src", Root + "/third_party/cutlass/include",
                                        Root + "/third_party/json/single_include"}));
  // What changes the accepted code or the computed values is kept, spelled
  // `--flag`; optimisation, debug info and ptxas options are the target's.
  EXPECT_EQ(Flags.NvccFlags, (Strings{"--expt-relaxed-constexpr", "--use_fast_math", "--ftz=false",
                                      "--maxrregcount=128"}));
  EXPECT_EQ(Flags.ReadFrom, Strings{"setup.py"});
}

// torch's CUDAExtension puts its own flags on every nvcc command; a build
// that uses it needs them (a constexpr host function called from device
// code compiles only with --expt-relaxed-constexpr), one that does not
// never had them.
TEST(UpstreamBuildFlagsTest, TorchsNvccFlagsComeWithCUDAExtensionOnly) {
  if (python3().empty())
    GTEST_SKIP() << "no python3 on PATH: setup.py is read on CPython's ast";
  TempDir Tmp;
  std::string Cuda = Tmp.dir("cuda"), Cpp = Tmp.dir("cpp");
  Tmp.file("cuda/setup.py", "from torch.utils import cpp_extension\n"
                            "setup(ext_modules=[cpp_extension.CUDAExtension('m', ['m.cu'])])\n");
  Tmp.file("cpp/setup.py", "from torch.utils.cpp_extension import CppExtension\n"
                           "setup(ext_modules=[CppExtension('m', ['m.cpp'], "
                           "extra_compile_args=['-O3'])])\n");
  UpstreamBuildFlags WithCuda = readUpstreamBuildFlags(Cuda, python3());
  EXPECT_EQ(WithCuda.NvccFlags, Strings{"--expt-relaxed-constexpr"});
  EXPECT_EQ(WithCuda.Defines.size(), 4u);
  UpstreamBuildFlags WithCpp = readUpstreamBuildFlags(Cpp, python3());
  EXPECT_TRUE(WithCpp.NvccFlags.empty());
  EXPECT_TRUE(WithCpp.Defines.empty());
}

TEST(UpstreamBuildFlagsTest, MalformedSetupPyContributesNothing) {
  if (python3().empty())
    GTEST_SKIP() << "no python3 on PATH: setup.py is read on CPython's ast";
  TempDir Tmp;
  std::string Root = Tmp.dir("repo");
  Tmp.file("repo/setup.py", "def broken(:\n  '-std=c++20'\n");
  UpstreamBuildFlags Flags = readUpstreamBuildFlags(Root, python3());
  EXPECT_EQ(Flags.CxxStandard, 0u);
  EXPECT_TRUE(Flags.ReadFrom.empty());
}

TEST(UpstreamBuildFlagsTest, ReadsCMakeLists) {
  TempDir Tmp;
  std::string Root = Tmp.dir("repo");
  Tmp.dir("repo/csrc");
  Tmp.dir("repo/third_party/cutlass/include");
  UpstreamBuildFlags Flags;
  readCMakeFlags(R"cmake(
cmake_minimum_required(VERSION 3.20)
project(demo LANGUAGES CXX CUDA)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CUDA_STANDARD "17")
add_compile_definitions(USE_FAST=1 ${EXTRA})
add_definitions(-DLEGACY -UNDEBUG)
add_library(demo SHARED csrc/a.cu)
target_compile_features(demo PUBLIC cxx_std_20)
target_compile_definitions(demo PRIVATE DEMO_API=1)
target_include_directories(demo PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/csrc
  "third_party/cutlass/include" ${Torch_INCLUDE_DIRS} /usr/include)
)cmake",
                 Root, Flags);
  EXPECT_EQ(Flags.CxxStandard, 20u);
  EXPECT_EQ(Flags.Defines, (Strings{"-DUSE_FAST=1", "-DLEGACY", "-UNDEBUG", "-DDEMO_API=1"}));
  EXPECT_EQ(Flags.IncludeDirs, (Strings{Root + "/csrc", Root + "/third_party/cutlass/include"}));
  EXPECT_TRUE(Flags.NvccFlags.empty());
}

TEST(UpstreamBuildFlagsTest, ReadsNvccFlagsOfCMakeLists) {
  UpstreamBuildFlags Flags;
  readCMakeFlags(R"cmake(
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --expt-relaxed-constexpr -O3")
string(APPEND CMAKE_CUDA_FLAGS " -use_fast_math")
# set(CMAKE_CUDA_FLAGS "--prec-div=true")   a comment is not a flag
target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false -lineinfo>)
add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:--expt-extended-lambda>")
target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)
)cmake",
                 "/nonexistent", Flags);
  EXPECT_EQ(Flags.NvccFlags, (Strings{"--expt-relaxed-constexpr", "--use_fast_math", "--fmad=false",
                                      "--expt-extended-lambda"}));
}

} // namespace
