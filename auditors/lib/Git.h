//===- Git.h - The few git queries an audit makes ---------------*- C++ -*-===//

#ifndef OPMIG_AUDIT_GIT_H
#define OPMIG_AUDIT_GIT_H

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace opmig::audit {

struct GitOutput {
  int ExitCode = -1;
  std::string Stdout, Stderr;
};

/// Runs `git -C Dir Args...`; nullopt when git is not installed.
llvm::Expected<std::optional<GitOutput>> runGit(const std::string &Dir,
                                                const std::vector<std::string> &Args);

/// Splits `-z` output into its entries.
std::vector<std::string> splitNul(const std::string &Text);

} // namespace opmig::audit

#endif
