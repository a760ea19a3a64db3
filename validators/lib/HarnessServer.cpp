//===- HarnessServer.cpp - Harness cases forked from one interpreter ------===//

#include "HarnessServer.h"

#include "TemporaryScript.h"
#include "nlohmann/json.hpp"
#include "opmig/validate/OpHarness.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace opmig::validate {

namespace {

const char *const HarnessServerScript =
#include "HarnessServerScript.inc"
    ;

/// How much longer than a case's own limit the server may take to answer:
/// it kills the case at the limit, so only a server that is stuck takes more.
constexpr unsigned AnswerGraceSeconds = 30;

std::vector<char *> cStrings(std::vector<std::string> &Strings) {
  std::vector<char *> Pointers;
  for (std::string &S : Strings)
    Pointers.push_back(S.data());
  Pointers.push_back(nullptr);
  return Pointers;
}

/// `Python Script` with the socket's other end as its stdin and stdout and
/// `ErrorLog` as its stderr; -1 when it could not be started.
pid_t spawnServer(const std::string &Python, const std::string &Script,
                  const std::vector<std::string> &Overrides, int ServerEnd,
                  const std::string &ErrorLog, std::string &Problem) {
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, ServerEnd, 0);
  posix_spawn_file_actions_adddup2(&Actions, ServerEnd, 1);
  posix_spawn_file_actions_addopen(&Actions, 2, ErrorLog.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  std::vector<std::string> Argv = {Python, Script};
  std::vector<std::string> Env = environmentWith(Overrides);
  std::vector<char *> ArgvPointers = cStrings(Argv), EnvPointers = cStrings(Env);
  pid_t Pid = -1;
  if (int Error = posix_spawnp(&Pid, Python.c_str(), &Actions, nullptr, ArgvPointers.data(),
                               EnvPointers.data())) {
    Problem = "cannot start " + Python + ": " + std::strerror(Error);
    Pid = -1;
  }
  posix_spawn_file_actions_destroy(&Actions);
  return Pid;
}

/// The outcome the server's answer describes, as runChild describes the same
/// end of a process of its own.
ChildOutcome outcomeOf(const nlohmann::json &Answer, unsigned TimeoutSeconds) {
  ChildOutcome Outcome;
  Outcome.TimeoutSeconds = TimeoutSeconds;
  if (Answer.contains("exit")) {
    Outcome.How = ChildOutcome::Kind::Exited;
    Outcome.ExitCode = Answer["exit"].get<int>();
  } else if (Answer.contains("signal")) {
    Outcome.How = ChildOutcome::Kind::Crashed;
    Outcome.Problem = strsignal(Answer["signal"].get<int>());
    if (Answer.value("core", false))
      Outcome.Problem += " (core dumped)";
  } else if (Answer.value("timed_out", false)) {
    Outcome.How = ChildOutcome::Kind::TimedOut;
  } else {
    Outcome.Problem = "the harness server gave no outcome";
  }
  return Outcome;
}

} // namespace

HarnessServer::HarnessServer(std::unique_ptr<TemporaryScript> Script, pid_t Pid, int Socket)
    : Script(std::move(Script)), Pid(Pid), Socket(Socket) {}

HarnessServer::~HarnessServer() { stop(); }

std::unique_ptr<HarnessServer> HarnessServer::start(const std::string &Python,
                                                    const std::vector<std::string> &Overrides,
                                                    unsigned TimeoutSeconds, std::string &Problem) {
  auto Script = std::make_unique<TemporaryScript>("harness_server.py", HarnessServerScript);
  if (!Script->Problem.empty()) {
    Problem = Script->Problem;
    return nullptr;
  }
  int Ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Ends) != 0) {
    Problem = std::string("cannot create a socket: ") + std::strerror(errno);
    return nullptr;
  }
  std::string ErrorLog = Script->Path + ".err";
  pid_t Pid = spawnServer(Python, Script->Path, Overrides, Ends[1], ErrorLog, Problem);
  close(Ends[1]);
  if (Pid < 0) {
    close(Ends[0]);
    return nullptr;
  }
  std::unique_ptr<HarnessServer> Server(new HarnessServer(std::move(Script), Pid, Ends[0]));
  std::optional<std::string> Ready = Server->receive(TimeoutSeconds);
  nlohmann::json Answer =
      nlohmann::json::parse(Ready.value_or(""), nullptr, /*allow_exceptions=*/false);
  if (Answer.is_object() && Answer.value("ready", false))
    return Server;
  Problem = Answer.is_object() ? Answer.value("detail", std::string("it was not ready"))
                               : "it stopped before it was ready";
  return nullptr;
}

