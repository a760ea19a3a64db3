"""Finds where `opmig migrate` places a generated block in a Python file.

opmig embeds this script and runs it as `python3 -I -S SCRIPT ANCHOR`
with the file on stdin (standard library only, so no site packages). ANCHOR is
the part of a profile anchor after `python:`: `after-imports`, `list:NAME`,
`function-list:FUNC`, `function-end:FUNC`, `before-def:NAME`,
`before-call:NAME`, `call-end:NAME`, `collection:NAME` or `list-with:TEXT`.
NAME and TEXT are shell-style patterns (`_get_*_extension`). The answer is
one JSON object:

  {"error": "..."}                the file does not parse
  {"found": false, "why": "..."}  the anchor is not in the file
  {"found": true, "line": L, "indent": "..."}
                                  the block goes before line L (1-based;
                                  one past the last line means the end)

List anchors add the edits to make before inserting (lines 1-based,
columns 0-based UTF-8 bytes, as `ast` counts them):

  "split": [line, col] or null    the closing bracket shares its line with
                                  other code: break the line at col and
                                  indent the bracket with "close_indent"
                                  ("line" already counts the new line)
  "comma": [line, col] or null    the last element has no trailing comma:
                                  insert one at col

ANCHOR `public-names` asks instead for the module's public names (bound at
module level, not starting with `_`): {"names": [...]}.

Every answer also names the interpreter ("executable"), so that opmig can
run it directly next time instead of a launcher shim found on PATH.
"""

import ast
import fnmatch
import json
import sys

MARKERS = (b"# >>> opmig ", b"# <<< opmig ")


def indentation(line):
    return line[: len(line) - len(line.lstrip(b" \t"))]


def found(line, indent, **extra):
    return {"found": True, "line": line, "indent": indent.decode(), **extra}


def not_found(why):
    return {"found": False, "why": why}


def matches(name, pattern):
    return fnmatch.fnmatchcase(name, pattern)


def top_level_function(tree, name):
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and matches(node.name, name):
            return node
    return None


def top_level_statements(tree):
    """Module-level statements, and those of module-level `if` blocks (an
    `if __name__ == "__main__":` that holds the `setup(...)` call)."""
    for node in tree.body:
        yield node
        if isinstance(node, ast.If):
            yield from node.body


def ordered(nodes):
    return sorted(nodes, key=lambda node: (node.lineno, node.col_offset))


def start_with_comments(lines, start):
    """Moves `start` up over the comment lines right above it, which belong
    to the statement, but not over a shebang, an encoding line or a block
    marker."""
    while start > 1:
        above = lines[start - 2].strip()
        keeps = above.startswith(b"#!") or (start <= 3 and b"coding" in above)
        if not above.startswith(b"#") or above.startswith(MARKERS) or keeps:
            break
        start -= 1
    return start


def comma_position(lines, last, close_line, close_col):
    """Where a comma must go after `last`, the last element of a list that
    closes at (close_line, close_col), or None when it has one. Between the
    two there can only be blanks, comments, a comma and the closing
    parentheses of a parenthesized element, which the comma must follow."""
    insert = [last.end_lineno, last.end_col_offset]
    line, col = last.end_lineno, last.end_col_offset
    while line <= close_line:
        text = lines[line - 1]
        end = close_col if line == close_line else len(text)
        for i in range(col, end):
            char = text[i : i + 1]
            if char == b"#":
                break
            if char == b",":
                return None
            if char == b")":
                insert = [line, i + 1]
        line, col = line + 1, 0
    return insert


def inside_list(node, lines, elements=None):
    """After the last of `elements` (the list's own by default), before the
    closing bracket that ends `node`."""
    elements = node.elts if elements is None else elements
    close_line, close_col = node.end_lineno, node.end_col_offset - 1
    close_indent = indentation(lines[node.lineno - 1])
    if elements and elements[0].lineno > node.lineno:
        indent = indentation(lines[elements[0].lineno - 1])
    else:
        indent = close_indent + b"    "
    split = None
    line = close_line
    if lines[close_line - 1][:close_col].strip():
        split = [close_line, close_col]
        line += 1
    comma = comma_position(lines, elements[-1], close_line, close_col) if elements else None
    return found(line, indent, split=split, comma=comma, close_indent=close_indent.decode())


def bracketed(node, lines):
    text = lines[node.lineno - 1]
    return text[node.col_offset : node.col_offset + 1] in (b"[", b"(")


def anchor_list(tree, lines, name):
    chosen = None
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            continue
        named = any(isinstance(t, ast.Name) and matches(t.id, name) for t in targets)
        if named and isinstance(node.value, (ast.List, ast.Tuple)):
            chosen = node.value
    if chosen is None:
        return not_found(f"no module-level list or tuple literal is assigned to '{name}'")
    if not bracketed(chosen, lines):
        return not_found(f"the tuple assigned to '{name}' has no parentheses")
    return inside_list(chosen, lines)


