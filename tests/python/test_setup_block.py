"""validators/python/setup_block.py: what a cache-dit setup.py block declares
(SetupBlock.cpp reads `name`, `sources`, `include_dirs`, `cxx`, `nvcc` or
`error`)."""

import textwrap
import unittest

from helper_loader import load, run_embedded

SCRIPT = "validators/python/setup_block.py"
setup_block = load(SCRIPT, "setup_block")

BLOCK = textwrap.dedent(
    '''\
    def _required_attn_sources() -> list[str]:
        return [
            "csrc/kernels/attn/attn.cpp",
            "csrc/kernels/attn/merge.cu",
        ]


    def _attn_gencode_flags() -> list[str]:
        raw = os.environ.get("CACHE_DIT_CUDA_ARCH_LIST")
        return [f"-gencode=arch=compute_{raw},code=sm_{raw}"]


    def _get_attn_extension():
        if os.environ.get("CACHE_DIT_BUILD_ATTN", "0") != "1":
            return None
        from torch.utils.cpp_extension import CUDAExtension

        root = os.path.dirname(os.path.abspath(__file__))
        flags = ["-O3", "-std=c++20", "-DATTN=1", ]
        return CUDAExtension(
            name="cache_dit._C_attn",
            sources=_required_attn_sources(),
            include_dirs=[os.path.join(root, d) for d in ("csrc/kernels", "csrc/third_party/x", )],
            extra_compile_args={"cxx": flags, "nvcc": [*flags, "--expt-relaxed-constexpr",
                                                       *_attn_gencode_flags()]},
        )
    '''
)


class DeclarationTest(unittest.TestCase):
    def test_the_extension_call_is_evaluated_through_the_blocks_helpers(self):
        answer = setup_block.declaration(BLOCK, "attn")
        self.assertEqual(
            answer,
            {
                "name": "cache_dit._C_attn",
                "sources": ["csrc/kernels/attn/attn.cpp", "csrc/kernels/attn/merge.cu"],
                "include_dirs": ["csrc/kernels", "csrc/third_party/x"],
                "cxx": ["-O3", "-std=c++20", "-DATTN=1"],
                "nvcc": ["-O3", "-std=c++20", "-DATTN=1", "--expt-relaxed-constexpr", "{gencode}"],
            },
        )

    def test_a_module_level_root_joins_like_the_local_one(self):
        block = textwrap.dedent(
            """\
            def _get_comm_extension():
                return CUDAExtension(
                    name="cache_dit._C_comm",
                    sources=["csrc/kernels/comm/comm.cu"],
                    include_dirs=[os.path.join(ROOT, "csrc", "kernels")],
                    extra_compile_args={"nvcc": ["-O3"]},
                )
            """
        )
        answer = setup_block.declaration(block, "comm")
        self.assertEqual(answer["include_dirs"], ["csrc/kernels"])
        self.assertEqual(answer["cxx"], [])

    def test_a_path_outside_the_root_is_refused(self):
        block = BLOCK.replace("os.path.join(root, d)", "os.path.join('/opt', d)")
        with self.assertRaises(setup_block.Unsupported) as caught:
            setup_block.declaration(block, "attn")
        self.assertIn("not below the repository root", str(caught.exception))

    def test_a_block_without_the_getter_says_so(self):
        self.assertEqual(
            setup_block.declaration("x = 1\n", "attn"),
            {"error": "the block defines no _get_attn_extension()"},
        )


class EmbeddedTest(unittest.TestCase):
    def test_runs_as_opmig_runs_it(self):
        answer = run_embedded(SCRIPT, ["attn"], BLOCK.encode())
        self.assertEqual(answer["name"], "cache_dit._C_attn")

    def test_a_syntax_error_is_an_answer_with_its_line(self):
        answer = run_embedded(SCRIPT, ["attn"], b"def _get_attn_extension(:\n")
        self.assertTrue(answer["error"].startswith("line 1: "), answer)


if __name__ == "__main__":
    unittest.main()