bool HarnessServer::send(const std::string &Line) {
  size_t Sent = 0;
  while (Socket >= 0 && Sent < Line.size()) {
    ssize_t N = ::send(Socket, Line.data() + Sent, Line.size() - Sent, MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Sent += static_cast<size_t>(N);
  }
  return Socket >= 0;
}

std::optional<std::string> HarnessServer::receive(unsigned TimeoutSeconds) {
  using Clock = std::chrono::steady_clock;
  auto Deadline = Clock::now() + std::chrono::seconds(TimeoutSeconds);
  while (Socket >= 0) {
    if (size_t End = Pending.find('\n'); End != std::string::npos) {
      std::string Line = Pending.substr(0, End);
      Pending.erase(0, End + 1);
      return Line;
    }
    int WaitMs = -1;
    if (TimeoutSeconds) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now());
      if (Left.count() <= 0)
        return std::nullopt;
      WaitMs = static_cast<int>(Left.count());
    }
    pollfd Watch{Socket, POLLIN, 0};
    int Ready = poll(&Watch, 1, WaitMs);
    if (Ready < 0 && errno == EINTR)
      continue;
    if (Ready <= 0)
      return std::nullopt;
    char Buffer[4096];
    ssize_t N = read(Socket, Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return std::nullopt;
    Pending.append(Buffer, static_cast<size_t>(N));
  }
  return std::nullopt;
}

std::optional<ChildOutcome> HarnessServer::run(const std::vector<std::string> &ScriptAndArgs,
                                               llvm::StringRef Stdin, unsigned TimeoutSeconds) {
  ChildFiles Files(Stdin);
  if (!Files.Problem.empty())
    return std::nullopt;
  nlohmann::json Request = {{"argv", ScriptAndArgs},
                            {"stdin", Files.In},
                            {"stdout", Files.Out},
                            {"stderr", Files.Err},
                            {"timeout", TimeoutSeconds}};
  std::optional<std::string> Answer;
  if (send(Request.dump() + "\n"))
    Answer = receive(TimeoutSeconds ? TimeoutSeconds + AnswerGraceSeconds : 0);
  nlohmann::json Parsed =
      nlohmann::json::parse(Answer.value_or(""), nullptr, /*allow_exceptions=*/false);
  // No answer, or the fork itself failed: the caller runs the case itself.
  if (!Parsed.is_object() || Parsed.contains("error")) {
    stop();
    return std::nullopt;
  }
  ChildOutcome Outcome = outcomeOf(Parsed, TimeoutSeconds);
  Files.readInto(Outcome);
  return Outcome;
}

void HarnessServer::stop() {
  if (Socket < 0)
    return;
  // End of input ends the server; one that does not end soon is killed.
  close(Socket);
  Socket = -1;
  for (int Tries = 0; Tries < 100; ++Tries) {
    if (waitpid(Pid, nullptr, WNOHANG) != 0)
      return;
    usleep(20 * 1000);
  }
  kill(Pid, SIGKILL);
  waitpid(Pid, nullptr, 0);
}

std::shared_ptr<HarnessServers> makeHarnessServers() { return std::make_shared<HarnessServers>(); }

ChildOutcome HarnessServers::run(const std::string &Python,
                                 const std::vector<std::string> &Overrides,
                                 const std::vector<std::string> &ScriptAndArgs,
                                 llvm::StringRef Stdin, unsigned TimeoutSeconds) {
  if (!isEnvSet("OPMIG_VALIDATE_NO_FORK_SERVER")) {
    Key Which{Python, Overrides};
    auto [It, New] = Servers.try_emplace(Which);
    if (New) {
      std::string Problem;
      It->second = HarnessServer::start(Python, Overrides, TimeoutSeconds, Problem);
    }
    if (It->second) {
      if (std::optional<ChildOutcome> Outcome =
              It->second->run(ScriptAndArgs, Stdin, TimeoutSeconds))
        return *Outcome;
      It->second.reset();
    }
  }
  std::vector<std::string> Argv = {Python};
  Argv.insert(Argv.end(), ScriptAndArgs.begin(), ScriptAndArgs.end());
  return runChild(Argv, Overrides, Stdin, TimeoutSeconds);
}

} // namespace opmig::validate
