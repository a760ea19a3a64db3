"""Prints a validation spec (opmig-validation-spec.json) one fact per line.

    <op>.<input>.<field> <source> <value> [@<at>]
    <op>.constraint <source> <text> [@<at>]
    <op>.output <result N | argument NAME> [aliases NAME] [in_place <source>]
    <op>.<reference|tolerances|cases> <source> [<value>]

<source> is `code`, `default`, `user` or `TODO`; values print as compact JSON.
"""

import json
import sys

SOURCES = ("code", "default", "user")


def sourced(field):
    if field == "TODO":
        return "TODO", ""
    for source in SOURCES:
        if source in field:
            value = json.dumps(field[source], separators=(",", ":"))
            at = " @" + field["at"] if "at" in field else ""
            return source, value + at
    raise SystemExit(f"not a sourced value: {field!r}")


def lines(spec):
    for op in spec["ops"]:
        name = op["name"]
        for item in op["inputs"]:
            for key in ("shape", "dtypes", "contiguous", "device", "range"):
                if key in item:
                    source, value = sourced(item[key])
                    yield f"{name}.{item['name']}.{key} {source} {value}".rstrip()
        for constraint in op["constraints"]:
            source, value = sourced(constraint)
            yield f"{name}.constraint {source} {value}"
        for output in op["outputs"]:
            if "result" in output:
                text = f"result {output['result']}"
                if "aliases" in output:
                    text += f" aliases {output['aliases']}"
            else:
                text = f"argument {output['argument']} in_place {sourced(output['in_place'])[0]}"
            yield f"{name}.output {text}"
        for key in ("reference", "tolerances", "cases"):
            source, value = sourced(op[key])
            shown = value if key != "tolerances" else ""
            yield f"{name}.{key} {source} {shown}".rstrip()


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        spec = json.load(handle)
    print(spec["schema"], spec["domain"])
    for line in lines(spec):
        print(line)


if __name__ == "__main__":
    main()
