"""Facts about Python files for the `python` rules of `opmig audit`.

opmig embeds this script and runs it once per audit as
`python3 -I -S SCRIPT` (standard library only) with one JSON request on
stdin:

  {"files": ["/abs/a.py", ...],
   "tasks": [{"rule": "id", "check": "decorated-function-name",
              "params": {...}, "files": [0, 3]}]}

Each file is parsed once, whatever the number of tasks that read it. The
answer on stdout is one JSON object:

  {"results": [{"rule": "id", "records": [
       {"file": 0, "line": 12, "column": 5, "captures": {"name": "_"}}]}],
   "unparsable": [{"file": 3, "line": 4, "column": 1, "message": "..."}]}

Lines are 1-based, columns 1-based in UTF-8 bytes. Checks whose rule
carries a regex return candidates (every decorated function, every
top-level name...) and opmig applies the regex, so that rule regexes mean
the same in every kind of rule; the other checks return findings.
"""

import ast
import gc
import glob
import json
import multiprocessing
import os
import re
import sys
import warnings

# Fields holding statements, or (handlers, match cases) nodes whose `body`
# holds statements.
STATEMENT_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def dotted(node):
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def last_part(name):
    return name.rsplit(".", 1)[-1]


def split_qualname(value):
    """`ns::op` into (ns, op); a name without `::` is all op."""
    if value is None:
        return None, None
    if "::" in value:
        namespace, op = value.split("::", 1)
        return namespace, op
    return "", value


def record(node, **captures):
    return {"line": node.lineno, "column": node.col_offset + 1, "captures": captures}


def child_bodies(statement):
    """The statement lists nested in a compound statement, each whole: an
    early `return` in one guards the statements after it."""
    for field in STATEMENT_BODIES:
        children = getattr(statement, field, None) or []
        if children and isinstance(children[0], ast.stmt):
            yield children
        else:  # except handlers and match cases hold their own bodies
            for child in children:
                yield child.body


def top_level_statements(body):
    """The module's statements, looking into `if`, `try`, `with` and loops
    at module level but not into functions or classes."""
    for statement in body:
        yield statement
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for nested in child_bodies(statement):
                yield from top_level_statements(nested)


def all_statements(body):
    """Every statement at any depth, functions and classes included. Most
    checks need statements only, and walking them skips the far larger
    expression trees."""
    for statement in body:
        yield statement
        for nested in child_bodies(statement):
            yield from all_statements(nested)


def expression_nodes(statement):
    """The nodes of a statement outside its nested statement lists."""
    for field, value in ast.iter_fields(statement):
        if field in STATEMENT_BODIES:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST):
                yield from ast.walk(item)


def assigned_names(target):
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in assigned_names(element)]
    if isinstance(target, ast.Starred):
        return assigned_names(target.value)
    return []


def assignment_targets(statement):
    """The names an assignment statement binds, as Name nodes."""
    if isinstance(statement, ast.Assign):
        return [name for target in statement.targets for name in assigned_names(target)]
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        return assigned_names(statement.target)
    if isinstance(statement, ast.AugAssign):
        return assigned_names(statement.target)
    return []


def from_imported_names(statement):
    """(name bound, alias node) for each name `from m import ...` binds."""
    if isinstance(statement, ast.ImportFrom) and statement.module != "__future__":
        for alias in statement.names:
            if alias.name != "*":
                yield (alias.asname or alias.name), alias


def position_of(alias, statement):
    """ast gives aliases positions from Python 3.10 on."""
    return alias if hasattr(alias, "lineno") else statement


