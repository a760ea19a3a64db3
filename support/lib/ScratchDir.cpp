//===- ScratchDir.cpp - A private temporary folder, gone on every exit ----===//

#include "ScratchDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace opmig {

namespace {

constexpr int Slots = 16;
constexpr int Signals[] = {SIGINT, SIGTERM, SIGHUP};

/// What the handler removes: fixed-size storage, written before the slot is
/// marked in use, so the handler never allocates or reads a half-made path.
struct Slot {
  std::atomic<bool> InUse{false};
  char Files[ScratchDir::FileNames.size()][PATH_MAX];
  char Dir[PATH_MAX];
};

// Process-wide by necessity: a signal handler can reach nothing else.
Slot Table[Slots];
struct sigaction Previous[sizeof(Signals) / sizeof(Signals[0])];

void removeAll() {
  for (Slot &S : Table) {
    if (!S.InUse.load())
      continue;
    for (const char *File : S.Files)
      ::unlink(File);
    ::rmdir(S.Dir);
  }
}

void onSignal(int Signal) {
  removeAll();
  // Then what would have happened without us: the previous handler, or the
  // default action (the signal is blocked while we run, so it arrives after
  // this handler returns).
  for (size_t I = 0; I < std::size(Signals); ++I)
    if (Signals[I] == Signal)
      sigaction(Signal, &Previous[I], nullptr);
  raise(Signal);
}

void installHandler() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    struct sigaction Action = {};
    Action.sa_handler = onSignal;
    Action.sa_flags = SA_RESTART; // A wait for the helper goes on after any other signal.
    sigemptyset(&Action.sa_mask);
    for (size_t I = 0; I < std::size(Signals); ++I) {
      sigaction(Signals[I], nullptr, &Previous[I]);
      // An ignored signal stays ignored (a background job's SIGINT): it
      // ends nothing, so there is nothing to clean up after it.
      if (Previous[I].sa_handler != SIG_IGN)
        sigaction(Signals[I], &Action, nullptr);
    }
  });
}

int claimSlot(const std::string &Dir) {
  if (Dir.size() + 8 >= PATH_MAX)
    return -1;
  static std::mutex Claiming;
  std::lock_guard<std::mutex> Guard(Claiming);
  for (int I = 0; I < Slots; ++I) {
    Slot &S = Table[I];
    if (S.InUse.load())
      continue;
    // The handler skips a free slot, so the paths can be written first.
    for (size_t F = 0; F < ScratchDir::FileNames.size(); ++F)
      std::snprintf(S.Files[F], PATH_MAX, "%s/%s", Dir.c_str(), ScratchDir::FileNames[F]);
    std::snprintf(S.Dir, PATH_MAX, "%s", Dir.c_str());
    S.InUse.store(true);
    return I;
  }
  return -1; // More than 16 at once: removed on return, not on a signal.
}

} // namespace

llvm::Expected<ScratchDir> ScratchDir::create(llvm::StringRef Prefix) {
  llvm::SmallString<128> Template;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Template);
  llvm::sys::path::append(Template, Prefix + "-XXXXXX");
  std::string Buffer(Template);
  installHandler();
  if (!::mkdtemp(Buffer.data())) // Mode 0700, and never an existing entry.
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot create a private temporary folder in %s",
                                   Template.c_str());
  return ScratchDir(Buffer, claimSlot(Buffer));
}

ScratchDir::ScratchDir(ScratchDir &&Other) noexcept : Dir(std::move(Other.Dir)), Slot(Other.Slot) {
  Other.Slot = -1;
  Other.Dir.clear();
}

ScratchDir::~ScratchDir() {
  if (Dir.empty())
    return;
  for (const char *Name : FileNames)
    llvm::sys::fs::remove(file(Name));
  llvm::sys::fs::remove(Dir);
  if (Slot >= 0)
    Table[Slot].InUse.store(false);
}

} // namespace opmig
