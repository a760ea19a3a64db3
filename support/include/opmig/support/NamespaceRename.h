//===- NamespaceRename.h - One `--rename-namespace FROM=TO` ------*- C++ -*-===//
//
// The rewriter applies renames and the manifest records them, so that a
// review can tell the upstream's names from the target's.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_NAMESPACERENAME_H
#define OPMIG_SUPPORT_NAMESPACERENAME_H

#include <string>

namespace opmig {

struct NamespaceRename {
  std::string From; ///< `nunchaku` or `nunchaku::ops`.
  std::string To;
};

} // namespace opmig

#endif