class Module:
    """One parsed file and the facts several checks share."""

    def __init__(self, tree, source, index):
        self.tree = tree
        self.source = source
        self.index = index
        self._aliases = None
        self._strings = None
        self._top_level = None
        self._statements = None
        self._calls = None

    def top_level(self):
        if self._top_level is None:
            self._top_level = list(top_level_statements(self.tree.body))
        return self._top_level

    def statements(self):
        if self._statements is None:
            self._statements = list(all_statements(self.tree.body))
        return self._statements

    def calls(self):
        """Every call in the file (one walk of the whole tree, shared)."""
        if self._calls is None:
            self._calls = [node for node in ast.walk(self.tree) if isinstance(node, ast.Call)]
        return self._calls

    def mentions(self, name):
        """Whether the source text holds the last part of a dotted `name`:
        a file that does not cannot call it, and need not be walked."""
        return last_part(name).encode() in self.source

    def aliases(self):
        """Local names bound to dotted names: imports anywhere in the file and
        module-level `name = a.b.c` assignments."""
        if self._aliases is None:
            aliases = {}
            for node in self.statements():
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.asname:
                            aliases[alias.asname] = alias.name
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    for alias in node.names:
                        aliases[alias.asname or alias.name] = node.module + "." + alias.name
            self._aliases = aliases
            for statement in self.top_level():
                if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                    target = statement.targets[0]
                    value = self.resolve(statement.value)
                    if isinstance(target, ast.Name) and value and "." in value:
                        aliases[target.id] = value
        return self._aliases

    def resolve(self, node):
        """The dotted name `node` stands for, through the aliases."""
        name = dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        target = self.aliases().get(head)
        if target is None:
            return name
        return target + ("." + rest if rest else "")

    def names(self, node, wanted):
        """Whether `node` names `wanted`, as written or through an import."""
        return dotted(node) == wanted or self.resolve(node) == wanted

    def strings(self):
        """Module-level names bound once to a string the helper can evaluate."""
        if self._strings is None:
            self._strings = {}
            counts = {}
            for statement in self.top_level():
                for name in assignment_targets(statement):
                    counts[name.id] = counts.get(name.id, 0) + 1
            for statement in self.top_level():
                if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                    target = statement.targets[0]
                    if isinstance(target, ast.Name) and counts.get(target.id) == 1:
                        value = self.string(statement.value)
                        if value is not None:
                            self._strings[target.id] = value
        return self._strings

    def string(self, node):
        """The value of a string literal, a module-level string constant, an
        f-string or a `+` of those; None for anything else."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.strings().get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.string(node.left), self.string(node.right)
            return None if left is None or right is None else left + right
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    if value.conversion != -1 or value.format_spec is not None:
                        return None
                    value = value.value
                part = self.string(value)
                if part is None:
                    return None
                parts.append(part)
            return "".join(parts)
        return None

    def argument(self, call, params):
        """The argument a task names (`argument` index, or `keyword`)."""
        index = params.get("argument", 0)
        if index < len(call.args) and not any(
            isinstance(a, ast.Starred) for a in call.args[: index + 1]
        ):
            return call.args[index]
        keyword = params.get("keyword")
        for candidate in call.keywords:
            if keyword and candidate.arg == keyword:
                return candidate.value
        return None

    def decorated(self, decorator):
        """(function, decorator call) for each function whose decorator is a
        call of `decorator`."""
        if not self.mentions(decorator):
            return
        for node in self.statements():
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for expression in node.decorator_list:
                    if isinstance(expression, ast.Call) and self.names(expression.func, decorator):
                        yield node, expression


# Checks. Each takes (module, params, context) and yields records.


def call_string_argument(module, params, context):
    if not module.mentions(params["call"]):
        return
    for node in module.calls():
        if module.names(node.func, params["call"]):
            argument = module.argument(node, params)
            value = None if argument is None else module.string(argument)
            if value is None:
                continue
            namespace, op = split_qualname(value)
            yield record(argument, call=params["call"], argument=value, namespace=namespace, op=op)


def decorator_argument(module, params, context):
    for function, call in module.decorated(params["decorator"]):
        argument = module.argument(call, params)
        if argument is None:
            continue
        if isinstance(argument, (ast.List, ast.Tuple)):
            values = [module.string(element) for element in argument.elts]
            value = None if None in values else ", ".join(values)
        else:
            value = module.string(argument)
        if value is None:
            continue
        namespace, op = split_qualname(module.string(call.args[0]) if call.args else None)
        yield record(
            argument,
            decorator=params["decorator"],
            argument=value,
            name=function.name,
            namespace=namespace or "",
            op=op or "",
        )


def decorated_function_name(module, params, context):
    for function, call in module.decorated(params["decorator"]):
        captures = {"name": function.name, "decorator": params["decorator"]}
        qualname = module.string(call.args[0]) if call.args else None
        if qualname is not None:
            captures["namespace"], captures["op"] = split_qualname(qualname)
        yield record(function, **captures)


def declared_all(module):
    """(entries as (name, node), whether `__all__` could be read), from
    `__all__ = [...]`, `+= [...]`, `.extend([...])` and `.append("...")`."""
    entries, found, readable = [], False, True

    def add(sequence):
        nonlocal readable
        if not isinstance(sequence, (ast.List, ast.Tuple)):
            readable = False
            return
        for element in sequence.elts:
            if isinstance(element, ast.Constant) and isinstance(element.value, str):
                entries.append((element.value, element))
            else:
                readable = False

    for statement in module.top_level():
        targets = [name.id for name in assignment_targets(statement)]
        if "__all__" in targets:
            found = True
            if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                if len(targets) != 1:
                    readable = False
                    continue
                entries.clear()
            add(statement.value)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            call = statement.value
            method = dotted(call.func)
            if method == "__all__.extend" and len(call.args) == 1:
                found = True
                add(call.args[0])
            elif method == "__all__.append" and len(call.args) == 1:
                found = True
                add(ast.List(elts=[call.args[0]]))
    return entries, found, readable


def public_definitions(module):
    """The first node defining each public top-level name. `import x`
    binds a module, which is no part of the API surface; `from m import x`
    names are."""
    defined = {}
    for statement in module.top_level():
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.setdefault(statement.name, statement)
        for name in assignment_targets(statement):
            defined.setdefault(name.id, name)
        for name, alias in from_imported_names(statement):
            defined.setdefault(name, position_of(alias, statement))
    return {name: node for name, node in defined.items() if not name.startswith("_")}


def all_equals_public_names(module, params, context):
    entries, found, readable = declared_all(module)
    if found and not readable:
        return
    public = public_definitions(module)
    listed = set()
    for name, node in entries:
        if name in listed:
            yield record(node, name=name, problem="listed twice in __all__")
        elif name not in public:
            problem = "listed in __all__ but not a public name of the module"
            yield record(node, name=name, problem=problem)
        listed.add(name)
    for name, node in public.items():
        if name not in listed:
            yield record(node, name=name, problem="a public name missing from __all__")


def no_partial_alias(module, params, context):
    for statement in module.top_level():
        value = getattr(statement, "value", None)
        if not isinstance(statement, (ast.Assign, ast.AnnAssign)):
            continue
        if not isinstance(value, ast.Call):
            continue
        if not (module.names(value.func, "functools.partial") or dotted(value.func) == "partial"):
            continue
        # What is partially applied, through the imports: an operator of the
        # kernels tree (`cache_dit.kernels.fp8_quant`) or a local function.
        wrapped = (module.resolve(value.args[0]) or "") if value.args else ""
        for name in assignment_targets(statement):
            if not name.id.startswith("_"):
                yield record(name, name=name.id, target=wrapped)


def public_functions(module):
    for statement in module.top_level():
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if not statement.name.startswith("_"):
                yield statement


def public_wrapper_calls(module, params, context):
    prefix = params["prefix"]
    for function in public_functions(module):
        expected = prefix + function.name
        bridges, calls_op, calls_expected = [], False, False
        for node in ast.walk(function):
            if not isinstance(node, ast.Call):
                continue
            name = module.resolve(node.func) or ""
            if last_part(name).startswith("_call_"):
                bridges.append((node, dotted(node.func)))
            if name.startswith("torch.ops."):
                calls_op = True
                calls_expected |= name == expected or name.startswith(expected + ".")
        if not bridges and not calls_op:
            continue
        for node, bridge in bridges:
            yield record(
                node,
                name=function.name,
                expected=expected,
                bridge=bridge,
                problem=f"calls the bridge `{bridge}` directly",
            )
        if not calls_expected:
            yield record(
                function,
                name=function.name,
                expected=expected,
                bridge="",
                problem=f"does not call `{expected}`",
            )


def top_level_items(module):
    """Named top-level items in order, with the keys section-order and
    forbidden-names match: the name, and `@decorator` for each decorator
    (an expression statement calling `f` is the item `f`)."""
    for statement in module.top_level():
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kind = "class" if isinstance(statement, ast.ClassDef) else "function"
            keys = [statement.name]
            for decorator in statement.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = module.resolve(target)
                if name:
                    keys.append("@" + name)
            yield statement, statement.name, kind, keys
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            name = module.resolve(statement.value.func)
            if name:
                yield statement, name, "call", [name]
        else:
            for target in assignment_targets(statement):
                yield target, target.id, "assignment", [target.id]


def forbidden_names(module, params, context):
    for node, name, kind, _keys in top_level_items(module):
        if kind != "call":
            yield record(node, name=name, kind=kind)


def section_order(module, params, context):
    for node, name, kind, keys in top_level_items(module):
        item = record(node, name=name, kind=kind)
        item["keys"] = keys
        yield item


def module_state(module, params, context):
    for statement in module.top_level():
        if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for name in assignment_targets(statement):
                yield record(name, name=name.id)


def guard_names(module, params):
    """Names that stand for the guard's result: the rule's `guard-names`
    (module constants such as `IS_NPU_AVAILABLE = is_torch_npu_available()`
    imported from elsewhere) and this module's own top-level
    `name = <guard>()` assignments."""
    names = set(params.get("guard-names", []))
    guard = Guard(params)
    for statement in module.top_level():
        if isinstance(statement, ast.Assign) and is_guard(statement.value, guard, ()):
            names.update(name.id for name in assignment_targets(statement))
    return names


class Guard:
    """The guard of a guarded-import rule: a function (`guard`) and, with
    `guard-device-type`, a device type whose comparison stands for it
    (`x.device.type == "npu"`: a torch.device of that type exists only once
    its backend is loaded)."""

    def __init__(self, params):
        self.function = params["guard"]
        self.device_type = params.get("guard-device-type")

    def __str__(self):
        return self.function

    def compares_device(self, node, operator):
        """`<expr>.type <operator> "<device type>"`, either way round."""
        if not self.device_type or not isinstance(node, ast.Compare) or len(node.ops) != 1:
            return False
        if not isinstance(node.ops[0], operator):
            return False
        sides = [node.left, node.comparators[0]]
        typed = any(isinstance(side, ast.Attribute) and side.attr == "type" for side in sides)
        named = any(
            isinstance(side, ast.Constant) and side.value == self.device_type for side in sides
        )
        return typed and named


def is_guard(node, guard, names):
    """`guard()`, a name bound to its result, a device-type comparison
    standing for it, or an `and` holding one."""
    if isinstance(node, ast.Call):
        name = dotted(node.func)
        return name is not None and last_part(name) == last_part(guard.function)
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = dotted(node)
        return name is not None and last_part(name) in names
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return any(is_guard(value, guard, names) for value in node.values)
    return guard.compares_device(node, ast.Eq)


def is_negated_guard(node, guard, names):
    negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    return (negated and is_guard(node.operand, guard, names)) or guard.compares_device(
        node, ast.NotEq
    )


def local_guard_names(function, guard, names):
    """The local names of `function` that stand for the guard: every
    assignment of them in its own body (not in nested defs) is a guard
    (`is_npu = self.device.type == "npu"` before `if is_npu:`)."""
    bound, other = set(), set()
    pending = list(function.body)
    while pending:
        statement = pending.pop()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for nested in child_bodies(statement):
            pending.extend(nested)
        targets = [name.id for name in assignment_targets(statement)]
        if isinstance(statement, ast.Assign) and is_guard(statement.value, guard, names):
            bound.update(targets)
        else:
            other.update(targets)
    return bound - other


def terminates(body):
    """Whether a statement list always leaves its block: it ends in
    `raise`, `return`, `continue`, `break` or a `pytest.skip(...)` call."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ast.Raise, ast.Return, ast.Continue, ast.Break)):
        return True
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        return last_part(dotted(last.value.func) or "") == "skip"
    return False


