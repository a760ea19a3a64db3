"""Planted faults for `opmig validate`, each to be caught by the right layer and only there.

The fixtures (expectations.json) migrate entries of tests/fixtures/upstream/validate_ops into
copies of the fixture targets, fill the validation spec (spec_fill.json, written as `user`
values), put the reference module (scale_ops_reference.py) at the target's root and apply the
fixture's planted edits. `opmig validate --format json` then reports each layer, and the
report is compared with the fixture's row of the table. README.md says more.

    run      prepare and validate here, then compare (the ctest `validate-faults`: `--set cpu`,
             the fixtures a machine without a GPU can tell apart, built once; skips, exit 77,
             without nvcc or the pinned torch; `validate-faults-gpu`: `--set gpu`, the others,
             skipped without a GPU)
    prepare  only migrate, fill and edit, into OUT/<fixture>/target, and write OUT/run.sh,
             which validates each into OUT/reports/<fixture>.json (to carry to a GPU machine)
    check    compare a folder of reports (`<fixture>.json`) with the table

Examples:
    python3 tests/validate_faults/run_validate_faults.py run --opmig build/tools/opmig/opmig \\
        --work build/tests/validate-faults --set cpu
    python3 tests/validate_faults/run_validate_faults.py prepare --opmig build/tools/opmig/opmig \\
        --out /tmp/faults
    (on the GPU machine: OPMIG=/path/to/opmig bash /tmp/faults/run.sh)
    python3 tests/validate_faults/run_validate_faults.py check --reports /tmp/faults/reports
"""

import argparse
import copy
import fnmatch
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TABLE = HERE / "expectations.json"
LAYERS = ("build", "import", "api", "fake", "smoke", "parity", "boundary")
# Run with --source only: the migration against its upstream build.
UPSTREAM_LAYERS = ("diff", "perf")
GPU_LAYERS = ("smoke", "parity", "boundary", "diff", "perf")
SKIP = 77
UPSTREAM_COMMIT = "0123456789abcdef0123456789abcdef01234567"
SPEC_FILE = "opmig-validation-spec.json"


class FixtureError(Exception):
    """A fixture could not be prepared: the table or the tool changed under it."""


# --- the table --------------------------------------------------------------


def load_table(path=TABLE):
    table = json.loads(Path(path).read_text())
    fixtures = {fixture["name"]: fixture for fixture in table["fixtures"]}
    for fixture in table["fixtures"]:
        for key in ("target", "profile", "domain", "entries", "upstream", "layers", "source"):
            if key not in fixture and key in origin(fixtures, fixture):
                fixture[key] = origin(fixtures, fixture)[key]
    return table


def layers_of(fixture):
    """The layers the fixture validates: all seven, and diff and perf with `--source`."""
    default = LAYERS + UPSTREAM_LAYERS if fixture.get("source") else LAYERS
    return tuple(fixture.get("layers", default))


def upstream_of(table, fixture):
    """The upstream tree the fixture migrates from (and, with `source`, compares with)."""
    return fixture.get("upstream", table["upstream"])


def origin(fixtures, fixture):
    """The fixture whose migration `fixture` starts from (itself when it migrates)."""
    seen = []
    while "from" in fixture:
        seen.append(fixture["name"])
        fixture = fixtures[fixture["from"]]
        if fixture["name"] in seen:
            raise FixtureError(f"fixtures start from each other in a cycle: {' -> '.join(seen)}")
    return fixture


def expected_layers(fixture, gpu):
    """Each layer's expected status on a machine with (or without) a GPU."""
    expect = dict(fixture["expect"])
    if gpu:
        expect.update(fixture.get("expect_on_gpu", {}))
    else:
        expect.update({layer: "skip" for layer in GPU_LAYERS if layer in expect})
        expect.update(fixture.get("expect_without_gpu", {}))
    return expect


def expected_failures(fixture, gpu):
    """Per layer, the patterns of the checks that must fail."""
    patterns = {layer: list(names) for layer, names in fixture["failing_checks"].items()}
    if not gpu:
        for layer in GPU_LAYERS:
            patterns.pop(layer, None)
    more = fixture.get("failing_checks_on_gpu" if gpu else "failing_checks_without_gpu", {})
    for layer, names in more.items():
        patterns.setdefault(layer, []).extend(names)
    return patterns