def outer_lists(node):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.List):
            yield child
        else:
            yield from outer_lists(child)


def anchor_function_list(tree, lines, name):
    function = top_level_function(tree, name)
    if function is None:
        return not_found(f"no top-level function '{name}'")
    lists = [node for statement in function.body for node in outer_lists(statement)]
    if not lists:
        return not_found(f"function '{name}' contains no list literal")
    return inside_list(max(lists, key=lambda node: (node.lineno, node.col_offset)), lines)


def anchor_function_end(tree, lines, name):
    function = top_level_function(tree, name)
    if function is None:
        return not_found(f"no top-level function '{name}'")
    first, last = function.body[0], function.body[-1]
    if first.lineno == function.lineno:
        return not_found(f"the body of '{name}' is on its def line")
    indent = indentation(lines[first.lineno - 1])
    # Code after a final return would never run: the block goes before it.
    if isinstance(last, ast.Return):
        return found(last.lineno, indent)
    return found(last.end_lineno + 1, indent)


def anchor_before_def(tree, lines, name):
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for node in tree.body:
        if isinstance(node, kinds) and matches(node.name, name):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            return found(start_with_comments(lines, start), b"")
    return not_found(f"no top-level def or class '{name}'")


def callee_name(call):
    callee = call.func
    if isinstance(callee, ast.Name):
        return callee.id
    return callee.attr if isinstance(callee, ast.Attribute) else ""


def is_call_to(node, name):
    return isinstance(node, ast.Call) and matches(callee_name(node), name)


def statement_call(node, name):
    """The call to `name` that statement `node` is, or assigns: `setup(...)`,
    `dist = setup(...)`."""
    if isinstance(node, (ast.Expr, ast.Assign)) and is_call_to(node.value, name):
        return node.value
    return None


def anchor_before_call(tree, lines, name):
    for node in top_level_statements(tree):
        if statement_call(node, name):
            indent = indentation(lines[node.lineno - 1])
            return found(start_with_comments(lines, node.lineno), indent)
    return not_found(f"no top-level statement calls '{name}'")


def anchor_call_end(tree, lines, name):
    for node in top_level_statements(tree):
        call = statement_call(node, name)
        if call:
            return inside_list(call, lines, ordered(call.args + call.keywords))
    return not_found(f"no top-level statement calls '{name}'")


def literals(tree):
    kinds = (ast.List, ast.Tuple, ast.Set)
    return ordered(node for node in ast.walk(tree) if isinstance(node, kinds))


def anchor_collection(tree, lines, name):
    """The first list, tuple or set literal with a call to `name` among its
    elements: where a setup.py collects its `_get_<ext>_extension()`s,
    whatever holds them (a list, a tuple in a comprehension, filter())."""
    for node in literals(tree):
        if any(is_call_to(element, name) for element in node.elts) and bracketed(node, lines):
            return inside_list(node, lines)
    return not_found(f"no list or tuple holds a call to '{name}'")


def holds_text(element, text):
    if isinstance(element, ast.Constant) and isinstance(element.value, str):
        return matches(element.value, text)
    return isinstance(element, ast.Tuple) and any(holds_text(e, text) for e in element.elts)


def anchor_list_with(tree, lines, text):
    """The first list or tuple literal with a string matching `text` among
    its elements (or their tuples): the names a test keeps, wherever."""
    for node in literals(tree):
        if any(holds_text(element, text) for element in node.elts) and bracketed(node, lines):
            return inside_list(node, lines)
    return not_found(f"no list or tuple holds a string matching '{text}'")


def anchor_after_imports(tree, lines, _):
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    if not imports:
        return not_found("no top-level import statement")
    return found(imports[-1].end_lineno + 1, b"")


def bound_names(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    targets = node.targets if isinstance(node, ast.Assign) else []
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    return [t.id for t in targets if isinstance(t, ast.Name)]


def public_names(tree):
    names = []
    for node in tree.body:
        for name in bound_names(node):
            if not name.startswith("_") and name != "*" and name not in names:
                names.append(name)
    return {"names": names}


ANCHORS = {
    "after-imports": anchor_after_imports,
    "list": anchor_list,
    "function-list": anchor_function_list,
    "function-end": anchor_function_end,
    "before-def": anchor_before_def,
    "before-call": anchor_before_call,
    "call-end": anchor_call_end,
    "collection": anchor_collection,
    "list-with": anchor_list_with,
}


def locate(source, anchor):
    kind, _, name = anchor.partition(":")
    if kind not in ANCHORS and anchor != "public-names":
        return {"error": f"unknown anchor 'python:{anchor}'"}
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None)
        return {"error": f"line {line}: {error.msg}" if line else str(error)}
    if anchor == "public-names":
        return public_names(tree)
    return ANCHORS[kind](tree, source.split(b"\n"), name)


def main():
    answer = locate(sys.stdin.buffer.read(), sys.argv[1])
    print(json.dumps({**answer, "executable": sys.executable}))


if __name__ == "__main__":
    main()
