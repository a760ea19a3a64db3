//===- BuildCache.h - Builds kept in the user's cache -----------*- C++ -*-===//
//
// `<cache>/<profile>-<domain>-<key>/` holds one build; `done` in it records
// the library a finished build made. The folder is locked while a build is
// made or read, so two validations of the same domain (two test processes,
// two terminals) never build into one folder at once: the second waits and
// then finds the first one's build. A failed build leaves no `done` and is
// made again next time. The target itself is never written.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_BUILDCACHE_H
#define OPMIG_VALIDATE_LIB_BUILDCACHE_H

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace opmig::validate {

class BuildSlot {
public:
  /// Creates `<CacheDir>/<Name>/` and takes its lock (waiting for it).
  static llvm::Expected<std::unique_ptr<BuildSlot>> acquire(const std::string &CacheDir,
                                                            const std::string &Name);
  ~BuildSlot();
  BuildSlot(const BuildSlot &) = delete;
  BuildSlot &operator=(const BuildSlot &) = delete;

  const std::string &dir() const { return Dir; }
  /// The library a finished build recorded (absolute), if there is one and
  /// it still exists.
  std::optional<std::string> finishedLibrary() const;
  /// Empties the folder for a new build.
  llvm::Error clear();
  /// Records `Library` (absolute, inside dir()) as this build's result.
  llvm::Error finish(const std::string &Library, const std::string &KeyText);

private:
  BuildSlot(std::string Dir, int LockFD) : Dir(std::move(Dir)), LockFD(LockFD) {}
  std::string Dir;
  int LockFD;
};

} // namespace opmig::validate

#endif
