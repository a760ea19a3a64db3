"""Fails when a library includes a sibling library's headers.

The dependency graph of docs/architecture.md ("Libraries and what they depend
on") as data: each library folder may include its own headers, support's, and
the headers listed for it here. CMake's link lines cannot see a header-only
use, so this reads the #include lines themselves.

Usage: python3 check_layering.py PROJECT_ROOT
"""

import pathlib
import re
import sys

# Folder -> the headers of other opmig libraries it may use; an entry ending
# in "/" allows every header under it.
ALLOWED = {
    "support": [],
    "reporting": [],
    "analyzers": [],
    # The renderers of findings: a layer below the audit, not a sibling.
    "auditors": ["opmig/report/"],
    # The renderers of findings, as for the audit: validate's reports use them.
    "validators": ["opmig/report/"],
    # The analysis result and how the analysis parses a TU (its cache and
    # its shared preambles, which the rewrite parses reuse); never the
    # analysis itself (the driver passes it in, see Migrator.h).
    "migrators": [
        "opmig/analyze/AnalysisResult.h",
        "opmig/analyze/Analyzer.h",
        "opmig/analyze/CompileFlags.h",
        "opmig/analyze/FactsCache.h",
        "opmig/analyze/ParseBudget.h",
        "opmig/analyze/PreambleAttacher.h",
        "opmig/analyze/SourceTree.h",
        "opmig/analyze/TUFacts.h",
        "opmig/analyze/TUParser.h",
    ],
}
OWN = {
    "support": "opmig/support/",
    "reporting": "opmig/report/",
    "analyzers": "opmig/analyze/",
    "migrators": "opmig/migrate/",
    "auditors": "opmig/audit/",
    "validators": "opmig/validate/",
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"(opmig/[^"]+)"', re.MULTILINE)
SOURCES = ("*.h", "*.cpp", "*.inc")


def allows(entry: str, header: str) -> bool:
    return header == entry or (entry.endswith("/") and header.startswith(entry))


def violations(root: pathlib.Path):
    for folder, allowed in ALLOWED.items():
        base = root / folder
        for pattern in SOURCES:
            for path in sorted(base.rglob(pattern)):
                text = path.read_text(encoding="utf-8", errors="replace")
                for match in INCLUDE.finditer(text):
                    header = match.group(1)
                    if header.startswith((OWN[folder], OWN["support"])):
                        continue
                    if any(allows(entry, header) for entry in allowed):
                        continue
                    line = text.count("\n", 0, match.start()) + 1
                    yield f"{path.relative_to(root)}:{line}: includes {header}"


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    found = list(violations(root))
    for message in found:
        print(message)
    if found:
        print(f"{len(found)} include(s) cross the library graph of docs/architecture.md")
        return 1
    print("every library includes only its own headers, support's and those it is allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
