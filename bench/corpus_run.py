#!/usr/bin/env python3
"""Runs opmig on the corpus of real operators (bench/corpus/corpus.json) as a new user would.

For each operator and profile: the upstream tree at its pinned commit, a fresh minimal target
repository of the profile, then `opmig analyze`, `opmig migrate --bootstrap` and `opmig validate`
with no flag beyond --source/--entry/--target/--domain/--profile (and --bootstrap, which a new
target needs), and no edit of what migrate generated. The table says how far each row got,
every piece of hand input it would need to go further and why, and the wall time, CPU time and
peak memory of each stage. bench/README.md ("The corpus") documents it.

    python3 bench/corpus_run.py --mirrors DIR            # every operator, every profile
    python3 bench/corpus_run.py --only marlin-mul --profiles generic --json table.json
    python3 bench/corpus_run.py --smoke --expect fake    # the operators marked smoke (CI)

Sources come from --mirrors (a folder of git repositories named <owner>+<name>, bare or not,
or <owner>+<name>/repo), else are cloned from their URL into --cache; an operator with a
`path` is a folder of this repository. Exit status: 0 when every row ran (whatever stage it
reached; with --expect, when every row reached that stage with no hand input), 1 otherwise or
when a row could not be run at all (its source missing), 2 for bad arguments, and 77 (skipped)
with --expect on a machine without the pinned torch or nvcc.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import DEFAULT_OPMIG, REPO

CORPUS = REPO / "bench" / "corpus" / "corpus.json"
PROFILES = ("generic", "cache-dit", "veomni")
# The stages in the order a migration passes them; a row reaches the last one it passed.
STAGES = ("analyze", "migrate", "compile check", "build", "import", "api", "fake")
CPU_LAYERS = ("build", "import", "api", "fake")
TODO = "TODO"
SKIP = 77  # ctest's skip code (SKIP_RETURN_CODE)


def pinned_torch_dir():
    if os.environ.get("OPMIG_TORCH_DIR"):
        return Path(os.environ["OPMIG_TORCH_DIR"])
    version = (REPO / "scripts" / "torch-version").read_text().strip()
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "opmig" / f"torch-{version}-full"


def missing_tools():
    """What this machine lacks to run a row to the end, or None."""
    if not (pinned_torch_dir() / "torch" / "version.py").is_file():
        return f"no torch in {pinned_torch_dir()} (bash scripts/install-deps.sh installs it)"
    cuda = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    if not (cuda / "bin" / "nvcc").is_file() and not shutil.which("nvcc"):
        return f"no nvcc in {cuda}/bin or on PATH"
    return None


# --- running a stage ----------------------------------------------------------------------


class Stage:
    """One opmig run: its exit code, output, and what it cost."""

    def __init__(self, name, rc, out, err, wall, cpu, rss_kib, timed_out=False):
        self.name, self.rc, self.out, self.err = name, rc, out, err
        self.wall, self.cpu, self.rss_kib, self.timed_out = wall, cpu, rss_kib, timed_out

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError:
            return None

    def figures(self):
        return {
            "wall_s": round(self.wall, 1),
            "cpu_s": round(self.cpu, 1),
            "peak_rss_mib": round(self.rss_kib / 1024),
            "exit": self.rc,
            "timed_out": self.timed_out,
        }


def run_stage(name, argv, env, timeout):
    """Runs argv in a process group of its own; a hang past `timeout` kills the group."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, start_new_session=True
        )
        deadline = start + timeout
        timed_out = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                os.killpg(proc.pid, signal.SIGKILL)
                timed_out = True
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.2)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return Stage(
            name,
            os.waitstatus_to_exitcode(status),
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            wall,
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss,
            timed_out,
        )


def first_error(stage, limit=300):
    """The first `error:` line of a stage (or its last line), cut to `limit` characters."""
    if stage.timed_out:
        return f"timed out after {stage.wall:.0f} s"
    if stage.rc < 0:
        return f"killed by signal {-stage.rc} (a crash)"
    lines = [line.strip() for line in stage.err.splitlines() if line.strip()]
    errors = [line for line in lines if "error:" in line]
    text = (errors or lines or [f"exit {stage.rc}, nothing on stderr"])[0]
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


# --- sources and targets ------------------------------------------------------------------