def skips_unless_guard(module, node, guard, names):
    """`pytest.mark.skipif(not <guard>, ...)`: the test (or module) never
    runs without the guard."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    if not module.names(node.func, "pytest.mark.skipif"):
        return False
    return is_negated_guard(node.args[0], guard, names)


def module_skipped_unless_guard(module, guard, names):
    """A module-level `pytestmark = pytest.mark.skipif(not <guard>, ...)`
    (or a list holding one)."""
    for statement in module.tree.body:
        if isinstance(statement, ast.Assign) and any(
            name.id == "pytestmark" for name in assignment_targets(statement)
        ):
            value = statement.value
            marks = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
            if any(skips_unless_guard(module, mark, guard, names) for mark in marks):
                return True
    return False


def imported_modules(node):
    """(module name as written, node) for each module an import statement
    names."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, position_of(alias, node)
    elif isinstance(node, ast.ImportFrom):
        dots = "." * node.level
        if node.module:
            yield dots + node.module, node
        else:
            for alias in node.names:
                yield dots + alias.name, position_of(alias, node)


def dynamic_imports(module, statement):
    """(module name, call) for `importlib.import_module("...")` and
    `__import__("...")` calls in a statement outside its nested bodies."""
    for node in expression_nodes(statement):
        if isinstance(node, ast.Call) and node.args:
            imports = dotted(node.func) == "__import__"
            if imports or module.names(node.func, "importlib.import_module"):
                value = module.string(node.args[0])
                if value is not None:
                    yield value, node


class ImportGuards:
    """What guarded-import needs while it walks one file: the guard, the
    names standing for it, and whether dynamic imports are worth looking for."""

    def __init__(self, module, params):
        self.module = module
        self.guard = Guard(params)
        self.names = guard_names(module, params)
        self.dynamic = b"import_module" in module.source or b"__import__" in module.source

    def imports(self, statement, function):
        found = list(imported_modules(statement))
        if self.dynamic:
            found += list(dynamic_imports(self.module, statement))
        for name, where in found:
            yield record(where, module=name, guard=str(self.guard), function=function)

    def decorated_guarded(self, statement):
        decorators = getattr(statement, "decorator_list", [])
        return any(
            skips_unless_guard(self.module, decorator, self.guard, self.names)
            for decorator in decorators
        )


def unguarded_imports(guards, body, guarded, function, names):
    """Imports in `body` not under the guard (a module-level function, not
    a closure: a recursive closure is a reference cycle, and the collector
    is off). The guard holds inside `if <guard>:`, in the `else` of
    `if not <guard>:`, after an `if not <guard>: raise/return` in the same
    block, and in tests skipped unless it holds. `function` is the
    innermost enclosing def, for the `{function}` capture; `names` the
    names standing for the guard there (the module's and its locals)."""
    for statement in body:
        if not guarded:
            yield from guards.imports(statement, function)
        if isinstance(statement, ast.If):
            test = statement.test
            body_guarded = guarded or is_guard(test, guards.guard, names)
            negated = is_negated_guard(test, guards.guard, names)
            yield from unguarded_imports(guards, statement.body, body_guarded, function, names)
            else_guarded = guarded or negated
            yield from unguarded_imports(guards, statement.orelse, else_guarded, function, names)
            if negated and terminates(statement.body):
                guarded = True
            continue
        inner, inner_guarded = function, guarded or guards.decorated_guarded(statement)
        inner_names = names
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = statement.name
            inner_names = names | local_guard_names(statement, guards.guard, names)
        for nested in child_bodies(statement):
            yield from unguarded_imports(guards, nested, inner_guarded, inner, inner_names)


def guarded_import(module, params, context):
    guards = ImportGuards(module, params)
    skipped = module_skipped_unless_guard(module, guards.guard, guards.names)
    return unguarded_imports(guards, module.tree.body, skipped, "", guards.names)


PATCH_PREFIX, PATCH_SUFFIX = "apply_veomni_", "_patch"


def is_patch_function(statement):
    return (
        isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        and statement.name.startswith(PATCH_PREFIX)
        and statement.name.endswith(PATCH_SUFFIX)
    )


def declared_globals(function):
    return {
        name
        for node in ast.walk(function)
        if isinstance(node, ast.Global)
        for name in node.names
    }


def called_names(function):
    return {
        node.func.id
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def tests_none(test, pointer):
    """`pointer is None` or `not pointer`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is):
        sides = [test.left, test.comparators[0]]
        named = any(isinstance(side, ast.Name) and side.id == pointer for side in sides)
        none = any(isinstance(side, ast.Constant) and side.value is None for side in sides)
        return named and none
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Name) and test.operand.id == pointer
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(tests_none(value, pointer) for value in test.values)
    return False


def raises_exception(body, exception):
    """Whether a statement list ends in `raise <exception>(...)`."""
    if not body or not isinstance(body[-1], ast.Raise) or body[-1].exc is None:
        return False
    raised = body[-1].exc
    if isinstance(raised, ast.Call):
        raised = raised.func
    name = dotted(raised)
    return name is not None and last_part(name) == exception


def tests_not_none(test, pointer):
    """`pointer is not None` or a bare `pointer`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot):
        sides = [test.left, test.comparators[0]]
        named = any(isinstance(side, ast.Name) and side.id == pointer for side in sides)
        none = any(isinstance(side, ast.Constant) and side.value is None for side in sides)
        return named and none
    return isinstance(test, ast.Name) and test.id == pointer


def pointer_calls(statement, names):
    """Calls of one of `names` in a statement outside its nested bodies."""
    for node in expression_nodes(statement):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in names:
                yield node


def local_aliases(function, pointer):
    """The pointer and the local names bound to it (`impl = _op`)."""
    names = {pointer}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            if node.value.id == pointer:
                names.update(name.id for name in assignment_targets(node))
    return names


def unchecked_calls(body, names, checked, exception):
    """Calls of the pointer (or an alias) that run before
    `if <pointer> is None: raise <exception>(...)` in their block or an
    enclosing one; inside `if <pointer> is not None:` a call is safe too.
    A module-level function: the collector is off, closures would leak."""
    for statement in body:
        if not checked:
            yield from pointer_calls(statement, names)
        if isinstance(statement, ast.If):
            none_check = any(tests_none(statement.test, name) for name in names)
            not_none = any(tests_not_none(statement.test, name) for name in names)
            yield from unchecked_calls(statement.body, names, checked or not_none, exception)
            else_checked = checked or (none_check and raises_exception(statement.body, exception))
            yield from unchecked_calls(statement.orelse, names, else_checked, exception)
            if none_check and raises_exception(statement.body, exception):
                checked = True
            continue
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for nested in child_bodies(statement):
            yield from unchecked_calls(nested, names, checked, exception)


