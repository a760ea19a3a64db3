//===- TargetLock.h - One migration of a target at a time -------*- C++ -*-===//
//
// Two `opmig migrate` runs on one target would interleave their staging,
// journals and moves. A real run therefore holds an advisory lock (flock) on
// the target's root folder itself for its whole length: no lock file is
// left in the target, and the lock goes away with the process however it
// ends. A dry run writes nothing and takes no lock.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_TARGETLOCK_H
#define OPMIG_MIGRATE_TARGETLOCK_H

#include "llvm/Support/Error.h"

#include <string>

namespace opmig::migrate {

class TargetLock {
public:
  /// Locks `TargetRoot` without waiting. InputError when another process
  /// holds it (or the folder cannot be opened).
  static llvm::Expected<TargetLock> acquire(const std::string &TargetRoot);

  TargetLock(TargetLock &&Other) noexcept : Fd(Other.Fd) { Other.Fd = -1; }
  TargetLock &operator=(TargetLock &&) = delete;
  TargetLock(const TargetLock &) = delete;
  ~TargetLock();

private:
  explicit TargetLock(int Fd) : Fd(Fd) {}
  int Fd;
};

} // namespace opmig::migrate

#endif
