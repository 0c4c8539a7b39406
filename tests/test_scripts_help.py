"""Every file in benchmarks/ and tools/ (and the fixture builders) is a script that answers `--help`
and does nothing else, or a module that says it is not a script.

Each script runs as `python -m NAME --help` in a process of its own, from an empty folder with the
repository on PYTHONPATH (no sys.path edits needed) and a cache folder of its own: it must print its
usage, exit 0, and leave the folder, the cache and the repository as they were. The processes run
side by side, a few at a time."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("benchmarks", "tools")
ALSO = ("kg_mock/fixture.py", "data/make_sample.py")
# sys.path edits that are a script's work, not a way to find the repository.
OWN_SYS_PATH = {"benchmarks/kg_reference.py"}  # puts another commit's tree first, by its TREE argument
SKIPPED_IN_SNAPSHOT = {
    ".git", ".venv", ".venv-t4x4", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
}  # fmt: skip


def _files() -> list[Path]:
    found = [path for folder in FOLDERS for path in sorted((REPO_ROOT / folder).rglob("*.py"))]
    return [path for path in found if path.name != "__init__.py"] + [REPO_ROOT / name for name in ALSO]


def _is_script(path: Path) -> bool:
    return path.name == "__main__.py" or 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")


def _module(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__main__" else parts)


SCRIPTS = [_module(path) for path in _files() if _is_script(path)]
MODULES = [path for path in _files() if not _is_script(path)]


def _snapshot(root: Path) -> set[str]:
    paths = set()
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED_IN_SNAPSHOT]
        paths.update(os.path.relpath(os.path.join(folder, name), root) for name in files + subfolders)
    return paths


@pytest.fixture(scope="module")
def help_runs(tmp_path_factory):
    before = _snapshot(REPO_ROOT)

    def run(module: str):
        folder = tmp_path_factory.mktemp(module.replace(".", "_"))
        environment = os.environ | {"PYTHONPATH": str(REPO_ROOT), "CRAG_CACHE_DIR": str(folder / "cache")}
        done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=folder, env=environment,
                              capture_output=True, text=True, timeout=300)  # fmt: skip
        return module, (done, sorted(os.listdir(folder)))

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        runs = dict(pool.map(run, SCRIPTS))
    return runs, before, _snapshot(REPO_ROOT)


def test_the_scripts_are_found():
    assert {"benchmarks.end_to_end", "tools.validate", "tools.attributes", "kg_mock.fixture"} <= set(SCRIPTS)
    assert len(SCRIPTS) >= 20


@pytest.mark.parametrize("module", SCRIPTS)
def test_a_script_answers_help_and_does_nothing_else(help_runs, module):
    runs, _, _ = help_runs
    done, left_behind = runs[module]
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage:") and "Traceback" not in done.stderr
    assert left_behind == [], f"{module} --help wrote {left_behind} (its cache folder, or into its folder)"


def test_no_script_changes_the_repository(help_runs):
    _, before, after = help_runs
    assert after - before == set() and before - after == set()


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_a_module_that_is_not_a_script_says_so(path):
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert "Not a script" in docstring, f"{path}: a script has a __main__ guard; a module says 'Not a script'"


@pytest.mark.parametrize("path", _files(), ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_no_file_edits_sys_path_to_find_the_repository(path):
    relative = str(path.relative_to(REPO_ROOT))
    assert relative in OWN_SYS_PATH or "sys.path" not in path.read_text(encoding="utf-8")
