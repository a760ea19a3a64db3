//===- UpstreamNameLeaks.h - Upstream names left in a migration -*- C++ -*-===//
//
// A port should not carry the source repository's naming into the target's
// public API (cache-dit spec, Phase 3.D). The upstream names are the first
// component of every namespace the migration renamed (unless the new name
// keeps it) and the upstream repository's name; they leak when an op name
// holds one as a word, when an entry still lives in an old namespace, or
// when a migrated or generated C++ file still qualifies a name with an old
// namespace (found by Clang's raw lexer: comments and strings do not count).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_UPSTREAMNAMELEAKS_H
#define OPMIG_AUDIT_UPSTREAMNAMELEAKS_H

#include "opmig/support/Manifest.h"

#include <string>
#include <vector>

namespace opmig::audit {

struct NameLeak {
  std::string Path;  ///< Relative to the target root.
  unsigned Line = 0; ///< 0: about the op, not a line.
  std::string Message;
};

/// The leaks of the migration `M` in the target rooted at `Target`;
/// `ManifestPath` locates the op-level ones.
std::vector<NameLeak> findUpstreamNameLeaks(const opmig::Manifest &M, const std::string &Target,
                                            const std::string &ManifestPath);

} // namespace opmig::audit

#endif
