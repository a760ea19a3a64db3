//===- Paths.h - Where a path lies relative to a folder ----------*- C++ -*-===//
//
// Textual tests on normalized paths ('/'-separated, no `.` or `..`): the
// callers have already made them absolute or root-relative, so no file
// system access is needed, and a prefix match never takes `src/ab` for a
// path under `src/a`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_PATHS_H
#define OPMIG_SUPPORT_PATHS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace opmig {

/// `Path` is `Dir` itself or lies under it. An empty `Dir` contains nothing.
bool isWithin(llvm::StringRef Path, llvm::StringRef Dir);

/// `Path` lies under `Dir` and is not `Dir` itself.
bool isBelow(llvm::StringRef Path, llvm::StringRef Dir);

/// A path that stays inside whatever root it is joined to: relative, no
/// empty, `.` or `..` component, no backslash or control character. What a
/// manifest or a config may name inside a tree.
bool isContainedRelativePath(llvm::StringRef Path);

/// `Text` with each `From` that is a whole path, or the start of one,
/// replaced by `To`: an occurrence counts when a `/`, a quote, a NUL or the
/// end follows it, so `/a/b` never matches inside `/a/bc`. How caches write
/// a tree's root as a placeholder, in keys and in JSON alike.
std::string replacePathPrefix(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To);

/// `Path` made absolute against `Directory` and stripped of `.` and `..`.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Directory);

/// `Path` made absolute against the current directory: parsers and
/// compilers run in other directories, where a relative path given on
/// opmig's command line would name something else.
std::string absoluteFromCwd(llvm::StringRef Path);

} // namespace opmig

#endif