def table_problems(table):
    """What makes the table inconsistent: a failing layer without failing checks, ..."""
    problems = []
    names = [fixture["name"] for fixture in table["fixtures"]]
    if len(set(names)) != len(names):
        problems.append("fixture names repeat")
    for fixture in table["fixtures"]:
        for gpu in (True, False):
            expect = expected_layers(fixture, gpu)
            failures = expected_failures(fixture, gpu)
            where = f"{fixture['name']} ({'GPU' if gpu else 'no GPU'})"
            if sorted(expect) != sorted(layers_of(fixture)):
                problems.append(
                    f"{where}: expect names {sorted(expect)}, not the layers "
                    f"{sorted(layers_of(fixture))}"
                )
            for layer, status in expect.items():
                if status not in ("pass", "fail", "skip"):
                    problems.append(f"{where}: {layer} expects {status!r}")
                if (status == "fail") != bool(failures.get(layer)):
                    problems.append(
                        f"{where}: {layer} expects {status} but lists "
                        f"{failures.get(layer, [])} as failing checks"
                    )
        if "from" in fixture and fixture["from"] not in names:
            problems.append(f"{fixture['name']}: from unknown fixture {fixture['from']!r}")
        if not fixture.get("edits") and "from" in fixture:
            problems.append(f"{fixture['name']}: starts from another fixture but edits nothing")
        unknown = set(layers_of(fixture)) - set(LAYERS + UPSTREAM_LAYERS)
        if unknown:
            problems.append(f"{fixture['name']}: unknown layers {sorted(unknown)}")
        if set(layers_of(fixture)) & set(UPSTREAM_LAYERS) and not fixture.get("source"):
            problems.append(f"{fixture['name']}: diff and perf need `source`")
    return problems


# --- comparing a report -----------------------------------------------------


def compare(fixture, report, gpu):
    """The differences between a validate report and the fixture's row; empty when it matches."""
    problems = []
    layers = {layer["name"]: layer for layer in report.get("layers", [])}
    expect = expected_layers(fixture, gpu)
    failures = expected_failures(fixture, gpu)
    allowed = fixture.get("may_fail", {})
    for name in layers_of(fixture):
        layer = layers.get(name)
        if layer is None:
            problems.append(f"{name}: not in the report")
            continue
        if layer["status"] != expect[name]:
            status = f"{layer['status']} ({layer['reason']})"
            problems.append(f"{name}: {status}, expected {expect[name]}" + failing_details(layer))
        problems += check_failures(name, layer, failures.get(name, []), allowed.get(name, []))
    for pattern, text in fixture.get("reasons", {}).items():
        matched = [
            check
            for layer in layers.values()
            for check in layer["checks"]
            if check["status"] == "fail" and fnmatch.fnmatchcase(check["name"], pattern)
        ]
        problems += [
            f"{check['name']}: reason {check['reason']!r} does not say {text!r}"
            for check in matched
            if text not in check["reason"]
        ]
    passed = all(status != "fail" for status in expect.values())
    if report.get("passed") != passed:
        problems.append(f"passed is {report.get('passed')}, expected {passed}")
    return problems


def failing_details(layer):
    failing = [
        f"{check['name']}: {check['reason']}"
        for check in layer["checks"]
        if check["status"] == "fail"
    ]
    return "".join(f"\n      {line}" for line in failing[:5])


def check_failures(name, layer, patterns, allowed=()):
    """`patterns` must each match a failing check; `allowed` may (a second symptom of the
    fault, such as a timing, that the machine decides)."""
    problems = []
    failing = [check for check in layer["checks"] if check["status"] == "fail"]
    for check in failing:
        if not any(
            fnmatch.fnmatchcase(check["name"], pattern)
            for pattern in list(patterns) + list(allowed)
        ):
            problems.append(
                f"{name}: {check['name']} failed ({check['reason']}), "
                "which no planted fault explains"
            )
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(check["name"], pattern) for check in failing):
            problems.append(f"{name}: no failing check matches {pattern!r}")
    return problems


# --- preparing a target -----------------------------------------------------


def stub_arguments(upstream):
    return [
        "--",
        "-isystem",
        str(ROOT / "tests/fixtures/stubs/include"),
        "-std=c++20",
        "-I",
        str(upstream / "csrc"),
    ]