def calls_pointer(function, pointer):
    return pointer in called_names(function) or bool(
        set(local_aliases(function, pointer)) & called_names(function)
    )


def function_pointer_pattern(module, params, context):
    exception = params.get("raises") or "NotImplementedError"
    functions = [
        statement
        for statement in module.top_level()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    patches = [function for function in functions if is_patch_function(function)]
    called, patched = set(), set()
    for function in functions:
        called |= called_names(function)
    for patch in patches:
        patched |= declared_globals(patch)
    # A function pointer is called somewhere or bound by a patch; a `None`
    # handle that no one calls (a torch.library.Library) is no pointer.
    pointers = [
        name
        for statement in module.top_level()
        if isinstance(statement, (ast.Assign, ast.AnnAssign))
        and isinstance(statement.value, ast.Constant)
        and statement.value.value is None
        for name in assignment_targets(statement)
        if name.id.startswith("_") and (name.id in called or name.id in patched)
    ]
    if not patches and not pointers:
        return
    if not pointers:
        # The package's pointers may live beside its `__init__.py`
        # (`attention/flash.py`'s `_flash_attention_forward`).
        if context.package_has_pointer(module):
            return
        yield record(
            patches[0],
            name=patches[0].name,
            pointer="",
            missing="a module-level `_<op> = None` function pointer in the op package",
        )
        return
    for pointer in pointers:
        yield from pointer_findings(functions, patches, pointer, exception)


def is_pointer_value(value):
    """What a function pointer starts as: None, or a default
    implementation named by a (dotted) name."""
    if isinstance(value, ast.Constant):
        return value.value is None
    return dotted(value) is not None


def defines_pointer(module):
    """Whether a module of an op package defines a function pointer: a
    private module-level name bound to None or to a function, that one of
    its functions calls or declares `global`."""
    functions = [
        statement
        for statement in module.top_level()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    used = set()
    for function in functions:
        used |= called_names(function) | declared_globals(function)
    return any(
        name.id.startswith("_") and name.id in used
        for statement in module.top_level()
        if isinstance(statement, (ast.Assign, ast.AnnAssign))
        and statement.value is not None
        and is_pointer_value(statement.value)
        for name in assignment_targets(statement)
    )


def pointer_findings(functions, patches, pointer, exception):
    dispatchers = [
        function
        for function in functions
        if not function.name.startswith("_")
        and not is_patch_function(function)
        and calls_pointer(function, pointer.id)
    ]
    guard = f"`if {pointer.id} is None: raise {exception}(...)`"
    if not dispatchers:
        yield record(
            pointer,
            name=pointer.id,
            pointer=pointer.id,
            missing=f"a public function that raises when `{pointer.id}` is None and calls it",
        )
    for function in dispatchers:
        names = local_aliases(function, pointer.id)
        for call in unchecked_calls(function.body, names, False, exception):
            yield record(
                call,
                name=function.name,
                pointer=pointer.id,
                missing=f"the guard {guard} before this call in `{function.name}()`",
            )
    if not any(pointer.id in declared_globals(patch) for patch in patches):
        yield record(
            pointer,
            name=pointer.id,
            pointer=pointer.id,
            missing=f"an `apply_veomni_*_patch()` function that declares `global {pointer.id}`",
        )


def module_paths(module, scope):
    """Local names bound by imports in `scope` (the registry module and the
    registering function) to the module path they come from."""
    paths = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Import):
            for alias in node.names:
                paths[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            for alias in node.names:
                if node.module:
                    paths[alias.asname or alias.name] = base
                else:
                    paths[alias.asname or alias.name] = base + alias.name
    return paths


def referenced_names(function):
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names


def names_through_calls(registry, function):
    """The names `function` refers to, and those of the registry's own
    top-level functions it calls, transitively: `format_kernel_functions()`
    names every op `build_ALL_OPS()` does by iterating over it."""
    local = {
        statement.name: statement
        for statement in registry.top_level()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    names, pending, seen = set(), [function], set()
    while pending:
        current = pending.pop()
        if current.name in seen:
            continue
        seen.add(current.name)
        names |= referenced_names(current)
        pending.extend(local[name] for name in called_names(current) if name in local)
    return names


def dispatchers(module):
    """The public functions of an op module that dispatch through a
    module-level `_x = None` function pointer."""
    pointers = {
        name.id
        for statement in module.top_level()
        if isinstance(statement, (ast.Assign, ast.AnnAssign))
        and isinstance(statement.value, ast.Constant)
        and statement.value.value is None
        for name in assignment_targets(statement)
        if name.id.startswith("_")
    }
    for function in public_functions(module):
        if is_patch_function(function):
            continue
        if any(calls_pointer(function, pointer) for pointer in pointers):
            yield function


def exported_in(module, params, context):
    """Each dispatcher of an op package is in the registry's `__all__`; in
    the registry itself, each `__all__` entry is a name it binds."""
    exports = context.exports(params)
    if exports is None:
        return
    if context.paths[module.index] == context.paths[params.get("file_index", -1)]:
        yield from unbound_exports(module, params)
        return
    for function in dispatchers(module):
        if function.name not in exports:
            yield record(
                function,
                name=function.name,
                package=context.package_of(module),
                file=params["file"],
                problem=f"is missing from __all__ of {params['file']}",
            )


def unbound_exports(module, params):
    entries, found, readable = declared_all(module)
    bound = set(public_definitions(module))
    for statement in module.top_level():
        if isinstance(statement, ast.Import):
            bound.update((a.asname or a.name.split(".")[0]) for a in statement.names)
        for name, _ in from_imported_names(statement):
            bound.add(name)
    for name, node in entries:
        if name not in bound:
            yield record(
                node,
                name=name,
                package="",
                file=params["file"],
                problem=f"is listed in __all__ of {params['file']} "
                "but not defined or imported there",
            )


def registered_in(module, params, context):
    """A package with a patch function that its registry does not name:
    `function` in `file`, or with `registries` any of several (function,
    file) alternatives. `registers: patch` asks for each patch function by
    name (the spec's "Patch functions are called from"), else the package."""
    patches = [statement for statement in module.top_level() if is_patch_function(statement)]
    if not patches:
        return
    alternatives = params.get("registries") or [params]
    registries = [context.registry(alternative) for alternative in alternatives]
    if any(registry is None for registry in registries):
        return
    package = context.package_of(module)
    wanted = [patch.name for patch in patches] if params.get("registers") == "patch" else [package]
    where = " or ".join(f"{a['function']}() in {a['file']}" for a in alternatives)
    for patch, name in zip(patches, wanted):
        if any(name in registry for registry in registries):
            continue
        yield record(
            patch,
            name=name,
            package=package,
            patch=patch.name,
            function=alternatives[0]["function"],
            file=alternatives[0]["file"],
            registries=where,
        )


def imports_every_package(module, params, context):
    """A patched op package that the registry `file` does not import, itself
    or through the `__init__.py` of a package between them (`from . import
    kernels` and `kernels/__init__.py`'s `from . import moe`)."""
    if not any(is_patch_function(statement) for statement in module.top_level()):
        return
    registry_path = context.paths[params["file_index"]] if "file_index" in params else None
    if registry_path is None:
        return
    root = os.path.dirname(os.path.abspath(registry_path))
    package_dir = os.path.dirname(os.path.abspath(context.paths[module.index]))
    relative = os.path.relpath(package_dir, root).replace("\\", "/")
    if relative.startswith("..") or relative == ".":
        return
    parts = relative.split("/")
    registry = context.parse(params["file_index"])
    if registry is None or imports_path(registry, root, parts):
        return
    patch = next(s for s in module.top_level() if is_patch_function(s))
    yield record(patch, name=parts[-1], package=".".join(parts), file=params["file"])


def relative_imports(module, root):
    """The dotted paths, relative to the folder `root` of `module`'s
    package, that its imports name: `from .kernels import moe` names
    `kernels` and `kernels.moe`, `import veomni.ops.kernels` names
    `kernels` when `root` is `veomni/ops`."""
    package = root.replace("\\", "/").rstrip("/").split("/")
    found = set()
    for statement in module.statements():
        targets = []
        if isinstance(statement, ast.Import):
            targets = [alias.name for alias in statement.names]
        elif isinstance(statement, ast.ImportFrom):
            base = statement.module or ""
            if statement.level == 1:
                targets = [base] + [(base + "." if base else "") + a.name for a in statement.names]
            elif statement.level == 0:
                targets = [base] + [base + "." + a.name for a in statement.names]
        for target in targets:
            target_parts = [part for part in target.split(".") if part]
            if isinstance(statement, ast.ImportFrom) and statement.level == 1:
                found.add(".".join(target_parts))
                continue
            # An absolute import names the package by its dotted path from
            # some folder above: match its longest tail of `root`'s parts.
            for start in range(len(package)):
                prefix = package[start:]
                if target_parts[: len(prefix)] == prefix and len(target_parts) > len(prefix):
                    found.add(".".join(target_parts[len(prefix) :]))
    found.discard("")
    return found


def imports_path(module, root, parts):
    """Whether `module` (the `__init__.py` of folder `root`) imports the
    package `parts` below it, directly or through the packages between."""
    # Importing `a.b.c` imports the packages `a` and `a.b` too.
    names = set()
    for name in relative_imports(module, root):
        pieces = name.split(".")
        names.update(".".join(pieces[:end]) for end in range(1, len(pieces) + 1))
    if ".".join(parts) in names:
        return True
    if len(parts) < 2 or parts[0] not in names:
        return False
    inner_root = os.path.join(root, parts[0])
    inner = parse_path(os.path.join(inner_root, "__init__.py"))
    return inner is not None and imports_path(inner, inner_root, parts[1:])


def defined_names(module):
    """Every name the module binds at top level: defs, classes,
    assignments and imported names."""
    names = set()
    for statement in module.top_level():
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        names.update(name.id for name in assignment_targets(statement))
        for name, _ in from_imported_names(statement):
            names.add(name)
        if isinstance(statement, ast.Import):
            names.update((a.asname or a.name.split(".")[0]) for a in statement.names)
    return names


def required_names(module, params, context):
    """One record per file, about the whole file: the names it binds.
    opmig instantiates the rule's names per domain and reports each
    missing one."""
    defined = "\n".join(sorted(defined_names(module)))
    yield {"line": 0, "column": 0, "captures": {"defined": defined}}


def all_lists_public_functions(module, params, context):
    """Each public top-level def and class is in `__all__` (private names
    may be listed too; imported names need not be); each entry names
    something the module defines or imports."""
    entries, found, readable = declared_all(module)
    if found and not readable:
        return
    listed = {name for name, _ in entries}
    for statement in module.top_level():
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if not statement.name.startswith("_") and statement.name not in listed:
                problem = "missing from __all__" if found else "not listed: there is no __all__"
                yield record(statement, name=statement.name, problem=problem)
    bound = defined_names(module)
    for name, node in entries:
        if name not in bound:
            yield record(node, name=name, problem="listed in __all__ but not defined or imported")


def function_calls(module, params, context):
    """Candidates of no-calls-in: every call in a top-level function or a
    method, with the function's name and the call's dotted name (through
    the imports; `().new_empty` for a method of another expression)."""
    for statement in module.top_level():
        functions = []
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions = [(statement.name, statement)]
        elif isinstance(statement, ast.ClassDef):
            functions = [
                (member.name, member)
                for member in statement.body
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef))
            ]
        for name, function in functions:
            returned = returned_calls(function)
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                called = module.resolve(node.func)
                if called is None and isinstance(node.func, ast.Attribute):
                    called = "()." + node.func.attr
                if called:
                    flag = "1" if id(node) in returned else ""
                    yield record(node, function=name, call=called, returned=flag)


def returned_calls(function):
    """The ids of the calls whose result `function` returns: inside a
    `return`, or bound to a local name a `return` names (`out =
    torch.empty(...)` ... `return out`). A scratch buffer passed to a
    kernel and dropped is not returned."""
    returns = [node for node in ast.walk(function) if isinstance(node, ast.Return) and node.value]
    names = {
        child.id
        for node in returns
        for child in ast.walk(node.value)
        if isinstance(child, ast.Name)
    }
    found = set()
    for node in returns:
        found.update(id(child) for child in ast.walk(node.value) if isinstance(child, ast.Call))
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            if any(target.id in names for target in assignment_targets(node)):
                found.update(
                    id(child) for child in ast.walk(node.value) if isinstance(child, ast.Call)
                )
    return found


def qualname_of(value):
    """`ns::op` of a define's or fake's first argument (a schema after the
    name, `ns::op(Tensor x) -> Tensor`, dropped)."""
    return value.split("(", 1)[0].strip()


def defines_have_fakes(module, params, context):
    define = params.get("define") or "torch.library.define"
    fake = params.get("fake") or "torch.library.register_fake"
    if not module.mentions(define):
        return
    defines, fakes = [], set()
    for node in module.calls():
        if not node.args:
            continue
        value = module.string(node.args[0])
        if value is None:
            continue
        if module.names(node.func, define):
            defines.append((qualname_of(value), node.args[0]))
        elif module.names(node.func, fake):
            fakes.add(qualname_of(value))
    fake_ops = {split_qualname(name)[1] for name in fakes if "::" not in name}
    for qualname, node in defines:
        namespace, op = split_qualname(qualname)
        if qualname in fakes or op in fake_ops:
            continue
        yield record(node, qualname=qualname, namespace=namespace, op=op, fake=fake)


def string_constant(module, params, context):
    """Candidates of value-follows-file: the module-level string constant
    `name`, where it is bound."""
    name = params["name"]
    value = module.strings().get(name)
    if value is None:
        return
    for statement in module.top_level():
        for target in assignment_targets(statement):
            if target.id == name:
                yield record(target, name=name, value=value)
                return


def raise_candidates(module, params, context):
    """Candidates of raises-with-message: each top-level function named
    `function`, with the raises it and the module's own functions it calls
    (transitively) hold, one a line: `<exception name>\t<text>`, the text
    being every string constant of the raised call joined (f-string parts
    included, newlines as spaces)."""
    local = {
        statement.name: statement
        for statement in module.top_level()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    function = local.get(params["function"])
    if function is None:
        return
    lines, pending, seen = [], [function], set()
    while pending:
        current = pending.pop()
        if current.name in seen:
            continue
        seen.add(current.name)
        for node in ast.walk(current):
            if isinstance(node, ast.Raise) and node.exc is not None:
                lines.append(raise_line(node.exc))
        pending.extend(local[name] for name in called_names(current) if name in local)
    yield record(function, function=function.name, raises="\n".join(lines))


def raise_line(raised):
    """`<exception>\t<text>` of one raised expression."""
    target = raised.func if isinstance(raised, ast.Call) else raised
    name = last_part(dotted(target) or "")
    texts = [
        child.value
        for child in ast.walk(raised)
        if isinstance(child, ast.Constant) and isinstance(child.value, str)
    ]
    return name + "\t" + " ".join("".join(texts).split())


def import_candidates(module, params, context):
    """Candidates of forbidden-import: each module an import names, with
    `from m import x` as `m` and as `m.x` (relative ones keep their dots:
    `._C_attn`), and `importlib.import_module("...")`. `{statement}` tells
    the records of one import apart from the next (opmig reports the first
    match of each), `{function}` is the innermost enclosing def."""
    dynamic = b"import_module" in module.source or b"__import__" in module.source
    return import_records(module, module.tree.body, "", dynamic, [0])


def import_records(module, body, function, dynamic, counter):
    """import_candidates() over `body` (a module-level function, not a
    closure: the collector is off)."""
    for statement in body:
        counter[0] += 1
        number = str(counter[0])
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                where = position_of(alias, statement)
                yield record(where, module=alias.name, function=function, statement=number)
        elif isinstance(statement, ast.ImportFrom):
            base = "." * statement.level + (statement.module or "")
            yield record(statement, module=base, function=function, statement=number)
            glue = "" if base.endswith(".") or not base else "."
            for alias in statement.names:
                where = position_of(alias, statement)
                name = base + glue + alias.name
                yield record(where, module=name, function=function, statement=number)
        if dynamic:
            for name, node in dynamic_imports(module, statement):
                yield record(node, module=name, function=function, statement=number)
        inner = function
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = statement.name
        for nested in child_bodies(statement):
            yield from import_records(module, nested, inner, dynamic, counter)


def used_names(module, node):
    """Every dotted name `node` uses (as written and through the imports;
    `().attr` for an attribute of any other expression) and the string
    constants it holds."""
    names, strings = set(), set()
    for child in ast.walk(node):
        if isinstance(child, (ast.Name, ast.Attribute)):
            for name in (dotted(child), module.resolve(child)):
                if name:
                    names.add(name)
            if isinstance(child, ast.Attribute) and dotted(child) is None:
                # An attribute of a call or subscript: `f(x).shape`.
                names.add("()." + child.attr)
        elif isinstance(child, ast.Constant) and isinstance(child.value, str):
            strings.add(child.value)
    return names, strings


def is_skip(module, node):
    """`pytest.skip(...)` or a bare `@pytest.mark.skip` decorator."""
    if isinstance(node, ast.Call):
        node = node.func
    return module.names(node, "pytest.skip") or module.names(node, "pytest.mark.skip")


def is_placeholder(module, function):
    """A test that always skips: `@pytest.mark.skip`, or a body whose first
    statement (after the docstring) is an unconditional `pytest.skip()`."""
    if any(is_skip(module, decorator) for decorator in function.decorator_list):
        return True
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return bool(body) and isinstance(body[0], ast.Expr) and is_skip(module, body[0].value)


def test_definitions(module):
    """(qualified name, function) of every pytest test: `test_*` functions at
    module level and in `Test*` classes."""
    for statement in module.tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if statement.name.startswith("test"):
                yield statement.name, statement
        elif isinstance(statement, ast.ClassDef) and statement.name.startswith("Test"):
            for member in statement.body:
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if member.name.startswith("test"):
                        yield statement.name + "::" + member.name, member


def test_functions(module, params, context):
    """One record per test: the names and strings it uses, through the
    module-level helper functions it calls, and whether it always skips.
    The review matches them against its validation layers."""
    helpers = {
        statement.name: statement
        for statement in module.tree.body
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not statement.name.startswith("test")
    }
    imports = set()
    for statement in module.statements():
        if isinstance(statement, ast.Import):
            imports.update(alias.name for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom) and statement.module:
            imports.add(statement.module)
            imports.update(statement.module + "." + alias.name for alias in statement.names)
    for name, function in test_definitions(module):
        names, strings = used_names(module, function)
        pending, seen = [n for n in names if n in helpers], set()
        while pending:
            helper = pending.pop()
            if helper in seen:
                continue
            seen.add(helper)
            more_names, more_strings = used_names(module, helpers[helper])
            names |= more_names
            strings |= more_strings
            pending.extend(n for n in more_names if n in helpers and n not in seen)
        yield record(
            function,
            name=name,
            uses="\n".join(sorted(names)),
            strings="\n".join(sorted(strings)),
            imports="\n".join(sorted(imports)),
            placeholder="1" if is_placeholder(module, function) else "",
        )


def asserts(module, node):
    """Whether `node` asserts: an `assert`, `pytest.raises` / `pytest.fail`,
    or a `self.assert*` call."""
    for child in ast.walk(node):
        if isinstance(child, ast.Assert):
            return True
        if isinstance(child, ast.Call):
            if module.names(child.func, "pytest.raises") or module.names(child.func, "pytest.fail"):
                return True
            name = dotted(child.func) or ""
            if name.startswith("self.assert"):
                return True
    return False


def asserted_strings(module):
    """The string constants of the tests that assert, with those of the
    module-level helpers and constants they name (`REMOVED = (...)` looped
    over by the test), transitively."""
    definitions = {}
    for statement in module.tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            definitions.setdefault(statement.name, statement)
        for name in assignment_targets(statement):
            definitions.setdefault(name.id, statement)
    strings = set()
    for _, function in test_definitions(module):
        closure, pending, seen = [], [function], set()
        while pending:
            node = pending.pop()
            closure.append(node)
            names, _ = used_names(module, node)
            for name in names:
                if name in definitions and name not in seen:
                    seen.add(name)
                    pending.append(definitions[name])
        if any(asserts(module, node) for node in closure):
            for node in closure:
                strings |= used_names(module, node)[1]
    return strings


def name_pattern(name):
    """A regex for a required name: `*` stands for any run of characters
    but white space (`_select_*_backend` is named by `_select_cuda_backend`
    and by the pattern `_select_\\w+_backend`)."""
    return "\\S*".join(re.escape(part) for part in name.split("*"))


def mentions_name(name, strings, segments):
    """Whether one of the asserted `strings` names `name`. A path ending in
    `.py` is also named by its dotted module (`cache_dit.kernels.backend`),
    or by its segments each standing as a string or a segment of one
    (`ROOT / "kernels" / "backend.py"`)."""
    patterns = [name_pattern(name)]
    if name.endswith(".py") and "*" not in name:
        dotted_module = re.escape(name[: -len(".py")].replace("/", "."))
        patterns.append(dotted_module + "(?![A-Za-z0-9_])")
        if all(part in segments for part in name.split("/")):
            return True
    return any(re.search(pattern, text) for pattern in patterns for text in strings)


def asserted_names(module, params, context):
    """Each of `names` that no asserting test of the file names in a string:
    a finding about the whole file (line 0)."""
    strings = asserted_strings(module)
    segments = {part for text in strings for part in text.split("/") if part}
    for name in params.get("names", []):
        if not mentions_name(name, strings, segments):
            yield {"line": 0, "column": 0, "captures": {"name": name}}


class SourceLists:
    """What `setup.py` gives an extension as `sources`, evaluated as far as
    a parse allows: literals, f-strings and `+` of them, list and tuple
    displays with `*` splices, comprehensions over literals, the module's
    constants and its own functions (a `return` of a local list built by
    assignments, `+=`, `append` and `extend`, every branch taken), path
    joins (`os.path.join`, `Path / "x"`, a base it cannot evaluate, such as
    `ROOT_DIR`, being the repository root) and globs (`glob.glob`,
    `Path.glob`, `rglob`), expanded on disk. What it cannot evaluate adds
    nothing. Values are (value, node) pairs, the node giving the line."""

    def __init__(self, module, folder):
        self.module = module
        self.folder = folder
        self.functions = {}
        self.constants = {}
        for statement in module.tree.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[statement.name] = statement
            elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
                if isinstance(target, ast.Name):
                    self.constants[target.id] = statement.value
        self.active = set()

    def single(self, node, env):
        """The one value `node` evaluates to, else None."""
        values = self.values(node, env)
        return values[0][0] if values is not None and len(values) == 1 else None

    def values(self, node, env):
        """The list of (value, node) that `node` evaluates to; None when
        unknown. A scalar is a list of one."""
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)):
            return [(node.value, node)]
        if isinstance(node, ast.JoinedStr):
            return self.formatted(node, env)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            found = []
            for element in node.elts:
                inner = element.value if isinstance(element, ast.Starred) else element
                found.extend(self.values(inner, env) or [])
            return found
        if isinstance(node, ast.BinOp):
            return self.binary(node, env)
        if isinstance(node, ast.Name):
            return self.name(node.id, env)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self.comprehension(node, node.generators, env)
        if isinstance(node, ast.Call):
            return self.call(node, env)
        return None

    def formatted(self, node, env):
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                if value.format_spec is not None:
                    return None
                value = value.value
            part = self.single(value, env)
            if part is None:
                return None
            parts.append(str(part))
        return [("".join(parts), node)]

    def binary(self, node, env):
        if isinstance(node.op, ast.Div):
            left = self.single(node.left, env)
            right = self.single(node.right, env)
            if right is None:
                return None
            return [(str(right) if left is None else str(left) + "/" + str(right), node)]
        if isinstance(node.op, ast.Add):
            left, right = self.values(node.left, env), self.values(node.right, env)
            if left is None or right is None:
                return left or right
            lists = (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp, ast.Call)
            scalars = len(left) == 1 and len(right) == 1
            if scalars and not isinstance(node.left, lists) and not isinstance(node.right, lists):
                return [(str(left[0][0]) + str(right[0][0]), node)]
            return left + right
        return None

    def name(self, name, env):
        if name in env:
            return env[name]
        if name in self.constants and name not in self.active:
            self.active.add(name)
            try:
                return self.values(self.constants[name], {})
            finally:
                self.active.discard(name)
        return None

    def comprehension(self, node, generators, env):
        if not generators:
            return self.values(node.elt, env)
        generator = generators[0]
        items = self.values(generator.iter, env)
        if items is None or not isinstance(generator.target, ast.Name):
            return None
        found = []
        for item in items:
            inner = dict(env)
            inner[generator.target.id] = [item]
            found.extend(self.comprehension(node, generators[1:], inner) or [])
        return found

    def call(self, node, env):
        name = dotted(node.func) or ""
        last = last_part(name)
        arguments = [self.values(argument, env) for argument in node.args]
        if name in self.functions:
            return self.function(self.functions[name])
        if last in ("sorted", "list", "tuple", "set", "str", "fspath", "Path", "PurePath"):
            if last in ("Path", "PurePath") and len(node.args) > 1:
                return self.joined(node, node.args, env)
            return arguments[0] if arguments else None
        if name in ("os.path.join", "path.join", "join", "posixpath.join"):
            return self.joined(node, node.args, env)
        bare_glob = isinstance(node.func, ast.Name) and last in ("glob", "iglob")
        if bare_glob or name in ("glob.glob", "glob.iglob"):
            pattern = self.single(node.args[0], env) if node.args else None
            return self.expanded(pattern, node)
        if isinstance(node.func, ast.Attribute):
            return self.method(node, env)
        return None

    def method(self, node, env):
        """`base.glob(p)`, `base.rglob(p)`, and calls that keep the path
        (`relative_to`, `as_posix`, `resolve`)."""
        attribute = node.func.attr
        base = self.single(node.func.value, env)
        if attribute in ("glob", "rglob") and node.args:
            pattern = self.single(node.args[0], env)
            if pattern is None:
                return None
            if attribute == "rglob":
                pattern = "**/" + pattern
            return self.expanded(pattern if base is None else str(base) + "/" + pattern, node)
        if attribute in ("relative_to", "as_posix", "resolve", "absolute"):
            return self.values(node.func.value, env)
        return None

    def joined(self, node, arguments, env):
        parts = [self.single(argument, env) for argument in arguments]
        # An unknown base (`ROOT_DIR`) is the repository root.
        while parts and parts[0] is None:
            parts = parts[1:]
        if not parts or any(part is None for part in parts):
            return None
        return [("/".join(str(part) for part in parts), node)]

    def expanded(self, pattern, node):
        if pattern is None:
            return None
        return [(pattern, node)]

    def function(self, function):
        """The values a function of the module returns, with its local lists."""
        if function.name in self.active:
            return None
        self.active.add(function.name)
        try:
            env, found = {}, []
            for statement in all_statements(function.body):
                self.local(statement, env)
                if isinstance(statement, ast.Return) and statement.value is not None:
                    found.extend(self.values(statement.value, env) or [])
            return found
        finally:
            self.active.discard(function.name)

    def local(self, statement, env):
        """Local lists: `x = [...]`, `x += [...]`, `x.append(...)`, `x.extend(...)`."""
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                value = self.values(statement.value, env)
                env[target.id] = (env.get(target.id) or []) + (value or [])
        elif isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name):
            env[statement.target.id] = (env.get(statement.target.id) or []) + (
                self.values(statement.value, env) or []
            )
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            call = statement.value
            if (
                isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name)
                and call.func.attr in ("append", "extend")
                and call.args
            ):
                env[call.func.value.id] = (env.get(call.func.value.id) or []) + (
                    self.values(call.args[0], env) or []
                )


