"""What the opmig benchmarks share: measured runs, the Clang baseline, machine-load checks.

Standard library only. Imported by analyze_bench.py and migrate_bench.py, which sit next to it
(Python puts a script's own folder first on sys.path, so a plain `import benchlib` works).
"""

import concurrent.futures
import os
import re
import subprocess
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STUBS = REPO / "tests" / "fixtures" / "stubs" / "include"
DEFAULT_OPMIG = REPO / "build" / "tools" / "opmig" / "opmig"

CUDA_EXT = (".cu", ".cuh")


def fill(template, **subst):
    """Replaces every @KEY@ of template; fails when one is left unfilled."""
    for key, value in subst.items():
        template = template.replace("@" + key + "@", value)
    left = re.findall(r"@[A-Z_]+@", template)
    assert not left, left
    return template


# --------------------------------------------------------------------------------------------
# Running things
# --------------------------------------------------------------------------------------------

_CHILD_CPU = [0.0]
_CHILD_CPU_LOCK = threading.Lock()


def busy_cpu_seconds():
    """CPU seconds the whole machine has been busy (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat") as fh:
            fields = fh.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(v) for v in fields[1:8])
    steal = int(fields[8]) if len(fields) > 8 else 0
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds():
    """CPU seconds of this script and of every process it ran."""
    t = os.times()
    with _CHILD_CPU_LOCK:
        return t.user + t.system + _CHILD_CPU[0]


class LoadWatch:
    """CPU time that other processes used between construction and other_cpu()."""

    def __init__(self):
        self.busy, self.own, self.wall = busy_cpu_seconds(), own_cpu_seconds(), time.perf_counter()

    def elapsed(self):
        return time.perf_counter() - self.wall

    def other_cpu(self):
        busy = busy_cpu_seconds()
        if self.busy is None or busy is None:
            return None
        return max(0.0, (busy - self.busy) - (own_cpu_seconds() - self.own))


def load_note(other_cpu, wall):
    """The warning for a case during which something else used the CPUs, or None."""
    cpus = os.cpu_count()
    if other_cpu is None or other_cpu <= 0.05 * wall * cpus:
        return None
    return (f"other processes used {other_cpu:.1f} CPU s while this case ran"
            f" ({wall:.0f} s x {cpus} CPUs): the timings may be skewed")


def binary_stamp(path):
    """Changes when the binary is rebuilt (cache keys include it, so a warm run then misses)."""
    st = os.stat(path)
    return (st.st_size, st.st_mtime_ns)


class Run:
    def __init__(self, rc, out, err, wall, rss_kib, cpu):
        self.rc, self.out, self.err = rc, out, err
        self.wall, self.rss_kib, self.cpu = wall, rss_kib, cpu


def run_measured(argv, env=None, cwd=None):
    """Runs argv; wall time, and the peak RSS and CPU time of that process (os.wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env,
                                cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        with _CHILD_CPU_LOCK:
            _CHILD_CPU[0] += usage.ru_utime + usage.ru_stime
        out.seek(0)
        err.seek(0)
        return Run(proc.returncode, out.read().decode("utf-8", "replace"),
                   err.read().decode("utf-8", "replace"), wall, usage.ru_maxrss,
                   usage.ru_utime + usage.ru_stime)


def inferred_flags(text_output):
    """The flags of the `inferred flags:` line of `opmig analyze --format text -v`."""
    lines = [l for l in text_output.splitlines() if l.startswith("inferred flags:")]
    return lines[0][len("inferred flags:"):].split() if lines else []


# --------------------------------------------------------------------------------------------
# The Clang baseline
# --------------------------------------------------------------------------------------------

class ClangBaseline:
    """`clang++ -fsyntax-only` over the TUs the tool parsed, with the tool's flags and sides."""

    def __init__(self, clang, cuda, gpu_arch):
        self.clang, self.cuda, self.gpu_arch = clang, cuda, gpu_arch
        res = subprocess.run([clang, "-print-resource-dir"], capture_output=True, text=True)
        self.resource_dir = res.stdout.strip()

    def common_flags(self):
        """commonClangFlags() of the tool."""
        flags = ["-resource-dir=" + self.resource_dir]
        if os.path.exists(os.path.join(self.cuda, "include", "cuda_runtime.h")):
            flags += ["--cuda-path=" + self.cuda, "-isystem", self.cuda + "/include/cccl"]
        else:
            flags += ["-nocudainc", "-nocudalib"]
        return flags + ["-Wno-unknown-cuda-version", "-w", "-ferror-limit=0"]

    def jobs(self, source, parsed, inferred, extra):
        """One clang -fsyntax-only command per parse the tool ran, as parseCommandLine() builds it."""
        flags = self.common_flags() + inferred + extra
        jobs = []
        for rel in parsed:
            path = os.path.join(source, rel)
            if path.endswith(CUDA_EXT):
                sides = [["-x", "cuda", "--cuda-host-only"],
                         ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + self.gpu_arch]]
            else:
                sides = [["-x", "c++"]]
            for side in sides:
                jobs.append([self.clang] + flags + side +
                            ["-fno-caret-diagnostics", "-fsyntax-only", path])
        return jobs

    def run(self, source, jobs_argv, jobs):
        """Runs the commands, `jobs` at a time, in source; wall, serial sum, CPU, RSS, failures."""
        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            runs = list(pool.map(lambda a: run_measured(a, cwd=source), jobs_argv))
        wall = time.perf_counter() - start
        failed = [r for r in runs if r.rc != 0]
        return {"wall": wall, "serial_sum": sum(r.wall for r in runs),
                "cpu": sum(r.cpu for r in runs), "max_rss_kib": max(r.rss_kib for r in runs),
                "failed": len(failed), "first_error": failed[0].err[-2000:] if failed else ""}
