"""Prints an `opmig analyze --format json` document as one fact per line.

FileCheck matches lines, and the JSON spreads one symbol over six; this
prints each fact on a line of its own, at the place in the tree that causes
it, so that a test's CHECK line can sit beside that code (split-file
--leading-lines keeps the test file's line numbers, so `[[@LINE+1]]` names
the line below the check):

  links as copied: yes|no            the result as a whole, first
  links after slicing: yes|no
  partial: no | partial: <reason>    one line per reason
  verify: passed|FAILED (compiles: yes|no, links: yes|no)
  verify undefined: <symbol>         and `verify compile: <failure>`,
                                     `verify not needed: <file>`
  <path>: file <role>                a closure file
  <path>: provides <specialization>
  <path>: left behind
  <path>: nvcc accepted|rejected[: first error]   a TU Clang rejected
  <path>: nvcc not asked             (--no-nvcc, or no nvcc found)
  <path>: warning: <message>         a diagnostic without a line
  <path>:<line>: entry <requested> -> <function> via <via>
  <path>:<line>: registers <requested>
  <path>:<line>: symbol <kind> <name>
  <path>:<line>: unresolved <kind> <name>
  <path>:<line>: sibling <name>[ needs <a, b>][ would bring <x, y>]
  <path>:<line>: drops include <spelling> (<header>)
  <path>:<line>: includes <class> <header>
  <path>:<line>: <severity>: <message> (<side>)  a parse error, side host|device

Options add the fields most tests need not name (`--all`: every one):

  --build-flags   after the result lines, what the TUs were parsed with:
                    build flags read from: <setup.py>
                    build flag: <flag>           each inferred flag, in order
                    build nvcc flag: <flag>
                    torch: none | torch: <version> (C++<standard>)
  --included-by   <path>: included by <includer>   one per closure includer
  --callers       <path>:<line>: caller <name> of <requested>
  --schema        <path>:<line>: schema <requested> <schema>
  --externals     each `includes` line ends with ` (optional)` when every
                  inclusion is a __has_include probe, then ` -> <resolved>`
                  or ` -> not found`

The absolute path of the analysed tree reads `<source>` in flags and
resolved paths, so a check need not know where the test put the tree.

File facts are sorted by path, then line, then text, so the checks of a
test follow its files in path order. Reads the document from the file
named on the command line, else from stdin.
"""

import argparse
import json
import os
import sys

FIELDS = ("build_flags", "included_by", "callers", "schema", "externals")


def yes_no(value):
    return "yes" if value else "no"


def with_source(text, source):
    """`text` with the analysed tree's absolute path spelled `<source>`."""
    return text.replace(source, "<source>") if source else text


def result_lines(doc):
    yield f"links as copied: {yes_no(doc['links_as_copied'])}"
    yield f"links after slicing: {yes_no(doc['links_after_slicing'])}"
    reasons = doc["partial_reasons"]
    if not reasons:
        yield "partial: no"
    for reason in reasons:
        yield f"partial: {reason}"
    verify = doc.get("verify")
    if verify:
        yield (
            f"verify: {'passed' if verify['passed'] else 'FAILED'} "
            f"(compiles: {yes_no(verify['compiles'])}, links: {yes_no(verify['links'])})"
        )
        for failure in verify["compile_failures"]:
            yield f"verify compile: {failure}"
        for symbol in verify["undefined_symbols"]:
            yield f"verify undefined: {symbol}"
        for path in verify.get("unneeded_files", []):
            yield f"verify not needed: {path}"


def build_flag_lines(doc, source):
    flags = doc["build_flags"]
    for path in flags["read_from"]:
        yield f"build flags read from: {path}"
    for flag in flags["inferred"]:
        yield f"build flag: {with_source(flag, source)}"
    for flag in flags["nvcc"]:
        yield f"build nvcc flag: {flag}"
    torch = flags["torch"]
    if torch is None:
        yield "torch: none"
    else:
        yield f"torch: {torch['version']} (C++{torch['cxx_standard']})"