def migrate(opmig, fixture, upstream, target, cache):
    command = [
        opmig,
        "migrate",
        "--cache-dir",
        str(cache),
        "--source",
        str(upstream),
        "--target",
        str(target),
        "--domain",
        fixture["domain"],
        "--profile",
        fixture["profile"],
        "--upstream-repo",
        f"example.org/{Path(upstream).name}",
        "--upstream-commit",
        UPSTREAM_COMMIT,
        "--no-compile-check",
    ]
    for entry in fixture["entries"]:
        command += ["--entry", entry]
    command += stub_arguments(upstream)
    done = subprocess.run(command, capture_output=True, text=True, env=tool_environment())
    if done.returncode != 0:
        raise FixtureError(f"migrate exited {done.returncode}:\n{done.stdout}{done.stderr}")


def tool_environment():
    """migrate needs no torch: the stand-in headers stand for it."""
    return dict(os.environ, OPMIG_NO_TORCH="1")


def spec_path(target, domain):
    for path in sorted(Path(target).rglob(SPEC_FILE)):
        if json.loads(path.read_text()).get("domain") == domain:
            return path
    raise FixtureError(f"migrate wrote no {SPEC_FILE} of domain {domain}")


def fill_spec(spec, fills, op_fills):
    """The spec with the values of `fills` set as the user's, per op."""
    spec = copy.deepcopy(spec)
    for op in spec["ops"]:
        key = op_fills.get(op["name"], op["name"])
        if key not in fills:
            raise FixtureError(f"spec_fill.json has nothing for op {op['name']} (as {key})")
        fill = fills[key]
        inputs = {spec_input["name"]: spec_input for spec_input in op["inputs"]}
        for name, values in fill.get("inputs", {}).items():
            if name not in inputs:
                raise FixtureError(f"op {op['name']} has no input {name}")
            for field, value in values.items():
                inputs[name][field] = {"user": value}
        for output in op["outputs"]:
            values = fill.get("outputs", {}).get(output.get("argument"), {})
            for field, value in values.items():
                output[field] = {"user": value}
        op["constraints"] += [{"user": text} for text in fill.get("constraints", [])]
        for field in ("reference", "tolerances", "cases"):
            if field in fill:
                op[field] = {"user": fill[field]}
    return spec


def apply_edits(target, fixture):
    for edit in fixture.get("edits", []):
        path = Path(target) / edit["file"]
        text = path.read_text()
        count = text.count(edit["find"])
        if count != 1:
            raise FixtureError(
                f"{fixture['name']}: the text to edit occurs {count} times in "
                f"{edit['file']}, not once (did migrate's output change?): "
                f"{edit['find']!r}"
            )
        path.write_text(text.replace(edit["find"], edit["replace"]))