def source_files(sources, folder):
    """(repository-relative path, node) of each source; globs expanded on
    disk under `folder`, the repository root."""
    for value, node in sources:
        if not isinstance(value, str):
            continue
        path = value.replace("\\", "/")
        while path.startswith("./"):
            path = path[2:]
        if path.startswith(folder.rstrip("/") + "/"):
            path = path[len(folder.rstrip("/")) + 1 :]
        if any(character in path for character in "*?["):
            for match in sorted(glob.glob(os.path.join(folder, path), recursive=True)):
                yield os.path.relpath(match, folder).replace(os.sep, "/"), node
        else:
            yield path, node


EXTENSION_CONSTRUCTORS = ("CUDAExtension", "CppExtension", "Extension", "SyclExtension")


def extension_calls(module):
    """(name or None, sources node or None, call) of each extension constructed."""
    for call in module.calls():
        names = (dotted(call.func) or "", module.resolve(call.func) or "")
        if not any(last_part(name) in EXTENSION_CONSTRUCTORS for name in names):
            continue
        name = call.args[0] if call.args else None
        sources = call.args[1] if len(call.args) > 1 else None
        for keyword in call.keywords:
            if keyword.arg == "name":
                name = keyword.value
            elif keyword.arg == "sources":
                sources = keyword.value
        yield name, sources, call


