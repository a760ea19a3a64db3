"""Reads what a target declares about a domain's CUDA extension.

opmig embeds this script and runs it with the Python text on stdin
(standard library only), evaluating, without running it, one call:

  python3 -I -S SCRIPT setup DOMAIN   a cache-dit setup.py block: the
      `CUDAExtension(...)` inside `_get_<DOMAIN>_extension()` (its `name`,
      `sources`, `include_dirs`, `extra_compile_args`), through the helpers
      the block defines;
  python3 -I -S SCRIPT jit DIR        a veomni cuda_impl.py in DIR (relative
      to the repository root): the `torch.utils.cpp_extension.load(...)` it
      builds its extension with on first use (`name`, `sources`,
      `extra_cflags`, `extra_cuda_cflags`, `extra_include_paths`), through
      the module's top-level names.

The answer is one JSON object:

  {"error": "..."}      the text does not parse, or declares its extension
                        in a form this reader does not follow (with the line)
  {"name": "cache_dit._C_attn", "sources": [...], "include_dirs": [...],
   "cxx": [...], "nvcc": [...]}

Paths are relative to the repository root: `os.path.dirname(
os.path.abspath(__file__))` is the root for setup.py and DIR for
cuda_impl.py, and joins below it stay below the root. The place where the
arch flags go is the string GENCODE in "nvcc": the block's gencode helper
(`_<DOMAIN>_gencode_flags()`) for setup.py, the end of the flags for a
`load()`, which adds torch's arch flags itself. opmig puts its own arch list
there.
"""

import ast
import json
import posixpath
import sys

GENCODE = "{gencode}"


class Unsupported(Exception):
    def __init__(self, node, what):
        super().__init__(f"line {getattr(node, 'lineno', 0)}: {what}")


class RootPath:
    """A path below the repository root, as `os.path.join(root, ...)` makes it."""

    def __init__(self, relative):
        normal = posixpath.normpath(relative) if relative else "."
        if normal == ".." or normal.startswith("../") or normal.startswith("/"):
            raise ValueError(relative)
        self.relative = "" if normal == "." else normal

    def join(self, parts):
        return RootPath(posixpath.join(self.relative, *parts))


