#include "ToolRunner.h"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace opmig::test {

namespace {

std::vector<std::string> &tempDirs() {
  static std::vector<std::string> Dirs;
  static const int Registered = std::atexit([] {
    for (const std::string &Dir : tempDirs())
      std::filesystem::remove_all(Dir);
  });
  (void)Registered;
  return Dirs;
}

} // namespace

nlohmann::json ToolResult::json() const {
  nlohmann::json Parsed = nlohmann::json::parse(Stdout, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(Parsed.is_discarded()) << "stdout is not JSON:\n" << Stdout << "\n" << Stderr;
  return Parsed.is_discarded() ? nlohmann::json() : Parsed;
}

std::string makeTempDir() {
  std::string Template = (std::filesystem::temp_directory_path() / "opmig-test-XXXXXX").string();
  if (!mkdtemp(Template.data()))
    ADD_FAILURE() << "cannot create a temporary directory";
  tempDirs().push_back(Template);
  return Template;
}

std::string pinnedTorchDir() {
  if (const char *Dir = std::getenv("OPMIG_TORCH_DIR"); Dir && *Dir)
    return Dir;
  const char *Cache = std::getenv("XDG_CACHE_HOME");
  std::string Base = Cache && *Cache ? Cache : std::string(std::getenv("HOME")) + "/.cache";
  return Base + "/opmig/torch-" + OPMIG_TORCH_VERSION + "-full";
}

std::string fixture(const std::string &Name) { return "tests/fixtures/" + Name; }

std::vector<std::string> stubArgs() {
  return {"--", "-isystem", std::string(OPMIG_FIXTURES_DIR) + "/stubs/include"};
}

bool haveNvcc() {
  if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
    return true;
  return std::system("command -v nvcc >/dev/null 2>&1") == 0;
}

void writeFile(const std::string &Path, const std::string &Content) {
  std::filesystem::create_directories(std::filesystem::path(Path).parent_path());
  std::ofstream(Path, std::ios::binary) << Content;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  return Buffer.str();
}

ToolResult runProgram(std::vector<std::string> Argv, const std::vector<std::string> &Env) {
  std::string Out = makeTempDir();
  std::string StdoutPath = Out + "/stdout", StderrPath = Out + "/stderr";
  pid_t Pid = fork();
  if (Pid == 0) {
    if (chdir(OPMIG_SOURCE_DIR) != 0)
      _exit(127);
    int OutFD = open(StdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ErrFD = open(StderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(OutFD, 1);
    dup2(ErrFD, 2);
    setenv("OPMIG_NO_TORCH", "1", 1);
    for (const std::string &Setting : Env) {
      size_t Equals = Setting.find('=');
      setenv(Setting.substr(0, Equals).c_str(), Setting.substr(Equals + 1).c_str(), 1);
    }
    std::vector<char *> CArgs;
    for (std::string &Arg : Argv)
      CArgs.push_back(Arg.data());
    CArgs.push_back(nullptr);
    execv(CArgs[0], CArgs.data());
    _exit(127);
  }
  int Status = 0;
  waitpid(Pid, &Status, 0);
  ToolResult Result;
  Result.ExitCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  Result.Stdout = readFile(StdoutPath);
  Result.Stderr = readFile(StderrPath);
  return Result;
}

ToolResult runOpmig(const std::vector<std::string> &Args, const std::vector<std::string> &Env) {
  std::vector<std::string> Argv = {OPMIG_BINARY};
  bool HasCache = false;
  for (const std::string &Arg : Args)
    HasCache |= Arg == "--cache-dir" || Arg == "--no-cache";
  // Subcommand first, then the analysis cache the suite's processes share
  // (tests/CMakeLists.txt), so the HOME cache is untouched: its entries are
  // keyed by content and by this build of opmig, so a test reads what another
  // parsed. A test about the cache itself passes a cache of its own.
  for (size_t I = 0; I < Args.size(); ++I) {
    Argv.push_back(Args[I]);
    if (I == 0 && (Args[0] == "analyze" || Args[0] == "migrate" || Args[0] == "review") &&
        !HasCache) {
      Argv.push_back("--cache-dir");
      Argv.push_back(OPMIG_TEST_ANALYSIS_CACHE);
    }
  }
  return runProgram(std::move(Argv), Env);
}

} // namespace opmig::test