def family_of(path, root):
    """The folder directly under `root` holding `path`, else None."""
    prefix = root.strip("/") + "/"
    if not path.startswith(prefix):
        return None
    family, _, rest = path[len(prefix) :].partition("/")
    return family if rest else None


def extension_sources(module, params, context):
    """Each native family (a folder under `root`) is compiled into one
    extension: its host from `extensions` (`attn=cache_dit._C_attn`), else
    the extension that compiles most of its files. Each source of a family
    compiled into another extension is a finding at the source's line."""
    folder = os.path.dirname(os.path.abspath(context.paths[module.index]))
    lists = SourceLists(module, folder)
    hosts = dict(entry.split("=", 1) for entry in params.get("extensions", []))
    compiled = []  # (family, extension, path, node)
    for name_node, sources_node, call in extension_calls(module):
        name = lists.single(name_node, {}) if name_node is not None else None
        name = str(name) if name is not None else f"the extension at line {call.lineno}"
        sources = lists.values(sources_node, {}) if sources_node is not None else None
        for path, node in source_files(sources or [], folder):
            family = family_of(path, params["root"])
            if family is not None:
                compiled.append((family, name, path, node))
    counts = {}
    for family, name, _, _ in compiled:
        counts.setdefault(family, {})
        counts[family][name] = counts[family].get(name, 0) + 1
    for family, by_extension in counts.items():
        if family not in hosts:
            hosts[family] = max(by_extension, key=lambda n: by_extension[n])
    seen = set()
    for family, name, path, node in compiled:
        if name == hosts[family] or (name, path) in seen:
            continue
        seen.add((name, path))
        others = sorted(n for n in counts[family] if n != name)
        yield record(
            node,
            file=path,
            dir=family,
            extension=name,
            host=hosts[family],
            others=", ".join(others),
        )


