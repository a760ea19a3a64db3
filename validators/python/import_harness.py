"""Runs one case of `opmig validate`'s import layer in this process.

opmig embeds this script and runs each case in a child process of its own,
`python3 SCRIPT CASE` with a JSON request on stdin, with the user's
environment (their torch, their PYTHONPATH): a crash or a hang ends only
that case, and opmig names it. The answer is one JSON object on stdout.

Cases:

  probe     {} -> {"torch": "2.15.0", "cuda": false}
            (an ImportError of torch is the case's failure, as for any case)
  hidden    {"path": SRC, "module": DOMAIN_MODULE, "extension": EXT,
             "domain": D, "ops": [...], "build_command": CMD}
            with EXT made unimportable: the package imports, the domain's
            `<D>_extension_is_available()` is False and its load error is
            kept, and each op's bridge `_call_<op>` raises RuntimeError
            naming CMD. -> {"imports": CHECK, "unavailable": CHECK,
            "build_command": CHECK}
  built     {"path": SRC, "package": PKG, "build_dir": DIR, "extension": EXT,
             "module": DOMAIN_MODULE, "domain": D}
            torch imported first, then with DIR appended to PKG's __path__:
            EXT imports, and the domain reports it available.
            -> {"loads": CHECK, "available": CHECK}
  library   {"library": SO, "namespace": NS}
            torch.ops.load_library(SO) -> {"loads": CHECK, "ops": [names]}
  jit-hidden
            {"path": ROOT, "package": PKG, "module": DOMAIN_MODULE,
             "impl": IMPL_MODULE, "ops": [...], "native_dir": DIR}
            (veomni) with torch.utils.cpp_extension.load failing as when
            the JIT build cannot run: PKG and the domain module import, each
            op's bridge `IMPL._call_<op>` raises RuntimeError naming DIR, and
            the failed build is kept (load runs once, however many calls).
            -> {"imports": CHECK, "unavailable": CHECK, "build_command": CHECK}
  extension-file
            {"extension": NAME, "library": SO}
            torch imported first, then SO imported as the module NAME.
            -> {"loads": CHECK}

A CHECK is {"ok": bool, "detail": "..."}; a load that fails for an
undefined symbol adds "undefined_symbol": the mangled name the loader gave.
"""

import importlib
import importlib.abc
import json
import re
import sys

UNDEFINED = re.compile(r"undefined symbol: (\S+)")


def check(ok, detail, **extra):
    return {"ok": bool(ok), "detail": detail, **extra}


def describe(error):
    """`ImportError: ...`, with the causes a loader chains behind it."""
    parts = []
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        parts.append(f"{type(error).__name__}: {error}")
        error = error.__cause__ or error.__context__
    return "; caused by ".join(parts)


def undefined_symbol(error):
    match = UNDEFINED.search(describe(error))
    return match.group(1) if match else None


def load_failure(error):
    symbol = undefined_symbol(error)
    if symbol:
        return check(False, describe(error), undefined_symbol=symbol)
    return check(False, describe(error))


class Blocker(importlib.abc.MetaPathFinder):
    """Makes one module unimportable, as when its extension was never built."""

    def __init__(self, name):
        self.name = name

    def find_spec(self, fullname, path=None, target=None):
        if fullname == self.name:
            raise ModuleNotFoundError(f"No module named '{fullname}' (hidden by opmig validate)")
        return None


def call_bridge(module, op, command):
    bridge = getattr(module, f"_call_{op}", None)
    if bridge is None:
        return f"{op}: the module has no _call_{op}"
    arguments = [None] * bridge.__code__.co_argcount
    try:
        bridge(*arguments)
    except RuntimeError as error:
        if command not in str(error):
            return f"{op}: a RuntimeError that does not name `{command}`: {error}"
        return None
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        return f"{op}: raised {describe(error)} instead of RuntimeError"
    return f"{op}: returned without the extension"


