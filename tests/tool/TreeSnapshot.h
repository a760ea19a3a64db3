//===- TreeSnapshot.h - Whole file trees in tests ---------------*- C++ -*-===//

#ifndef OPMIG_TESTS_TREESNAPSHOT_H
#define OPMIG_TESTS_TREESNAPSHOT_H

#include <map>
#include <string>

namespace opmig::test {

/// Relative path -> content of every regular file under `Root`.
using Tree = std::map<std::string, std::string>;

Tree snapshotTree(const std::string &Root);

/// Copies `From` into a fresh temporary directory and returns its path.
std::string copyToTemp(const std::string &From);

/// Copies the folder `From` to `To` (created, with its parents).
void copyTreeInto(const std::string &From, const std::string &To);

/// Files of `After` that are new or different from `Before`, and the files
/// of `Before` that are gone (mapped to the marker "<removed>").
Tree treeChanges(const Tree &Before, const Tree &After);

/// Replaces `Dir` with exactly the files of `Files`.
void writeTree(const std::string &Dir, const Tree &Files);

/// A readable account of how `Actual` differs from `Expected` (empty when
/// equal): missing, unexpected and differing paths, with the first
/// differing line of each.
std::string describeTreeDifference(const Tree &Expected, const Tree &Actual);

/// Every entry under `Root` (folders, files, links, each listed without
/// following links) as `path type mode size content-hash-or-link-target`
/// lines, sorted: two listings are equal only if nothing was created,
/// removed, renamed, re-moded or rewritten, not even an empty folder.
std::string fullListing(const std::string &Root);

} // namespace opmig::test

#endif
