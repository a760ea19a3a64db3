//===- TargetFiles.h - Walking a target repository --------------*- C++ -*-===//
//
// The review looks for manifests, test files and leftovers in a target
// repository; all of them skip the same folders: version control, build
// output (`build*`), caches, virtual environments and opmig's staging area.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_LIB_TARGETFILES_H
#define OPMIG_AUDIT_LIB_TARGETFILES_H

#include "opmig/audit/PathGlob.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// The files under `Root/Below` (`Below` empty: all of `Root`) whose name
/// `Wanted` accepts, relative to `Root`, sorted. Skipped folders and paths
/// `Exclude` matches are not entered.
std::vector<std::string> findTargetFiles(const std::string &Root, const std::string &Below,
                                         const std::vector<PathGlob> &Exclude,
                                         llvm::function_ref<bool(llvm::StringRef Name)> Wanted);

} // namespace opmig::audit

#endif