def entry_facts(doc, fields):
    for entry in doc["entries"]:
        requested = entry["requested"]
        text = f"entry {requested} -> {entry['function']} via {entry['via']}"
        yield entry["file"], entry["line"], text
        for where in entry["registered_at"]:
            yield where["file"], where["line"], f"registers {requested}"
        if "callers" in fields:
            for caller in entry["callers"]:
                yield caller["file"], caller["line"], f"caller {caller['name']} of {requested}"
        schema = entry["upstream_schema"]
        if "schema" in fields and schema:
            yield schema["file"], schema["line"], f"schema {requested} {schema['schema']}"


def external_facts(doc, fields, source):
    for external in doc["external"]:
        text = f"includes {external['class']} {external['include']}"
        if "externals" in fields:
            if external["optional"]:
                text += " (optional)"
            resolved = external["resolved"]
            text += " -> " + (with_source(resolved, source) if resolved else "not found")
        for where in external["included_from"]:
            yield where["file"], where["line"], text


def file_facts(doc, fields, source):
    """(path, line, text) for every fact that has a place in the tree."""
    yield from entry_facts(doc, fields)
    for file in doc["files"]:
        yield file["path"], 0, f"file {file['role']}"
        for specialization in file["provides"]:
            yield file["path"], 0, f"provides {specialization}"
        if "included_by" in fields:
            for includer in file["included_by"]:
                yield file["path"], 0, f"included by {includer}"
        for dropped in file["dropped_includes"]:
            text = f"drops include {dropped['spelling']} ({dropped['file']})"
            yield file["path"], dropped["line"], text
    for path in doc["left_behind"]:
        yield path, 0, "left behind"
    for symbol in doc["symbols"]:
        yield symbol["file"], symbol["line"], f"symbol {symbol['kind']} {symbol['name']}"
    for symbol in doc["unresolved"]:
        yield symbol["file"], symbol["line"], f"unresolved {symbol['kind']} {symbol['name']}"
    for sibling in doc["siblings"]:
        text = f"sibling {sibling['name']}"
        if sibling["missing_dependencies"]:
            text += " needs " + ", ".join(sibling["missing_dependencies"])
        if sibling["would_need"]:
            text += " would bring " + ", ".join(sibling["would_need"])
        yield sibling["file"], sibling["line"], text
    yield from external_facts(doc, fields, source)
    for judged in doc["nvcc_judged"]:
        if not judged["judged"]:
            yield judged["tu"], 0, "nvcc not asked"
            continue
        verdict = "accepted" if judged["accepted"] else "rejected"
        if judged["first_error"]:
            verdict += ": " + judged["first_error"]
        yield judged["tu"], 0, "nvcc " + verdict
    for diagnostic in doc["diagnostics"]:
        text = f"{diagnostic['severity']}: {diagnostic['message']}"
        side = diagnostic["rule"].removesuffix("-parse-error")
        if side != diagnostic["rule"]:
            text += f" ({side})"
        yield diagnostic["file"] or "-", diagnostic["line"], text


def lines(doc, fields=()):
    # The tree's absolute path, as opmig made `source` absolute to analyse it.
    source = os.path.abspath(doc["source"])
    yield from result_lines(doc)
    if "build_flags" in fields:
        yield from build_flag_lines(doc, source)
    for path, line, text in sorted(set(file_facts(doc, fields, source))):
        yield f"{path}:{line}: {text}" if line else f"{path}: {text}"


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("document", nargs="?", help="the JSON document (default: stdin)")
    parser.add_argument("--all", action="store_true", help="every optional field")
    for field in FIELDS:
        parser.add_argument("--" + field.replace("_", "-"), action="store_true")
    return parser.parse_args(argv)


def main(argv=None):
    arguments = parse_arguments(argv)
    fields = {field for field in FIELDS if arguments.all or getattr(arguments, field)}
    if arguments.document:
        with open(arguments.document, encoding="utf-8") as handle:
            doc = json.load(handle)
    else:
        doc = json.load(sys.stdin)
    for line in lines(doc, fields):
        print(line)


if __name__ == "__main__":
    main()
