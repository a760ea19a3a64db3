"""Where the test suite's time goes: per-test and per-label wall times of a ctest run.

Reads the JUnit file of a ctest run (`ctest --output-junit FILE`, as `scripts/test.sh --times
FILE` writes it) and the labels of the build's tests (`ctest --show-only=json-v1`), and prints
the slowest tests, the sum per label (a test counts under each of its labels), the sum of the
tests with no tier label, and the outcome counts. The wall time of the whole run is not in the
JUnit file; scripts/test.sh prints it.

    python3 bench/suite_times.py build/ctest-times.xml                  # 30 slowest
    python3 bench/suite_times.py build/ctest-times.xml --top 50 --build build

Standard library only.
"""

import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TIERS = ("unit", "tool", "lit", "torch", "nvcc", "slow", "gpu")


def read_junit(path):
    """[(name, seconds, status)] of every test case in a ctest JUnit file."""
    root = ET.parse(path).getroot()
    cases = []
    for case in root.iter("testcase"):
        status = case.get("status", "run")
        if case.find("failure") is not None:
            status = "failed"
        elif case.find("skipped") is not None or status in ("notrun", "disabled"):
            status = "skipped"
        else:
            status = "passed"
        cases.append((case.get("name"), float(case.get("time", 0)), status))
    return cases


def short(name):
    """A parametrized GoogleTest case without the bytes gtest prints of its parameter."""
    return name.split("  # GetParam()")[0]


def read_labels(build):
    """{test name: [labels]} from `ctest --show-only=json-v1` in the build folder."""
    shown = subprocess.run(
        ["ctest", "--test-dir", str(build), "--show-only=json-v1"],
        capture_output=True,
        text=True,
        check=True,
    )
    labels = {}
    for test in json.loads(shown.stdout).get("tests", []):
        found = []
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                found = list(prop.get("value", []))
        labels[test["name"]] = found
    return labels


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("junit", type=Path, help="ctest --output-junit FILE")
    parser.add_argument("--build", type=Path, default=REPO / "build", help="build folder (labels)")
    parser.add_argument("--top", type=int, default=30, help="how many of the slowest to list")
    args = parser.parse_args()

    cases = read_junit(args.junit)
    labels = read_labels(args.build)
    total = sum(seconds for _, seconds, _ in cases)
    counts = Counter(status for _, _, status in cases)
    print(f"{len(cases)} tests, {total:.0f} s of test time in all (the wall time is less: -j)")
    print(", ".join(f"{count} {status}" for status, count in sorted(counts.items())))

    print(f"\nThe {args.top} slowest:")
    for name, seconds, status in sorted(cases, key=lambda c: -c[1])[: args.top]:
        tags = ",".join(labels.get(name, [])) or "-"
        print(f"{seconds:8.1f} s  {status:7}  {short(name)}  [{tags}]")

    per_label = defaultdict(lambda: [0, 0.0])
    for name, seconds, _ in cases:
        tiers = [label for label in labels.get(name, []) if label in TIERS] or ["(no tier)"]
        for label in tiers:
            per_label[label][0] += 1
            per_label[label][1] += seconds
    print("\nPer label (a test counts under each of its labels):")
    for label, (count, seconds) in sorted(per_label.items(), key=lambda item: -item[1][1]):
        print(f"{label:10} {count:5} tests {seconds:8.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