def parse_path(path):
    """A module read from disk, or None when it cannot be read or parsed
    (its own rules report that when it is one of their files)."""
    try:
        with open(path, "rb") as handle:
            source = handle.read()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Module(ast.parse(source, filename=path), source, -1)
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError, OSError):
        return None


class Context:
    """What tasks need beyond the file at hand: the file paths, the files
    that do not parse, and registries read once."""

    def __init__(self, paths):
        self.paths = paths
        self.unparsable = {}
        self.registries = {}

    def parse(self, index):
        try:
            with open(self.paths[index], "rb") as handle:
                source = handle.read()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return Module(ast.parse(source, filename=self.paths[index]), source, index)
        except SyntaxError as error:
            self.unparsable[index] = {
                "file": index,
                "line": error.lineno or 0,
                "column": error.offset or 0,
                "message": error.msg,
            }
        except (ValueError, UnicodeDecodeError, RecursionError, MemoryError, OSError) as error:
            self.unparsable[index] = {"file": index, "line": 0, "column": 0, "message": str(error)}
        return None

    def package_has_pointer(self, module):
        """Whether another module of `module`'s package (a file beside it,
        or a subpackage's `__init__.py`) defines a function pointer. They
        are read from disk: a rule's files are the packages' `__init__.py`."""
        folder = os.path.dirname(self.paths[module.index])
        own = os.path.abspath(self.paths[module.index])
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            return False
        for entry in entries:
            path = os.path.join(folder, entry)
            if os.path.isdir(path):
                path = os.path.join(path, "__init__.py")
            if not path.endswith(".py") or os.path.abspath(path) == own:
                continue
            sibling = parse_path(path)
            if sibling is not None and defines_pointer(sibling):
                return True
        return False

    def package_of(self, module):
        parts = self.paths[module.index].replace("\\", "/").split("/")
        return parts[-2] if len(parts) >= 2 else ""

    def registry(self, params):
        """The package names the registering function refers to; None when
        the registry file does not parse."""
        key = (params.get("file_index"), params["function"])
        if key not in self.registries:
            self.registries[key] = self.read_registry(params)
        return self.registries[key]

    def exports(self, params):
        """The `__all__` entries of the registry file; None when it does
        not parse or its `__all__` cannot be read."""
        key = ("__all__", params.get("file_index"))
        if key not in self.registries:
            self.registries[key] = self.read_exports(params)
        return self.registries[key]

    def read_exports(self, params):
        index = params.get("file_index")
        if index is None:
            return set()
        registry = self.parse(index)
        if registry is None:
            return None
        entries, found, readable = declared_all(registry)
        if found and not readable:
            return None
        exports = {name for name, _ in entries}
        # `from .op import op as op_forward` exports `op` as `op_forward`.
        for statement in registry.top_level():
            for name, alias in from_imported_names(statement):
                if name in exports:
                    exports.add(alias.name)
        return exports

    def read_registry(self, params):
        index = params.get("file_index")
        if index is None:
            return set()
        registry = self.parse(index)
        if registry is None:
            return None
        functions = [
            statement
            for statement in registry.top_level()
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
            and statement.name == params["function"]
        ]
        if not functions:
            return set()
        paths = module_paths(registry, registry.tree)
        names = names_through_calls(registry, functions[0])
        packages = set(names)
        for name in names:
            path = paths.get(name)
            if path:
                packages.update(part for part in path.split(".") if part)
        return packages