def case_hidden(request):
    sys.path.insert(0, request["path"])
    sys.meta_path.insert(0, Blocker(request["extension"]))
    domain = request["domain"]
    answer = {}
    try:
        module = importlib.import_module(request["module"])
    except Exception as error:  # noqa: BLE001 - a failing import is what is checked
        answer["imports"] = check(False, describe(error))
        return answer
    answer["imports"] = check(True, f"{request['module']} imports without {request['extension']}")
    available = getattr(module, f"{domain}_extension_is_available", None)
    load_error = getattr(module, f"{domain}_get_load_error", None)
    if available is None or load_error is None:
        answer["unavailable"] = check(
            False,
            f"{request['module']} lacks {domain}_extension_is_available or {domain}_get_load_error",
        )
    elif available():
        answer["unavailable"] = check(False, f"{domain}_extension_is_available() is True")
    elif load_error() is None:
        answer["unavailable"] = check(False, f"{domain}_get_load_error() is None: no error kept")
    else:
        answer["unavailable"] = check(
            True, f"{domain}_extension_is_available() is False; kept: {describe(load_error())}"
        )
    problems = [call_bridge(module, op, request["build_command"]) for op in request["ops"]]
    problems = [problem for problem in problems if problem]
    answer["build_command"] = check(
        not problems,
        "; ".join(problems)
        or f"{len(request['ops'])} op(s) raise RuntimeError naming `{request['build_command']}`",
    )
    return answer


def case_built(request):
    sys.path.insert(0, request["path"])
    answer = {}
    try:
        # An extension finds torch's libraries only once torch is loaded (it has
        # no rpath to them), as the domain module loads it.
        importlib.import_module("torch")
        package = importlib.import_module(request["package"])
        package.__path__.append(request["build_dir"])
        importlib.import_module(request["extension"])
    except Exception as error:  # noqa: BLE001 - a failing load is what is checked
        answer["loads"] = load_failure(error)
        return answer
    answer["loads"] = check(True, f"{request['extension']} loads")
    domain = request["domain"]
    try:
        module = importlib.import_module(request["module"])
        available = getattr(module, f"{domain}_extension_is_available")()
    except Exception as error:  # noqa: BLE001
        answer["available"] = check(False, describe(error))
        return answer
    answer["available"] = check(available, f"{domain}_extension_is_available() is {available}")
    return answer


def case_jit_hidden(request):
    sys.path.insert(0, request["path"])
    import torch.utils.cpp_extension as cpp_extension

    loads = []

    def unbuildable(name, *args, **kwargs):
        loads.append(name)
        raise RuntimeError(f"the build of {name} is hidden by opmig validate")

    cpp_extension.load = unbuildable
    answer = {}
    try:
        importlib.import_module(request["package"])
        module = importlib.import_module(request["module"])
        impl = importlib.import_module(request["impl"])
    except Exception as error:  # noqa: BLE001 - a failing import is what is checked
        answer["imports"] = check(False, describe(error))
        return answer
    answer["imports"] = check(
        True, f"{request['package']} and {module.__name__} import without the extension"
    )
    calls = 0
    problems = []
    for op in request["ops"]:
        for _ in range(2):
            calls += 1
            problems.append(call_bridge(impl, op, request["native_dir"]))
    problems = [problem for problem in dict.fromkeys(problems) if problem]
    answer["build_command"] = check(
        not problems,
        "; ".join(problems)
        or f"{len(request['ops'])} op(s) raise RuntimeError naming {request['native_dir']}",
    )
    answer["unavailable"] = check(
        len(loads) == 1,
        f"the failed build is kept: load() ran once for {calls} calls"
        if len(loads) == 1
        else f"load() ran {len(loads)} times for {calls} calls: the failure is not kept",
    )
    return answer


def case_extension_file(request):
    import importlib.util

    try:
        # As cpp_extension.load imports it: torch first, for its libraries.
        importlib.import_module("torch")
        spec = importlib.util.spec_from_file_location(request["extension"], request["library"])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 - a failing load is what is checked
        return {"loads": load_failure(error)}
    return {"loads": check(True, f"{request['extension']} loads")}


def registered_ops(torch, namespace):
    prefix = namespace + "::"
    names = {
        str(schema.name)[len(prefix) :]
        for schema in torch._C._jit_get_all_schemas()
        if str(schema.name).startswith(prefix)
    }
    return sorted(names)


def case_library(request):
    import torch

    try:
        torch.ops.load_library(request["library"])
    except Exception as error:  # noqa: BLE001 - a failing load is what is checked
        return {"loads": load_failure(error), "ops": []}
    return {
        "loads": check(True, f"{request['library']} loads"),
        "ops": registered_ops(torch, request["namespace"]),
    }


def case_probe(_request):
    import torch

    return {"torch": torch.__version__, "cuda": bool(torch.cuda.is_available())}


CASES = {
    "probe": case_probe,
    "hidden": case_hidden,
    "built": case_built,
    "library": case_library,
    "jit-hidden": case_jit_hidden,
    "extension-file": case_extension_file,
}


def main():
    request = json.loads(sys.stdin.read() or "{}")
    answer = CASES[sys.argv[1]](request)
    sys.stdout.flush()
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
