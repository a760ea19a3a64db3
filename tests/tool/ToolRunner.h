//===- ToolRunner.h - Run the opmig binary from tests -----------*- C++ -*-===//

#ifndef OPMIG_TESTS_TOOLRUNNER_H
#define OPMIG_TESTS_TOOLRUNNER_H

#include "nlohmann/json.hpp"

#include <string>
#include <vector>

namespace opmig::test {

struct ToolResult {
  int ExitCode = -1;
  std::string Stdout, Stderr;

  /// Stdout parsed as JSON; a test failure (and null) when it is not JSON.
  nlohmann::json json() const;
};

/// Runs the program `Argv[0]` (an absolute path) in the repository root with
/// OPMIG_NO_TORCH=1 (no torch probe) and the `NAME=VALUE` settings of `Env`.
ToolResult runProgram(std::vector<std::string> Argv, const std::vector<std::string> &Env = {});

/// Runs `opmig Args...` like `runProgram`; an `analyze` or `migrate` that
/// names no cache gets the suite's shared analysis cache.
ToolResult runOpmig(const std::vector<std::string> &Args, const std::vector<std::string> &Env = {});

/// `-- -isystem <stub torch/pybind headers>`: what every fixture needs.
std::vector<std::string> stubArgs();

/// Whether opmig finds an nvcc here (/usr/local/cuda/bin/nvcc or on PATH),
/// as it does to judge TUs Clang rejects.
bool haveNvcc();

/// The folder scripts/install-deps.sh installs the pinned torch and its
/// dependencies into (`$OPMIG_TORCH_DIR`, else
/// `~/.cache/opmig/torch-<version>-full`, as scripts/common.sh names it).
std::string pinnedTorchDir();

/// A fresh temporary directory, removed at exit.
std::string makeTempDir();

/// Path of a fixture tree, relative to the repository root.
std::string fixture(const std::string &Name);

void writeFile(const std::string &Path, const std::string &Content);
std::string readFile(const std::string &Path);

} // namespace opmig::test

#endif