CHECKS = {
    "all-equals-public-names": all_equals_public_names,
    "asserted-names": asserted_names,
    "all-lists-public-functions": all_lists_public_functions,
    "call-string-argument": call_string_argument,
    "decorated-function-name": decorated_function_name,
    "decorator-argument": decorator_argument,
    "defines-have-fakes": defines_have_fakes,
    "exported-in": exported_in,
    "extension-sources": extension_sources,
    "forbidden-import": import_candidates,
    "forbidden-names": forbidden_names,
    "function-pointer-pattern": function_pointer_pattern,
    "guarded-import": guarded_import,
    "imports-every-package": imports_every_package,
    "module-state": module_state,
    "no-calls-in": function_calls,
    "no-partial-alias": no_partial_alias,
    "public-wrapper-calls": public_wrapper_calls,
    "raises-with-message": raise_candidates,
    "registered-in": registered_in,
    "required-names": required_names,
    "section-order": section_order,
    "test-functions": test_functions,
    "value-follows-file": string_constant,
}


# Below this many files a second process costs more than it saves.
FILES_PER_WORKER = 150

# The request, set before workers fork so that they need not be sent it.
REQUEST = {}


def check_records(module, task, context):
    return list(CHECKS[task["check"]](module, task["params"], context))


def run(indices):
    """(records per task, unparsable files) for the files `indices`, file
    by file with all tasks on each: one parse per file, one tree alive."""
    context = Context(REQUEST["files"])
    tasks = REQUEST["tasks"]
    tasks_of = {}
    for number, task in enumerate(tasks):
        for index in task["files"]:
            tasks_of.setdefault(index, []).append(number)
    records = [[] for _ in tasks]
    for index in indices:
        module = context.parse(index)
        if module is None:
            continue
        try:
            found = [(number, check_records(module, tasks[number], context))
                     for number in tasks_of[index]]
        except RecursionError:
            context.unparsable[index] = {
                "file": index, "line": 0, "column": 0, "message": "too deeply nested to check"
            }
            continue
        for number, task_records in found:
            for item in task_records:
                item["file"] = index
            records[number].extend(task_records)
    return records, context.unparsable


def run_all(indices):
    """run() over contiguous slices of `indices` in parallel when there are
    enough files, results merged in file order."""
    if hasattr(os, "sched_getaffinity"):
        cpus = len(os.sched_getaffinity(0))
    else:
        cpus = os.cpu_count() or 1
    workers = min(cpus, len(indices) // FILES_PER_WORKER)
    if workers < 2:
        return [run(indices)]
    size = -(-len(indices) // workers)
    slices = [indices[start : start + size] for start in range(0, len(indices), size)]
    with multiprocessing.get_context("fork").Pool(len(slices)) as pool:
        return pool.map(run, slices)


def main():
    # Parse trees hold no reference cycles and the process is short-lived:
    # without the cyclic collector rescanning them, parsing is about three
    # times faster.
    gc.disable()
    REQUEST.update(json.load(sys.stdin))
    tasks = REQUEST["tasks"]
    indices = sorted({index for task in tasks for index in task["files"]})
    records = [[] for _ in tasks]
    unparsable = {}
    for part_records, part_unparsable in run_all(indices):
        for number, found in enumerate(part_records):
            records[number].extend(found)
        unparsable.update(part_unparsable)
    answer = {
        "results": [
            {"rule": task["rule"], "records": found} for task, found in zip(tasks, records)
        ],
        "unparsable": [unparsable[index] for index in sorted(unparsable)],
    }
    # dumps, not dump: only the one-shot encoder is the C one.
    sys.stdout.write(json.dumps(answer, separators=(",", ":")))


if __name__ == "__main__":
    main()
