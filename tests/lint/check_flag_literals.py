"""Fails when a string literal of a library names a flag of opmig.

A library serves several commands, and the gate reads a config file instead
of flags, so a flag spelled in a library's message is wrong for some caller.
A message names the input by its role and value and marks it with an
InputName (support/include/opmig/support/Errors.h); the driver spells it as
the command that ran takes it. The flags are the long options the driver
declares (add_option, add_flag and set_version_flag in tools/opmig/*.cpp,
and CLI11's --help), so a new flag is checked without a change here. A
literal that is an argument of another tool and happens to share a flag's
name is listed in TOOL_ARGUMENTS, exactly as written, with the reason.

Usage: python3 check_flag_literals.py PROJECT_ROOT
"""

import pathlib
import re
import sys

LIBRARIES = ("analyzers", "auditors", "migrators", "reporting", "support", "validators")
SOURCES = ("*.h", "*.cpp", "*.inc")
DRIVER = "tools/opmig"
# (library file, the literal's contents) -> why it is another tool's argument.
TOOL_ARGUMENTS = {
    ("analyzers/lib/CompileFlags.cpp", "--cuda-path="): "Clang's option, in every parse's flags",
}
DECLARATION = re.compile(r'\b(?:add_option|add_flag|set_version_flag)\(\s*"([^"]*)"')
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
RAW_STRING = re.compile(r'(?:u8|[uUL])?R"([^()\\\s]{0,16})\(')


def driver_flags(root: pathlib.Path) -> set:
    flags = {"--help"}
    for path in sorted((root / DRIVER).glob("*.cpp")):
        for names in DECLARATION.findall(path.read_text(encoding="utf-8")):
            flags.update(name for name in names.split(",") if name.startswith("--"))
    return flags


def _quoted_end(text: str, start: int, quote: str) -> int:
    """The index after the literal whose opening quote is at `start`."""
    i = start + 1
    while i < len(text) and text[i] != quote and text[i] != "\n":
        i += 2 if text[i] == "\\" else 1
    return i + 1


def string_literals(text: str):
    """(line, contents) of each string literal of C++ source `text`, in
    order; comments and character literals are skipped."""
    i = 0
    while i < len(text):
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
        elif raw := RAW_STRING.match(text, i):
            if i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
                i += 1
                continue
            close = ")" + raw.group(1) + '"'
            end = text.find(close, raw.end())
            end = len(text) if end < 0 else end
            yield text.count("\n", 0, i) + 1, text[raw.end() : end]
            i = end + len(close)
        elif text[i] == '"':
            end = _quoted_end(text, i, '"')
            yield text.count("\n", 0, i) + 1, text[i + 1 : end - 1]
            i = end
        elif text[i] == "'" and not (i > 0 and text[i - 1].isdigit()):
            i = _quoted_end(text, i, "'")
        else:
            i += 1


def violations(root: pathlib.Path, flags: set):
    for library in LIBRARIES:
        for pattern in SOURCES:
            for path in sorted((root / library).rglob(pattern)):
                relative = path.relative_to(root).as_posix()
                text = path.read_text(encoding="utf-8", errors="replace")
                for line, literal in string_literals(text):
                    if (relative, literal) in TOOL_ARGUMENTS:
                        continue
                    for flag in FLAG.findall(literal):
                        if flag in flags:
                            yield f"{relative}:{line}: names the flag {flag}: {literal!r}"


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    flags = driver_flags(root)
    if not flags - {"--help"}:
        print(f"no flag declared in {DRIVER}/*.cpp; has the driver moved?")
        return 1
    found = list(violations(root, flags))
    for message in found:
        print(message)
    if found:
        print(
            f"{len(found)} library string(s) name a flag of opmig; name the input by its "
            "role and mark it with its InputName (support/include/opmig/support/Errors.h)"
        )
        return 1
    print(f"no library string names one of the {len(flags)} flags of {DRIVER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
