"""engine/ is the pure core: standard library only, no hardware, no vision, no file I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
ALLOWED_STDLIB = set(sys.stdlib_module_names) - {
    "io", "os", "pathlib", "shutil", "socket", "subprocess", "tempfile", "threading", "time",
}
FORBIDDEN_CALLS = {"open", "print", "input"}


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    for source in ENGINE.glob("*.py"):
        tree = ast.parse(source.read_text(), str(source))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top == "engine" or top in ALLOWED_STDLIB or top == "__future__", (
                    f"{source.name} imports {name}"
                )


def test_engine_does_no_file_or_console_io() -> None:
    for source in ENGINE.glob("*.py"):
        tree = ast.parse(source.read_text(), str(source))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{source.name} calls {node.func.id}()"
