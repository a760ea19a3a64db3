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
  <path>: nvcc accepted|rejected[: first error]
  <path>: warning: <message>         a diagnostic without a line
  <path>:<line>: entry <requested> -> <function> via <via>
  <path>:<line>: registers <requested>
  <path>:<line>: symbol <kind> <name>
  <path>:<line>: unresolved <kind> <name>
  <path>:<line>: sibling <name>[ needs <a, b>][ would bring <x, y>]
  <path>:<line>: drops include <spelling> (<header>)
  <path>:<line>: includes <class> <header>
  <path>:<line>: <severity>: <message> (<side>)  a parse error, side host|device

File facts are sorted by path, then line, then text, so the checks of a
test follow its files in path order. Reads the document from the file
named on the command line, else from stdin.
"""

import json
import sys


def yes_no(value):
    return "yes" if value else "no"


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


def file_facts(doc):
    """(path, line, text) for every fact that has a place in the tree."""
    for entry in doc["entries"]:
        text = f"entry {entry['requested']} -> {entry['function']} via {entry['via']}"
        yield entry["file"], entry["line"], text
        for where in entry["registered_at"]:
            yield where["file"], where["line"], f"registers {entry['requested']}"
    for file in doc["files"]:
        yield file["path"], 0, f"file {file['role']}"
        for specialization in file["provides"]:
            yield file["path"], 0, f"provides {specialization}"
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
    for external in doc["external"]:
        for where in external["included_from"]:
            text = f"includes {external['class']} {external['include']}"
            yield where["file"], where["line"], text
    for judged in doc["nvcc_judged"]:
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


def lines(doc):
    yield from result_lines(doc)
    for path, line, text in sorted(set(file_facts(doc))):
        yield f"{path}:{line}: {text}" if line else f"{path}: {text}"


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8") as handle:
            doc = json.load(handle)
    else:
        doc = json.load(sys.stdin)
    for line in lines(doc):
        print(line)


if __name__ == "__main__":
    main()