def prepare(table, names, opmig, out):
    """Migrates, fills and edits each fixture into OUT/<name>/target."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    fixtures = {fixture["name"]: fixture for fixture in table["fixtures"]}
    fills = json.loads((HERE / table["spec_fill"]).read_text())
    migrated = {}
    for name in names:
        fixture = fixtures[name]
        start = origin(fixtures, fixture)
        target = out / name / "target"
        if target.exists():
            shutil.rmtree(target)
        if start["name"] not in migrated:
            pristine = out / ".migrated" / start["name"]
            if pristine.exists():
                shutil.rmtree(pristine)
            shutil.copytree(ROOT / start["target"], pristine, symlinks=True)
            print(
                f"prepare: migrating {', '.join(start['entries'])} into {start['target']} "
                f"({start['profile']}, domain {start['domain']})",
                flush=True,
            )
            upstream = ROOT / upstream_of(table, start)
            migrate(opmig, start, upstream, pristine, out / ".migrate-cache")
            if start.get("source"):
                copy = out / ".upstream" / upstream.name
                if copy.exists():
                    shutil.rmtree(copy)
                shutil.copytree(upstream, copy)
            path = spec_path(pristine, start["domain"])
            spec = fill_spec(json.loads(path.read_text()), fills, start.get("ops", {}))
            path.write_text(json.dumps(spec, indent=2) + "\n")
            shutil.copy(HERE / table["reference"], pristine / table["reference"])
            migrated[start["name"]] = pristine
        shutil.copytree(migrated[start["name"]], target, symlinks=True)
        apply_edits(target, fixture)
    write_run_script(fixtures, names, out)


def validate_arguments(fixture, target, report, out="."):
    arguments = [
        "validate",
        "--target",
        str(target),
        "--domain",
        fixture["domain"],
        "--format",
        "json",
        "-o",
        str(report),
    ]
    if "timeout" in fixture:
        arguments += ["--timeout", str(fixture["timeout"])]
    if "layers" in fixture:
        arguments += ["--layers", ",".join(fixture["layers"])]
    if fixture.get("source"):
        # The copy prepare made beside the targets, which travels with them.
        arguments += ["--source", str(Path(out) / ".upstream" / Path(fixture["upstream"]).name)]
    return arguments


RUN_SCRIPT = """#!/bin/bash
# Validates the prepared fixtures (all, or those named as arguments) into reports/<fixture>.json.
# OPMIG names the binary (default: opmig on PATH; on a GPU machine without LLVM, the one
# scripts/gpu-bundle.sh packs). validate's build cache goes to .cache/ here unless
# XDG_CACHE_HOME says otherwise, so that a second run reuses the builds. Then:
#   python3 tests/validate_faults/run_validate_faults.py check --reports <this folder>/reports
set -u
cd "$(dirname "$0")" && mkdir -p reports
OPMIG="${OPMIG:-opmig}"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$PWD/.cache}"
wanted=" $* "
validate() {
  local name=$1
  shift
  [[ "$wanted" == "  " || "$wanted" == *" $name "* ]] || return 0
  echo "validate-faults: $name" >&2
  "$OPMIG" "$@"
  local status=$?
  # 0 and 1 are verdicts (check compares them); anything else is no report.
  if [[ $status -gt 1 ]]; then echo "validate-faults: $name: opmig exited $status" >&2; fi
}
"""


def write_run_script(fixtures, names, out):
    lines = [RUN_SCRIPT.rstrip("\n")]
    for name in names:
        arguments = validate_arguments(fixtures[name], f"{name}/target", f"reports/{name}.json")
        lines.append(f"validate {name} {shlex.join(arguments)}")
    script = Path(out) / "run.sh"
    script.write_text("\n".join(lines) + "\n")
    script.chmod(0o755)


# --- running and checking ---------------------------------------------------


def have_gpu():
    return Path("/dev/nvidia0").exists() and Path("/dev/nvidiactl").exists()


def pinned_torch_dir():
    if os.environ.get("OPMIG_TORCH_DIR"):
        return Path(os.environ["OPMIG_TORCH_DIR"])
    version = (ROOT / "scripts/torch-version").read_text().split()[0]
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "opmig" / f"torch-{version}-full"


def nvcc_missing():
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    if os.access(Path(cuda) / "bin/nvcc", os.X_OK) or shutil.which("nvcc"):
        return None
    return f"no nvcc in {cuda}/bin or on PATH: the build layer cannot run"


def validate_environment(torch_dir, cache):
    env = dict(os.environ)
    env.pop("OPMIG_NO_TORCH", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(torch_dir), env.get("PYTHONPATH")]))
    if cache:
        env["XDG_CACHE_HOME"] = str(cache)
    return env


def run_validate(opmig, fixture, out, env):
    target = Path(out) / fixture["name"] / "target"
    report = Path(out) / "reports" / f"{fixture['name']}.json"
    report.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [opmig, *validate_arguments(fixture, target, report, out)],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode not in (0, 1) or not report.exists():
        raise FixtureError(f"validate exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return json.loads(report.read_text())


def check_reports(table, names, reports, gpu):
    """Compares reports/<name>.json of each fixture; returns the number that differ."""
    fixtures = {fixture["name"]: fixture for fixture in table["fixtures"]}
    differing = 0
    for name in names:
        path = Path(reports) / f"{name}.json"
        if not path.exists():
            print(f"FAIL {name}: no report {path}")
            differing += 1
            continue
        differing += report_outcome(fixtures[name], json.loads(path.read_text()), gpu)
    return differing


def report_outcome(fixture, report, gpu):
    problems = compare(fixture, report, gpu)
    if problems:
        print(f"FAIL {fixture['name']}: {fixture['about']}")
        for problem in problems:
            print(f"  {problem}")
        return 1
    failing = sorted(
        layer for layer, status in expected_layers(fixture, gpu).items() if status == "fail"
    )
    caught = f"caught by {', '.join(failing)}" if failing else "every layer as expected"
    print(f"ok   {fixture['name']}: {caught}")
    return 0


def selected(table, args):
    names = [fixture["name"] for fixture in table["fixtures"]]
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            raise SystemExit(f"unknown fixtures: {', '.join(unknown)}; the fixtures: {names}")
        return [name for name in names if name in args.only]
    chosen = getattr(args, "set", "all")
    if chosen == "cpu":
        return [fixture["name"] for fixture in table["fixtures"] if fixture["cpu"]]
    if chosen == "gpu":
        return [fixture["name"] for fixture in table["fixtures"] if not fixture["cpu"]]
    return names


def why_not_here(fixture):
    failing = [layer for layer, status in fixture["expect"].items() if status == "fail"]
    if failing:
        what = f"its fault is for {', '.join(failing)} to catch, which needs a GPU"
    else:
        what = "the correct twin of faults a GPU layer catches"
    return f"{what}: not built here (prepare it for a GPU machine, or run --set all)"


def command_run(table, args):
    names = selected(table, args)
    gpu = have_gpu()
    torch_dir = pinned_torch_dir()
    missing = nvcc_missing()
    if not (torch_dir / "torch/version.py").exists():
        missing = f"no torch in {torch_dir}: run scripts/install-deps.sh"
    if not missing and args.set == "gpu" and not gpu:
        missing = "no GPU here (/dev/nvidia0): these fixtures' faults need one to be caught"
    if missing:
        print(f"skipped: {missing}")
        return SKIP
    for fixture in table["fixtures"]:
        if fixture["name"] not in names and not fixture["cpu"] and args.set == "cpu":
            print(f"skip {fixture['name']}: {why_not_here(fixture)}")
    prepare(table, names, args.opmig, args.work)
    env = validate_environment(torch_dir, args.cache)
    fixtures = {fixture["name"]: fixture for fixture in table["fixtures"]}
    differing = 0
    for name in names:
        print(f"validate: {name}", flush=True)
        report = run_validate(args.opmig, fixtures[name], args.work, env)
        differing += report_outcome(fixtures[name], report, gpu)
    print(
        f"{len(names) - differing} of {len(names)} fixture(s) as expected"
        + (
            ""
            if gpu
            else " (no GPU here: the GPU layers expected to skip, unless a check"
            " that needs no GPU catches the fault)"
        )
    )
    return 1 if differing else 0


def command_prepare(table, args):
    names = selected(table, args)
    prepare(table, names, args.opmig, args.out)
    print(
        f"prepared {len(names)} fixture(s) in {args.out}; run {args.out}/run.sh "
        "(OPMIG=/path/to/opmig), then check --reports "
        f"{args.out}/reports"
    )
    return 0


def command_check(table, args):
    names = selected(table, args)
    differing = check_reports(table, names, args.reports, args.machine == "gpu")
    print(f"{len(names) - differing} of {len(names)} report(s) as expected")
    return 1 if differing else 0


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="prepare, validate here and compare")
    run.add_argument("--opmig", required=True)
    run.add_argument("--work", required=True, help="folder for the targets and reports")
    run.add_argument("--cache", help="XDG_CACHE_HOME of validate (its build cache)")
    run.add_argument(
        "--set",
        choices=("cpu", "gpu", "all"),
        default="all",
        help="cpu: only the fixtures a machine without a GPU tells apart; gpu: the others "
        "(skips, exit 77, without a GPU)",
    )
    prep = commands.add_parser("prepare", help="only prepare the targets and run.sh")
    prep.add_argument("--opmig", required=True)
    prep.add_argument("--out", required=True)
    check = commands.add_parser("check", help="compare reports with the table")
    check.add_argument("--reports", required=True, help="folder of <fixture>.json reports")
    check.add_argument(
        "--machine",
        choices=("gpu", "cpu"),
        default="gpu",
        help="what the reports were made on (default gpu)",
    )
    for sub in (run, prep, check):
        sub.add_argument("--only", nargs="+", help="these fixtures only")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_arguments(argv)
    table = load_table()
    problems = table_problems(table)
    if problems:
        print("expectations.json is inconsistent:\n  " + "\n  ".join(problems))
        return 1
    commands = {"run": command_run, "prepare": command_prepare, "check": command_check}
    try:
        return commands[args.command](table, args)
    except FixtureError as error:
        print(f"FAIL: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
