# SPDX-License-Identifier: MIT
"""Tests of tools/amalgamate.py on small synthetic include trees (ctest amalgamate_script)."""

import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import amalgamate  # noqa: E402

CONFIG = (
    "#pragma once\n"
    "#define ONNXMICRO_VERSION_MAJOR 3\n#define ONNXMICRO_VERSION_MINOR 4\n#define ONNXMICRO_VERSION_PATCH 5\n"
)


class AmalgamateTree(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = Path(self._tmp.name)
        self.write("onnxmicro/core/config.hpp", CONFIG)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, path, text):
        file = self.root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")

    def lines(self):
        return amalgamate.amalgamate(self.root).splitlines()

    def test_inlines_each_header_once_in_dependency_order_with_breadcrumbs(self):
        self.write(
            "onnxmicro/onnxmicro.hpp",
            '// SPDX-License-Identifier: MIT\n#pragma once\n#include "onnxmicro/b.hpp"\n#include "onnxmicro/a.hpp"\n',
        )
        self.write("onnxmicro/a.hpp", "// SPDX-License-Identifier: MIT\n#pragma once\nint a;\n")
        self.write("onnxmicro/b.hpp", '#pragma once\n#include "onnxmicro/a.hpp"\nint b = a;\n')
        lines = self.lines()
        self.assertEqual(lines.count("#pragma once"), 1)
        self.assertEqual(lines.index("#pragma once"), 6, "pragma once belongs right after the banner")
        self.assertEqual(lines.count("int a;"), 1)
        self.assertLess(lines.index("int a;"), lines.index("int b = a;"))
        self.assertEqual(lines.count('// #include "onnxmicro/a.hpp"'), 1)
        begin = lines.index("// begin of file onnxmicro/a.hpp")
        self.assertEqual(lines[begin - 1], '// #include "onnxmicro/a.hpp"')
        self.assertEqual(lines[begin + 1], "int a;")
        self.assertEqual(lines[begin + 2], "// end of file onnxmicro/a.hpp")
        self.assertEqual(lines.count("// SPDX-License-Identifier: MIT"), 1)
        self.assertIn("3.4.5", lines[1])
        self.assertIn("DO NOT EDIT", "\n".join(lines[:6]))

    def test_system_includes_keep_order_and_drop_only_unconditional_repeats(self):
        self.write(
            "onnxmicro/onnxmicro.hpp",
            "#pragma once\n#include <cstdint>\n#if X\n#include <cstdlib>\n#endif\n"
            '#include "onnxmicro/a.hpp"\n',
        )
        self.write("onnxmicro/a.hpp", "#pragma once\n#include <cstdint>\n#include <cstdlib>\n#include <new>\n")
        lines = self.lines()
        self.assertEqual(lines.count("#include <cstdint>"), 1)
        self.assertEqual(lines.count("#include <cstdlib>"), 2, "the first <cstdlib> is conditional")
        self.assertLess(lines.index("#include <cstdint>"), lines.index("#include <new>"))

    def test_header_first_reached_inside_if_is_guarded_and_available_later(self):
        self.write(
            "onnxmicro/onnxmicro.hpp",
            '#pragma once\n#if FEATURE\n#include "onnxmicro/a.hpp"\n#endif\n#include "onnxmicro/a.hpp"\n'
            '#include "onnxmicro/a.hpp"\n',
        )
        self.write("onnxmicro/a.hpp", "#pragma once\nint a;\n")
        text = amalgamate.amalgamate(self.root)
        self.assertEqual(text.count("int a;"), 2, "inlined under the #if and once more unconditionally")
        self.assertEqual(text.count("#ifndef ONNXMICRO_SINGLE_INCLUDE_ONNXMICRO_A_HPP"), 2)
        # The amalgamation must be valid C++ whether FEATURE is set or not (no redefinition of `a`).
        for defines in ([], ["-DFEATURE=1"]):
            source = self.root / "check.cpp"
            source.write_text(text, encoding="utf-8")
            result = subprocess.run(
                ["c++", "-std=c++17", "-fsyntax-only", "-Wno-pragma-once-outside-header", *defines, str(source)],
                capture_output=True,
                text=True,
            )
            self.assertEqual(result.returncode, 0, result.stderr)

    def test_missing_header_and_cycle_are_errors(self):
        self.write("onnxmicro/onnxmicro.hpp", '#pragma once\n#include "onnxmicro/missing.hpp"\n')
        with self.assertRaisesRegex(amalgamate.AmalgamationError, "missing.hpp"):
            amalgamate.amalgamate(self.root)
        self.write("onnxmicro/onnxmicro.hpp", '#pragma once\n#include "onnxmicro/a.hpp"\n')
        self.write("onnxmicro/a.hpp", '#pragma once\n#include "onnxmicro/b.hpp"\n')
        self.write("onnxmicro/b.hpp", '#pragma once\n#include "onnxmicro/a.hpp"\n')
        with self.assertRaisesRegex(amalgamate.AmalgamationError, "cycle"):
            amalgamate.amalgamate(self.root)


class AmalgamateCommandLine(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run(
            [sys.executable, str(REPO_ROOT / "tools" / "amalgamate.py"), *args], capture_output=True, text=True
        )

    def test_check_fails_with_hint_on_stale_file_and_passes_on_fresh_one(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "onnxmicro.hpp"
            self.assertEqual(self.run_script("--output", str(out)).returncode, 0)
            self.assertEqual(self.run_script("--check", "--output", str(out)).returncode, 0)
            out.write_text(out.read_text(encoding="utf-8") + "// edited by hand\n", encoding="utf-8")
            stale = self.run_script("--check", "--output", str(out))
            self.assertEqual(stale.returncode, 1)
            self.assertIn("python3 tools/amalgamate.py", stale.stderr)
            self.assertIn("edited by hand", stale.stdout, "the diff shows what differs")

    def test_stub_dir_maps_every_inlined_header_to_the_single_header(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            single = root / "onnxmicro" / "onnxmicro.hpp"
            result = self.run_script("--output", str(single), "--stub-dir", str(root))
            self.assertEqual(result.returncode, 0, result.stderr)
            stub = root / "onnxmicro" / "core" / "status.hpp"
            self.assertIn('#include "onnxmicro/onnxmicro.hpp"', stub.read_text(encoding="utf-8"))
            self.assertIn("// SPDX-License-Identifier: MIT\n// onnxmicro", single.read_text(encoding="utf-8"))
            # An internal header, included alone, compiles against the single header (include/ is not on the path).
            source = root / "internal.cpp"
            source.write_text('#include "onnxmicro/core/status.hpp"\nonnxmicro::Status s;\n', encoding="utf-8")
            compiled = subprocess.run(
                ["c++", "-std=c++17", "-fsyntax-only", "-I", str(root), str(source)], capture_output=True, text=True
            )
            self.assertEqual(compiled.returncode, 0, compiled.stderr)

    def test_help_documents_output_and_check(self):
        result = self.run_script("--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("--output", result.stdout)
        self.assertIn("--check", result.stdout)
        self.assertIn("--stub-dir", result.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
