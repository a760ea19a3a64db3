"""Runs `opmig validate`'s harness cases as forks of one interpreter that imported torch once.

A harness case run as `python3 SCRIPT CASE` spends seconds starting Python and importing torch
before it does anything; a validate run has several cases per layer. opmig starts this script
once per environment instead, as `python3 SCRIPT`, with the environment the cases need, and
talks to it over stdin and stdout, one JSON object per line:

  <- {"ready": true, "torch": "2.15.0"}               once torch is imported
     {"ready": false, "detail": "ImportError: ..."}    when it is not (then it exits)
  -> {"argv": [SCRIPT, ARG, ...], "stdin": PATH, "stdout": PATH, "stderr": PATH,
      "timeout": SECONDS (0: none)}
  <- {"exit": STATUS} | {"signal": NUMBER, "core": bool} | {"timed_out": true}
     | {"error": "why the case could not start"}

Each case runs in a child forked from this process, as `python3 SCRIPT ARG...` would run it:
stdin, stdout and stderr from the files named, its own sys.argv and `__main__`; a crash or a hang
ends only that child, which is killed at its time limit. This process never initialises CUDA,
which a forked child could then not use. End of input ends the server.
"""

import json
import os
import runpy
import select
import signal
import sys
import time


def send(channel, message):
    channel.write(json.dumps(message) + "\n")
    channel.flush()


def run_case(request):
    """In the forked child: become `python3 SCRIPT ARG...` and run it; never returns."""
    for fd, path, flags in (
        (0, request["stdin"], os.O_RDONLY),
        (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
    ):
        opened = os.open(path, flags, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    sys.argv = list(request["argv"])
    sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
    status = 0
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as stop:
        status = exit_status(stop.code)
    except BaseException:  # noqa: BLE001 - reported as Python reports an uncaught one
        import traceback

        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def exit_status(code):
    """The status `sys.exit(code)` ends Python with; a message goes to stderr."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


def wait_for(pid, timeout):
    """The child's end, killed once `timeout` seconds pass (0: no limit)."""
    deadline = time.monotonic() + timeout if timeout else None
    watch = os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return outcome(status)
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return {"timed_out": True}
            if watch is not None:
                select.select([watch], [], [], left)
            else:
                time.sleep(min(0.02, left) if left is not None else 0.02)
    finally:
        if watch is not None:
            os.close(watch)


def outcome(status):
    if os.WIFSIGNALED(status):
        return {"signal": os.WTERMSIG(status), "core": os.WCOREDUMP(status)}
    return {"exit": os.WEXITSTATUS(status)}


def serve(requests, replies):
    """Answers each request; returns the request in a forked child, None at end of input."""
    for line in requests:
        try:
            request = json.loads(line)
            pid = os.fork()
        except (ValueError, OSError) as error:
            send(replies, {"error": f"{type(error).__name__}: {error}"})
            continue
        if pid == 0:
            return request
        send(replies, wait_for(pid, request.get("timeout", 0)))
    return None


def main():
    # The replies get a descriptor of their own: what torch or a case prints
    # to stdout must not reach opmig as an answer.
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    requests = os.fdopen(os.dup(0), "r")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        import torch
    except BaseException as error:  # noqa: BLE001 - any failure to import is the answer
        send(replies, {"ready": False, "detail": f"{type(error).__name__}: {error}"})
        return 1
    send(replies, {"ready": True, "torch": torch.__version__})
    request = serve(requests, replies)
    if request is None:
        return 0
    requests.close()
    replies.close()
    run_case(request)


if __name__ == "__main__":
    sys.exit(main())
