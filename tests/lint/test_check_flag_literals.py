"""Tests of check_flag_literals.py on small trees written here."""

import pathlib
import tempfile
import unittest

import check_flag_literals as lint

DRIVER = """
Sub->add_option("--source", O.SourceRoot, "root of the upstream tree");
Sub->add_flag("-q,--quiet", Quiet, "no progress");
"""


class FlagLiteralsTest(unittest.TestCase):
    def tree(self, library_source: str) -> pathlib.Path:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        root = pathlib.Path(folder.name)
        (root / "tools/opmig").mkdir(parents=True)
        (root / "tools/opmig/Command.cpp").write_text(DRIVER)
        (root / "analyzers/lib").mkdir(parents=True)
        (root / "analyzers/lib/Planted.cpp").write_text(library_source)
        return root

    def found(self, library_source: str) -> list:
        root = self.tree(library_source)
        return list(lint.violations(root, lint.driver_flags(root)))

    def test_flags_come_from_the_driver(self):
        root = self.tree("")
        self.assertEqual(lint.driver_flags(root), {"--help", "--quiet", "--source"})

    def test_a_message_naming_a_flag_fails(self):
        found = self.found('return inputError("--source \'", Root, "\' is missing");\n')
        self.assertEqual(
            found, ['analyzers/lib/Planted.cpp:1: names the flag --source: "--source \'"']
        )

    def test_the_flag_is_found_anywhere_in_a_literal_on_any_line(self):
        found = self.found('int a;\nauto M = "x" "pass --quiet to silence it";\n')
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("analyzers/lib/Planted.cpp:2: names the flag --quiet"))

    def test_raw_strings_are_read(self):
        self.assertEqual(len(self.found('auto Script = R"py(run("--source"))py";\n')), 1)

    def test_comments_char_literals_and_other_flags_pass(self):
        source = (
            "// opmig analyze --source DIR\n"
            "/* --quiet */\n"
            "char Quote = '\"'; int N = 1'000;\n"
            'Args.push_back("--sources"); Args.push_back("--cuda-source=x");\n'
            'Args.push_back("--");\n'
        )
        self.assertEqual(self.found(source), [])

    def test_a_listed_tool_argument_passes_and_nothing_else_there(self):
        root = self.tree('Flags.push_back("--source=" + Dir);\nFail("pass --source");\n')
        key = ("analyzers/lib/Planted.cpp", "--source=")
        lint.TOOL_ARGUMENTS[key] = "a tool's own option"
        self.addCleanup(lint.TOOL_ARGUMENTS.pop, key)
        found = list(lint.violations(root, lint.driver_flags(root)))
        self.assertEqual(
            found, ["analyzers/lib/Planted.cpp:2: names the flag --source: 'pass --source'"]
        )


if __name__ == "__main__":
    unittest.main()
