"""migrators/python/anchors.py: where `opmig migrate` places a generated block
in a Python file (PythonAnchors.cpp reads `found`, `why`, `line`, `indent`,
`split`, `comma`, `close_indent`, `names` and `executable`)."""

import sys
import textwrap
import unittest

from helper_loader import load, run_embedded

SCRIPT = "migrators/python/anchors.py"
anchors = load(SCRIPT, "anchors")


def locate(text, anchor):
    return anchors.locate(textwrap.dedent(text).encode(), anchor)


class AfterImportsTest(unittest.TestCase):
    def test_goes_after_the_last_top_level_import(self):
        answer = locate(
            """\
            import os
            from typing import (
                List,
            )

            def f():
                import json
            """,
            "after-imports",
        )
        self.assertEqual(answer, {"found": True, "line": 5, "indent": ""})

    def test_a_file_without_imports_has_no_anchor(self):
        answer = locate("x = 1\n", "after-imports")
        self.assertEqual(answer, {"found": False, "why": "no top-level import statement"})


class ListTest(unittest.TestCase):
    def test_multiline_list_with_trailing_comma_needs_no_edit(self):
        answer = locate(
            """\
            SOURCES = [
                "a.cu",
                "b.cu",
            ]
            """,
            "list:SOURCES",
        )
        self.assertEqual(answer["line"], 4)
        self.assertEqual(answer["indent"], "    ")
        self.assertIsNone(answer["split"])
        self.assertIsNone(answer["comma"])

    def test_missing_comma_goes_after_the_last_element(self):
        answer = locate(
            """\
            SOURCES = [
                "a.cu",
                "b.cu"  # last
            ]
            """,
            "list:SOURCES",
        )
        # Line 3, after the 10 bytes of `    "b.cu"`, not after the comment.
        self.assertEqual(answer["comma"], [3, 10])
        self.assertIsNone(answer["split"])

    def test_comma_follows_the_parentheses_of_the_last_element(self):
        answer = locate(
            """\
            EXTS = [
                ("a", "b")
            ]
            """,
            "list:EXTS",
        )
        self.assertEqual(answer["comma"], [2, 14])

    def test_bracket_sharing_its_line_is_split_off(self):
        answer = locate('NAMES = ["x", "y"]\n', "list:NAMES")
        self.assertEqual(answer["split"], [1, 17])
        # The block goes on the line the split creates.
        self.assertEqual(answer["line"], 2)
        self.assertEqual(answer["indent"], "    ")
        self.assertEqual(answer["close_indent"], "")
        self.assertEqual(answer["comma"], [1, 17])

    def test_annotated_assignment_and_patterns(self):
        answer = locate(
            """\
            _CUDA_SOURCES: list = [
                "a.cu",
            ]
            """,
            "list:_*_SOURCES",
        )
        self.assertTrue(answer["found"])
        self.assertEqual(answer["line"], 3)

    def test_the_last_assignment_of_the_name_wins(self):
        answer = locate(
            """\
            NAMES = []
            NAMES = [
                "a",
            ]
            """,
            "list:NAMES",
        )
        self.assertEqual(answer["line"], 4)

    def test_tuple_without_parentheses_is_refused(self):
        answer = locate("NAMES = 'a', 'b'\n", "list:NAMES")
        self.assertEqual(
            answer, {"found": False, "why": "the tuple assigned to 'NAMES' has no parentheses"}
        )

    def test_a_name_bound_to_something_else_is_not_found(self):
        answer = locate("NAMES = make_names()\n", "list:NAMES")
        self.assertFalse(answer["found"])
        self.assertIn("'NAMES'", answer["why"])


class FunctionAnchorsTest(unittest.TestCase):
    SOURCE = """\
        def _get_ops():
            ops = ["a"]
            return [
                "b",
                "c",
            ]


        def register():
            setup_a()
            return True


        def configure():
            x = 1
            y = 2
        """

    def test_function_list_takes_the_last_list_of_the_body(self):
        answer = locate(self.SOURCE, "function-list:_get_*")
        self.assertEqual(answer["line"], 6)
        self.assertEqual(answer["indent"], "        ")
        self.assertEqual(answer["close_indent"], "    ")

    def test_function_end_goes_before_a_final_return(self):
        answer = locate(self.SOURCE, "function-end:register")
        self.assertEqual(answer, {"found": True, "line": 11, "indent": "    "})

    def test_function_end_goes_after_the_last_statement(self):
        answer = locate(self.SOURCE, "function-end:configure")
        self.assertEqual(answer, {"found": True, "line": 17, "indent": "    "})

    def test_a_body_on_the_def_line_has_no_end_to_place_a_block_at(self):
        answer = locate("def f(): return 1\n", "function-end:f")
        self.assertEqual(answer, {"found": False, "why": "the body of 'f' is on its def line"})

    def test_missing_function(self):
        answer = locate(self.SOURCE, "function-list:nothing")
        self.assertEqual(answer, {"found": False, "why": "no top-level function 'nothing'"})

    def test_function_without_a_list(self):
        answer = locate(self.SOURCE, "function-list:configure")
        self.assertEqual(
            answer, {"found": False, "why": "function 'configure' contains no list literal"}
        )


