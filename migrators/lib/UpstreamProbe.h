//===- UpstreamProbe.h - Which repository and commit a tree is --*- C++ -*-===//
//
// Asks git about the upstream tree: remote URL, HEAD commit, whether the
// tree has uncommitted changes, and where the tree sits in its repository.
// A tree outside git, or none of whose files the enclosing repository
// tracks, gets empty Repo and Commit; the caller decides.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_UPSTREAMPROBE_H
#define OPMIG_MIGRATE_UPSTREAMPROBE_H

#include "opmig/support/Manifest.h"

#include <string>

namespace opmig::migrate {

UpstreamInfo probeUpstream(const std::string &SourceRoot);

} // namespace opmig::migrate

#endif
