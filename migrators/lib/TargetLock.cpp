//===- TargetLock.cpp - One migration of a target at a time ---------------===//

#include "opmig/migrate/TargetLock.h"

#include "opmig/migrate/Migrator.h"
#include "opmig/support/Errors.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace opmig::migrate {

llvm::Expected<TargetLock> TargetLock::acquire(const std::string &TargetRoot) {
  int Fd = ::open(TargetRoot.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (Fd < 0)
    return inputError("cannot open the target ", TargetRoot, inputs::TargetRoot, ": ",
                      std::strerror(errno));
  if (::flock(Fd, LOCK_EX | LOCK_NB) != 0) {
    int Error = errno;
    ::close(Fd);
    if (Error == EWOULDBLOCK)
      return inputError("another opmig migrate is running on ", TargetRoot,
                        "; wait for it to finish and run again");
    return inputError("cannot lock the target ", TargetRoot, inputs::TargetRoot, ": ",
                      std::strerror(Error));
  }
  return TargetLock(Fd);
}

TargetLock::~TargetLock() {
  if (Fd >= 0)
    ::close(Fd); // Closing the last descriptor releases the lock.
}

} // namespace opmig::migrate
