//===- HarnessServer.h - Harness cases forked from one interpreter -*- C++ -*-===//
//
// Every harness case runs in a process of its own, so that a crash or a hang
// ends only that case; but starting Python and importing torch costs
// seconds, and a validate run has several cases per layer. A server
// (python/harness_server.py) imports torch once per environment and forks a
// child per case: the same isolation, the import paid once. A case the
// server cannot run (it did not start, torch did not import in it, it died)
// runs the old way, in an interpreter of its own (runChild), with the same
// outcome. OPMIG_VALIDATE_NO_FORK_SERVER=1 runs every case that way.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_HARNESSSERVER_H
#define OPMIG_VALIDATE_LIB_HARNESSSERVER_H

#include "ChildProcess.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace opmig::validate {

class TemporaryScript;

/// One running python/harness_server.py.
class HarnessServer {
public:
  /// A server of `Python` with this process's environment plus `Overrides`,
  /// ready (torch imported) within `TimeoutSeconds` (0: no limit); null,
  /// with the reason in `Problem`, otherwise.
  static std::unique_ptr<HarnessServer> start(const std::string &Python,
                                              const std::vector<std::string> &Overrides,
                                              unsigned TimeoutSeconds, std::string &Problem);
  ~HarnessServer();
  HarnessServer(const HarnessServer &) = delete;
  HarnessServer &operator=(const HarnessServer &) = delete;

  /// Runs what `python3 ScriptAndArgs...` runs, in a child of the server;
  /// nullopt when the server could not (it has died, or stopped answering).
  std::optional<ChildOutcome> run(const std::vector<std::string> &ScriptAndArgs,
                                  llvm::StringRef Stdin, unsigned TimeoutSeconds);

private:
  HarnessServer(std::unique_ptr<TemporaryScript> Script, pid_t Pid, int Socket);
  bool send(const std::string &Line);
  /// The next line the server writes, within `TimeoutSeconds` (0: no limit).
  std::optional<std::string> receive(unsigned TimeoutSeconds);
  void stop();

  std::unique_ptr<TemporaryScript> Script;
  pid_t Pid;
  int Socket;          ///< -1 once the server is stopped.
  std::string Pending; ///< Received after the last whole line.
};

/// The servers of one validate run, one per interpreter and environment,
/// started when a case first needs one.
class HarnessServers {
public:
  /// The outcome of `Python ScriptAndArgs...` with `Overrides`, from a
  /// server when one runs (or starts) for them, else from runChild.
  ChildOutcome run(const std::string &Python, const std::vector<std::string> &Overrides,
                   const std::vector<std::string> &ScriptAndArgs, llvm::StringRef Stdin,
                   unsigned TimeoutSeconds);

private:
  using Key = std::pair<std::string, std::vector<std::string>>;
  /// A null entry: that server could not start, or died; not tried again.
  std::map<Key, std::unique_ptr<HarnessServer>> Servers;
};

} // namespace opmig::validate

#endif