def call_name(node):
    """`CUDAExtension` for `CUDAExtension(...)` and `x.CUDAExtension(...)`."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        parts = [func.attr]
        value = func.value
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name):
            parts.append(value.id)
        return ".".join(reversed(parts))
    return ""


def is_root_expression(node):
    """`os.path.dirname(os.path.abspath(__file__))`."""
    return (
        isinstance(node, ast.Call)
        and call_name(node) == "os.path.dirname"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Call)
        and call_name(node.args[0]) == "os.path.abspath"
    )


class Evaluator:
    def __init__(self, functions, domain, here=""):
        self.functions = functions
        self.domain = domain
        self.here = here  # the folder of the file, relative to the root

    def value(self, node, scope):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, (ast.List, ast.Tuple)):
            items = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    items.extend(self.value(element.value, scope))
                else:
                    items.append(self.value(element, scope))
            return items
        if isinstance(node, ast.Dict):
            return {
                self.value(key, scope): self.value(value, scope)
                for key, value in zip(node.keys, node.values)
            }
        if isinstance(node, ast.Name):
            if node.id in scope:
                return scope[node.id]
            if node.id in ("ROOT", "root"):
                return RootPath(self.here)
            raise Unsupported(node, f"unknown name {node.id}")
        if isinstance(node, ast.Call):
            return self.call(node, scope)
        if isinstance(node, ast.ListComp):
            return self.comprehension(node, scope)
        raise Unsupported(node, f"cannot read a {type(node).__name__} here")

    def call(self, node, scope):
        name = call_name(node)
        if is_root_expression(node):
            return RootPath(self.here)
        if name == f"_{self.domain}_gencode_flags":
            return [GENCODE]
        if name == "os.path.join":
            parts = [self.value(arg, scope) for arg in node.args]
            if not parts or not isinstance(parts[0], RootPath):
                raise Unsupported(node, "a path that is not below the repository root")
            if not all(isinstance(part, str) for part in parts[1:]):
                raise Unsupported(node, "a path joined from something other than strings")
            try:
                return parts[0].join(parts[1:])
            except ValueError:
                raise Unsupported(node, "a path that leaves the repository root") from None
        if name in self.functions and not node.args:
            return self.function_result(self.functions[name])
        raise Unsupported(node, f"cannot follow a call of {name or 'this'}")

    def comprehension(self, node, scope):
        if len(node.generators) != 1 or node.generators[0].ifs:
            raise Unsupported(node, "a comprehension with more than one plain loop")
        loop = node.generators[0]
        if not isinstance(loop.target, ast.Name):
            raise Unsupported(node, "a comprehension over more than one name")
        results = []
        for item in self.value(loop.iter, scope):
            inner = dict(scope)
            inner[loop.target.id] = item
            results.append(self.value(node.elt, inner))
        return results

    def function_result(self, function):
        scope = {}
        for statement in function.body:
            if isinstance(statement, ast.Return):
                return self.value(statement.value, scope)
            self.bind(statement, scope)
        raise Unsupported(function, f"{function.name} returns nothing this reader follows")

    def bind(self, statement, scope):
        """Plain `name = value` and `name: type = value` assignments; anything
        else is ignored, and a name bound to what this reader cannot follow
        is forgotten."""
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target = statement.target
        else:
            return
        if not isinstance(target, ast.Name):
            return
        try:
            scope[target.id] = self.value(statement.value, scope)
        except Unsupported:
            scope.pop(target.id, None)


def extension_call(function):
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and call_name(node).endswith("CUDAExtension"):
            return node
    return None


def statements_before(function, call):
    """The top-level statements of `function` before the one holding `call`."""
    for statement in function.body:
        if any(node is call for node in ast.walk(statement)):
            return
        yield statement


def strings(value, what, node):
    """A list of strings; paths below the root as their relative spelling."""
    if not isinstance(value, list):
        raise Unsupported(node, f"{what} is not a list of strings")
    value = [item.relative if isinstance(item, RootPath) else item for item in value]
    if not all(isinstance(item, str) for item in value):
        raise Unsupported(node, f"{what} is not a list of strings")
    return value


def setup_declaration(source, domain):
    tree = ast.parse(source)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    getter = functions.get(f"_get_{domain}_extension")
    if getter is None:
        return {"error": f"the block defines no _get_{domain}_extension()"}
    call = extension_call(getter)
    if call is None:
        return {"error": f"_get_{domain}_extension() builds no CUDAExtension"}
    evaluator = Evaluator(functions, domain)
    scope = {}
    for statement in statements_before(getter, call):
        evaluator.bind(statement, scope)
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    answer = {}
    for key in ("name", "sources", "include_dirs", "extra_compile_args"):
        if key not in keywords:
            return {"error": f"line {call.lineno}: CUDAExtension(...) has no {key}="}
    name = evaluator.value(keywords["name"], scope)
    if not isinstance(name, str):
        raise Unsupported(call, "name= is not a string")
    answer["name"] = name
    answer["sources"] = strings(evaluator.value(keywords["sources"], scope), "sources=", call)
    answer["include_dirs"] = strings(
        evaluator.value(keywords["include_dirs"], scope), "include_dirs=", call
    )
    flags = evaluator.value(keywords["extra_compile_args"], scope)
    if not isinstance(flags, dict):
        raise Unsupported(call, "extra_compile_args= is not a dict")
    for compiler in ("cxx", "nvcc"):
        what = f"extra_compile_args['{compiler}']"
        answer[compiler] = strings(flags.get(compiler, []), what, call)
    return answer


def load_call(tree):
    """The `load(...)` of torch.utils.cpp_extension and the function holding it."""
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and call_name(node) in JIT_LOADS:
                return function, node
    return None, None


JIT_LOADS = ("load", "cpp_extension.load", "torch.utils.cpp_extension.load")


def jit_declaration(source, here):
    tree = ast.parse(source)
    function, call = load_call(tree)
    if call is None:
        return {"error": "no function calls torch.utils.cpp_extension.load(...)"}
    evaluator = Evaluator({}, "", here)
    scope = {}
    for statement in tree.body:
        evaluator.bind(statement, scope)
    for statement in statements_before(function, call):
        evaluator.bind(statement, scope)
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    for key in ("name", "sources"):
        if key not in keywords:
            return {"error": f"line {call.lineno}: load(...) has no {key}="}

    def listed(key):
        if key not in keywords:
            return []
        return strings(evaluator.value(keywords[key], scope), f"{key}=", call)

    name = evaluator.value(keywords["name"], scope)
    if not isinstance(name, str):
        raise Unsupported(call, "name= is not a string")
    return {
        "name": name,
        "sources": listed("sources"),
        "include_dirs": listed("extra_include_paths"),
        "cxx": listed("extra_cflags"),
        "nvcc": listed("extra_cuda_cflags") + [GENCODE],
    }


def main():
    mode, argument = sys.argv[1], sys.argv[2]
    source = sys.stdin.buffer.read()
    try:
        if mode == "setup":
            answer = setup_declaration(source, argument)
        else:
            answer = jit_declaration(source, argument)
    except SyntaxError as error:
        answer = {"error": f"line {error.lineno}: {error.msg}"}
    except Unsupported as error:
        answer = {"error": str(error)}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
