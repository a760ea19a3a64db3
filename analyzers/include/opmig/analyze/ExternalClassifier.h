//===- ExternalClassifier.h - Sort external includes by origin --*- C++ -*-===//
//
// An include that leaves the tree is one of: the CUDA toolkit, CCCL (cub,
// thrust, libcu++), torch, pybind11, a third-party submodule (present or
// not), another system header, or missing. The spelling decides for the
// well-known prefixes, the resolved path for everything else.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_EXTERNALCLASSIFIER_H
#define OPMIG_ANALYZE_EXTERNALCLASSIFIER_H

#include "opmig/analyze/AnalysisResult.h"
#include "opmig/analyze/CompileFlags.h"
#include "opmig/analyze/TUFacts.h"

#include <string>
#include <vector>

namespace opmig::analyze {

class ExternalClassifier {
public:
  /// `SubmoduleDirs` are absolute.
  ExternalClassifier(const ToolchainPaths &Toolchain, std::vector<std::string> SubmoduleDirs);

  ExternalClass classify(const IncludeFact &Include) const;

private:
  bool inSubmodule(const IncludeFact &Include) const;

  std::string CudaRoot;
  std::vector<std::string> SubmoduleDirs;
};

} // namespace opmig::analyze

#endif
