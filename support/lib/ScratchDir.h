//===- ScratchDir.h - A private temporary folder, gone on every exit -*- C++ -*-===//
//
// The Python helpers read their request from a file and write their answer
// to one; the request holds copies of the target's files. Those files live
// in a folder only this user can enter (mkdtemp, mode 0700), removed when
// the ScratchDir dies, and also when SIGINT, SIGTERM or SIGHUP ends the
// process while it exists: a handler that only unlinks known paths (which is
// async-signal-safe) and then lets the signal take its course.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_SCRATCHDIR_H
#define OPMIG_SUPPORT_SCRATCHDIR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <string>

namespace opmig {

class ScratchDir {
public:
  /// The files a folder may hold; their names are fixed so that the signal
  /// handler knows every path in advance.
  static constexpr std::array<const char *, 4> FileNames = {"script.py", "in", "out", "err"};

  /// A fresh folder `$TMPDIR/<Prefix>-XXXXXX`.
  static llvm::Expected<ScratchDir> create(llvm::StringRef Prefix);

  ScratchDir(ScratchDir &&Other) noexcept;
  ScratchDir &operator=(ScratchDir &&) = delete;
  ~ScratchDir();

  const std::string &path() const { return Dir; }
  /// `<folder>/<Name>`; `Name` is one of FileNames.
  std::string file(llvm::StringRef Name) const { return Dir + "/" + Name.str(); }

private:
  ScratchDir(std::string Dir, int Slot) : Dir(std::move(Dir)), Slot(Slot) {}
  std::string Dir;
  int Slot; ///< In the signal handler's table; -1 once moved from.
};

} // namespace opmig

#endif