class BeforeDefTest(unittest.TestCase):
    def test_goes_above_decorators_and_the_comments_of_the_def(self):
        answer = locate(
            """\
            import torch

            # Registers the op.
            # Second line of the comment.
            @torch.library.custom_op("ns::op")
            def op(x):
                return x
            """,
            "before-def:op",
        )
        self.assertEqual(answer, {"found": True, "line": 3, "indent": ""})

    def test_stops_at_block_markers_and_the_shebang(self):
        answer = locate(
            """\
            #!/usr/bin/env python3
            # >>> opmig attn:import
            # <<< opmig attn:import
            class Op:
                pass
            """,
            "before-def:Op",
        )
        self.assertEqual(answer["line"], 4)

    def test_missing_def(self):
        answer = locate("x = 1\n", "before-def:Op")
        self.assertEqual(answer, {"found": False, "why": "no top-level def or class 'Op'"})


class CallAnchorsTest(unittest.TestCase):
    SETUP = """\
        from setuptools import setup

        if __name__ == "__main__":
            # Build it.
            dist = setup(
                name="pkg",
                ext_modules=[ext()]
            )
        """

    def test_before_call_finds_a_call_inside_a_main_guard(self):
        answer = locate(self.SETUP, "before-call:setup")
        self.assertEqual(answer, {"found": True, "line": 4, "indent": "    "})

    def test_call_end_goes_after_the_last_argument(self):
        answer = locate(self.SETUP, "call-end:setup")
        self.assertEqual(answer["line"], 8)
        self.assertEqual(answer["indent"], "        ")
        # `ext_modules=[ext()]` has no trailing comma.
        self.assertEqual(answer["comma"], [7, 27])

    def test_missing_call(self):
        answer = locate("print(1)\n", "before-call:setup")
        self.assertEqual(answer, {"found": False, "why": "no top-level statement calls 'setup'"})


class CollectionTest(unittest.TestCase):
    def test_first_literal_holding_a_matching_call(self):
        answer = locate(
            """\
            exts = [
                _get_attn_extension(),
                _get_comm_extension(),
            ]
            """,
            "collection:_get_*_extension",
        )
        self.assertEqual(answer["line"], 4)
        self.assertIsNone(answer["comma"])

    def test_list_with_a_string_inside_a_tuple_element(self):
        answer = locate(
            """\
            CASES = [
                ("attn", 1),
            ]
            """,
            "list-with:att*",
        )
        self.assertTrue(answer["found"])
        self.assertEqual(answer["line"], 3)

    def test_no_literal_holds_the_text(self):
        answer = locate("CASES = ['x']\n", "list-with:attn")
        self.assertEqual(
            answer, {"found": False, "why": "no list or tuple holds a string matching 'attn'"}
        )


class PublicNamesTest(unittest.TestCase):
    def test_module_level_public_names_in_order(self):
        answer = locate(
            """\
            import os.path
            from x import y as z, _hidden
            from w import *

            def f(): pass

            class C: pass

            N = 1
            M: int = 2
            N += 1
            _private = 3

            def _helper(): pass
            """,
            "public-names",
        )
        self.assertEqual(answer, {"names": ["os", "z", "f", "C", "N", "M"]})


class ErrorsTest(unittest.TestCase):
    def test_a_syntax_error_names_its_line(self):
        answer = locate("x = 1\ndef (\n", "after-imports")
        self.assertEqual(set(answer), {"error"})
        self.assertTrue(answer["error"].startswith("line 2: "), answer)

    def test_unknown_anchor(self):
        answer = locate("x = 1\n", "bogus:x")
        self.assertEqual(answer, {"error": "unknown anchor 'python:bogus:x'"})

    def test_null_bytes_are_an_error_not_a_crash(self):
        answer = anchors.locate(b"x = 1\0\n", "after-imports")
        self.assertIn("error", answer)


class EmbeddedRunTest(unittest.TestCase):
    """The helper as opmig runs it: isolated, without site packages, the
    file on stdin, one JSON object on stdout naming the interpreter."""

    def test_answer_names_the_interpreter(self):
        answer = run_embedded(SCRIPT, ["after-imports"], b"import os\n")
        self.assertEqual(answer["found"], True)
        self.assertEqual(answer["line"], 2)
        self.assertTrue(answer["executable"])

    def test_public_names_of_non_ascii_source(self):
        source = "NAME = 'é'\ndef café(): pass\n".encode()
        answer = run_embedded(SCRIPT, ["public-names"], source)
        self.assertEqual(answer["names"], ["NAME", "café"])
        self.assertEqual(answer["executable"], sys.executable)


if __name__ == "__main__":
    unittest.main()