def git(*args, cwd=None):
    subprocess.run(
        ["git", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def commit_all(root, message):
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    git(
        "-c",
        "user.name=opmig corpus",
        "-c",
        "user.email=corpus@opmig.invalid",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        message,
        cwd=root,
    )


def repo_key(url):
    owner, name = url.rstrip("/").removesuffix(".git").split("/")[-2:]
    return f"{owner}+{name}"


def mirror_of(url, mirrors):
    for candidate in (
        mirrors / repo_key(url),
        mirrors / repo_key(url) / "repo",
        mirrors / repo_key(url).replace("+", "/"),
    ):
        if (candidate / "HEAD").is_file() or (candidate / ".git").exists():
            return candidate
    return None


def source_tree(op, args, dest):
    """The operator's upstream tree at its commit, in `dest`; or a reason it is not there."""
    if "path" in op:
        shutil.copytree(REPO / op["path"], dest)
        commit_all(dest, f"{op['path']} of opmig")
        return None
    origin = mirror_of(op["repo"], args.mirrors) if args.mirrors else None
    if origin is None:
        origin = args.cache / repo_key(op["repo"])
        if not origin.exists():
            try:
                git("clone", "-q", "--bare", op["repo"], str(origin))
            except subprocess.CalledProcessError as error:
                return f"cannot clone {op['repo']}: {error.stderr.decode().strip()}"
    try:
        git("clone", "-q", "--no-checkout", str(origin), str(dest))
        git("checkout", "-q", op["commit"], cwd=dest)
        git("remote", "set-url", "origin", op["repo"], cwd=dest)
    except subprocess.CalledProcessError as error:
        return f"cannot check out {op['commit']} from {origin}: {error.stderr.decode().strip()}"
    return None


# The least a repository of each convention has before its first native op: a package and,
# for cache-dit, the setup.py that builds it. --bootstrap adds what the convention asks for.
MINIMAL_TARGETS = {
    "generic": {"README.md": "# A fresh repository\n"},
    "cache-dit": {
        "setup.py": "from setuptools import find_packages, setup\n\n"
        'setup(name="cache-dit", package_dir={"": "src"}, '
        'packages=find_packages("src"))\n',
        "src/cache_dit/__init__.py": "",
    },
    "veomni": {
        "veomni/__init__.py": "",
        "veomni/ops/__init__.py": "",
    },
}


def fresh_target(root, profile):
    for name, text in MINIMAL_TARGETS[profile].items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    commit_all(root, f"a fresh {profile} repository")


# --- one row ------------------------------------------------------------------------------


def todo_fields(node, path=""):
    """The spec fields migrate left TODO: the hand input a layer that needs them waits for."""
    if node == TODO:
        return [path]
    if isinstance(node, dict):
        return [f for key, value in node.items() for f in todo_fields(value, f"{path}.{key}")]
    if isinstance(node, list):
        return [f for i, value in enumerate(node) for f in todo_fields(value, f"{path}[{i}]")]
    return []


class Row:
    def __init__(self, op, profile):
        self.op, self.profile = op, profile
        self.reached = None
        self.hand_input = []  # {"kind", "what", "cause"}
        self.stages = {}
        self.failure = None
        self.generated_cases = 0
        self.todo_fields = []  # the spec's TODOs: optional until a layer needs one

    def need(self, kind, what, cause):
        self.hand_input.append({"kind": kind, "what": what, "cause": cause})

    def json(self):
        return {
            "operator": self.op["name"],
            "profile": self.profile,
            "reached": self.reached,
            "failure": self.failure,
            "hand_input": self.hand_input,
            "generated_cases": self.generated_cases,
            "spec_todo": self.todo_fields,
            "stages": self.stages,
        }


def classify_refusal(row, stage):
    text = first_error(stage)
    for flag in (
        "--mutates",
        "--flatten",
        "--allow-partial",
        "--no-register",
        "--rename-namespace",
    ):
        if flag in stage.err:
            row.need("flag", flag, text)
            return
    if "convention" in stage.err:
        row.need("target edit", "what the convention check names", text)
    else:
        row.need("fix", "opmig refused", text)


def run_row(op, profile, source, work, args, env, progress):
    row = Row(op, profile)
    target = work / f"target-{profile}"
    target.mkdir()
    fresh_target(target, profile)
    opmig = str(args.opmig)
    entries = [a for e in op["entries"] for a in ("--entry", e)]
    source_args = ["--source", str(source), *entries]

    def stage(name, argv):
        progress(f"{op['name']} [{profile}]: {name}")
        s = run_stage(name, argv, env, args.timeout)
        row.stages[name] = s.figures()
        # Kept beside the row, for whoever reads why it stopped.
        (work / f"{name}.out").write_text(s.out)
        (work / f"{name}.err").write_text(s.err)
        return s

    analyzed = stage("analyze", [opmig, "analyze", *source_args, "--format", "json"])
    doc = analyzed.json()
    if analyzed.rc not in (0, 1) or doc is None:
        row.failure = f"analyze: {first_error(analyzed)}"
        return row
    if doc.get("partial"):
        row.need(
            "flag",
            "--allow-partial or Clang flags after --",
            "; ".join(doc.get("partial_reasons", []))[:300],
        )
    row.reached = "analyze"

    migrated = stage(
        "migrate",
        [
            opmig,
            "migrate",
            *source_args,
            "--target",
            str(target),
            "--domain",
            op["domain"],
            "--profile",
            profile,
            "--bootstrap",
            "--format",
            "json",
        ],
    )
    report = migrated.json()
    if migrated.rc != 0 or report is None:
        classify_refusal(row, migrated)
        row.failure = f"migrate: {first_error(migrated)}"
        return row
    row.reached = "migrate"
    # What migrate reports needs a look, whatever its severity: a warning may hide a missed fact.
    for issue in report.get("issues", []):
        row.need(
            f"look at a migrate {issue.get('severity', 'issue')}",
            issue.get("rule", ""),
            issue.get("message", json.dumps(issue))[:300],
        )
    check = report.get("compile_check", {})
    failing = [tu for tu in check.get("tus", []) if not tu.get("compiles")]
    if not check.get("ran"):
        row.failure = f"compile check did not run: {check.get('not_run_because', '')}"
        return row
    if failing:
        row.failure = (
            "compile check: "
            + "; ".join(f"{tu['path']}: {(tu.get('errors') or ['?'])[0]}" for tu in failing)[:400]
        )
        return row
    row.reached = "compile check"
    spec = target / report["native_dir"] / "opmig-validation-spec.json"
    if spec.is_file():
        row.todo_fields = todo_fields(json.loads(spec.read_text()))

    validated = stage(
        "validate",
        [
            opmig,
            "validate",
            "--target",
            str(target),
            "--domain",
            op["domain"],
            "--source",
            str(source),
            "--format",
            "json",
        ],
    )
    verdict = validated.json()
    if verdict is None:
        row.failure = f"validate: {first_error(validated)}"
        return row
    layers = {layer["name"]: layer for layer in verdict.get("layers", [])}
    for name in CPU_LAYERS:
        layer = layers.get(name)
        if name == "fake" and layer is not None:
            row.generated_cases = sum(
                1 for c in layer.get("checks", []) if automatic(c.get("figures", {}).get("origin"))
            )
            if fake_ran_without_gpu(layer):
                row.reached = name
                return row
        if layer is None or layer["status"] != "pass":
            reason = layer["reason"] if layer else "not in the report"
            failed = [c for c in (layer or {}).get("checks", []) if c["status"] == "fail"]
            if failed:
                reason = f"{failed[0]['name']}: {failed[0]['reason']}"
            row.failure = f"{name}: {reason}"[:400]
            if "TODO" in reason or "no cases" in reason:
                row.need("spec field", f"what {name} needs", reason[:300])
            return row
        row.reached = name
    return row


def automatic(origin):
    """A case no one wrote into the spec: generated from the code, or read from an upstream
    test."""
    return bool(origin) and (origin == "generated from the code" or origin.startswith("from "))


def fake_ran_without_gpu(layer):
    """Without a GPU the fake layer runs every case but compares only against a reference:
    it skips, saying so, and fails no check. That is as far as a CPU machine takes it."""
    checks = layer.get("checks", [])
    return (
        layer["status"] == "skip"
        and bool(checks)
        and not any(c["status"] == "fail" for c in checks)
        and any("the fake ran" in c.get("reason", "") for c in checks)
    )


# --- the run ------------------------------------------------------------------------------


def load_corpus(path, only, smoke):
    corpus = json.loads(Path(path).read_text())
    ops = corpus["operators"]
    if smoke:
        ops = [op for op in ops if op.get("smoke")]
    if only:
        known = {op["name"] for op in ops}
        unknown = sorted(set(only) - known)
        if unknown:
            raise SystemExit(f"corpus_run: no operator {', '.join(unknown)} in {path}")
        ops = [op for op in ops if op["name"] in only]
    return ops


def user_environment(work):
    """A user's: the pinned torch importable, caches of this run's own."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(pinned_torch_dir()), env.get("PYTHONPATH", "")) if p
    )
    env["XDG_CACHE_HOME"] = str(work / "xdg-cache")
    env.pop("OPMIG_NO_TORCH", None)
    return env


def print_table(rows, out):
    out.write(
        f"{'operator':32} {'profile':9} {'reached':13} {'hand input':>10} "
        f"{'wall s':>7} {'cpu s':>7} {'peak MiB':>8}\n"
    )
    for row in rows:
        wall = sum(s["wall_s"] for s in row.stages.values())
        cpu = sum(s["cpu_s"] for s in row.stages.values())
        peak = max([s["peak_rss_mib"] for s in row.stages.values()] or [0])
        out.write(
            f"{row.op['name']:32} {row.profile:9} {row.reached or '-':13} "
            f"{len(row.hand_input):>10} {wall:>7.1f} {cpu:>7.1f} {peak:>8}\n"
        )
    for row in rows:
        if not row.failure and not row.hand_input:
            continue
        out.write(f"\n{row.op['name']} [{row.profile}]\n")
        if row.failure:
            out.write(f"  stops at: {row.failure}\n")
        for need in row.hand_input:
            out.write(f"  needs {need['kind']}: {need['what']} ({need['cause']})\n")
    zero = [r for r in rows if r.reached == "fake" and r.generated_cases and not r.hand_input]
    out.write(
        f"\n{len(zero)} of {len(rows)} rows reach fake with cases no one wrote (generated from the "
        "code or read from upstream tests) and no hand input\n"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=CORPUS, type=Path)
    parser.add_argument(
        "--mirrors",
        type=Path,
        default=os.environ.get("OPMIG_CORPUS_MIRRORS") or None,
        help="folder of git mirrors, <owner>+<name> (default: $OPMIG_CORPUS_MIRRORS)",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "opmig" / "corpus",
        help="where clones are kept between runs",
    )
    parser.add_argument("--only", nargs="+", help="these operators only")
    parser.add_argument("--smoke", action="store_true", help="the operators marked smoke only")
    parser.add_argument("--profiles", nargs="+", choices=PROFILES, default=list(PROFILES))
    parser.add_argument("--opmig", type=Path, default=DEFAULT_OPMIG)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per stage")
    parser.add_argument("--work", type=Path, help="keep the trees here (default: a temp dir)")
    parser.add_argument("--json", type=Path, help="also write the table as JSON")
    parser.add_argument(
        "--expect",
        choices=STAGES,
        help="exit 1 unless every row reaches this stage with no hand input (the ctest smoke)",
    )
    args = parser.parse_args(argv)
    if not args.opmig.is_file():
        parser.error(f"no opmig at {args.opmig}: build it (bash scripts/build.sh) or give --opmig")
    ops = load_corpus(args.corpus, args.only, args.smoke)
    if args.expect and (missing := missing_tools()):
        print(f"skipped: {missing}: the corpus runs opmig as a user with torch and nvcc would")
        return SKIP
    args.cache.mkdir(parents=True, exist_ok=True)
    work = args.work or Path(tempfile.mkdtemp(prefix="opmig-corpus-"))
    work.mkdir(parents=True, exist_ok=True)
    env = user_environment(work)
    tty = sys.stderr.isatty()

    def progress(text):
        stamp = time.strftime("%H:%M:%S")
        sys.stderr.write(f"\r\033[K[{stamp}] {text}" if tty else f"[{stamp}] {text}\n")
        sys.stderr.flush()

    rows, missing = [], 0
    for op in ops:
        op_dir = work / op["name"]
        shutil.rmtree(op_dir, ignore_errors=True)
        op_dir.mkdir()
        source = op_dir / "upstream"
        why = source_tree(op, args, source)
        for profile in args.profiles:
            if why:
                row = Row(op, profile)
                row.failure = f"source: {why}"
                missing += 1
            else:
                row_dir = op_dir / profile
                row_dir.mkdir()
                row = run_row(op, profile, source, row_dir, args, env, progress)
            rows.append(row)
            progress(
                f"{op['name']} [{profile}]: reached {row.reached or 'nothing'}\n"
                if tty
                else f"{op['name']} [{profile}]: reached {row.reached or 'nothing'}"
            )
    print_table(rows, sys.stdout)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "schema": "opmig.corpus-run/1",
                    "opmig": str(args.opmig),
                    "rows": [row.json() for row in rows],
                },
                indent=1,
            )
            + "\n"
        )
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    if args.expect:
        short = [r for r in rows if not reaches(r, args.expect) or r.hand_input]
        for row in short:
            print(
                f"expected {row.op['name']} [{row.profile}] to reach {args.expect} with no hand "
                f"input; it reached {row.reached or 'nothing'}"
            )
        return 1 if short or missing else 0
    return 1 if missing else 0


def reaches(row, stage):
    return row.reached is not None and STAGES.index(row.reached) >= STAGES.index(stage)


if __name__ == "__main__":
    sys.exit(main())
