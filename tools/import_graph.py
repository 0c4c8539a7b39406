"""The submission's import graph, read from the source (nothing is imported or run).

    python -m tools.import_graph            # every module UserModel reaches, with what it imports

Starts at `models.user_config` (what the evaluator imports) and follows every `import` of a module
under `models/`, wherever it is written (lazy imports inside functions too), plus module names given
as strings (`python -m models.web.worker` starts the page workers). Prints the graph, the modules
under `models/` it never reaches, and any import of a non-production package from `models/`.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
ENTRY_POINT = "models.user_config"
# Top-level packages and modules of the repository that production code must never import.
NOT_PRODUCTION = ("tests", "kg_mock", "tools", "evaluation", "benchmarks", "local_evaluation", "data")


@dataclass
class ImportGraph:
    edges: dict[str, set[str]] = field(default_factory=dict)  # module -> modules under models/ it uses
    forbidden: dict[str, set[str]] = field(default_factory=dict)  # module -> non-production imports

    def reachable(self, start: str = ENTRY_POINT) -> list[str]:
        seen, stack = {start}, [start]
        while stack:
            for target in self.edges.get(stack.pop(), ()):
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        return sorted(seen)

    def unreached(self, start: str = ENTRY_POINT) -> list[str]:
        return sorted(set(self.edges) - set(self.reachable(start)))


def package_modules(root: Path = REPO_ROOT, package: str = "models") -> dict[str, Path]:
    """Dotted module name -> file, for every .py file under the package."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def build_graph(root: Path = REPO_ROOT) -> ImportGraph:
    modules = package_modules(root)
    graph = ImportGraph()
    for name, path in modules.items():
        used, forbidden = _imports_of(name, path, set(modules))
        graph.edges[name] = used - {name}
        if forbidden:
            graph.forbidden[name] = forbidden
    return graph


def _imports_of(name: str, path: Path, known: set[str]) -> tuple[set[str], set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    modules: set[str] = set()  # modules named by an import statement
    names: set[str] = set()  # `from package import name`: a submodule when such a module exists
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, name, is_package)
            modules.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
            modules.add(node.value)  # a module started by name, e.g. `python -m models.web.worker`
    used = set()
    for module in modules | names:
        parts = module.split(".")
        # Importing a.b.c runs the packages a and a.b first.
        used.update(".".join(parts[:i]) for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in known)
    forbidden = {module for module in modules if module.split(".")[0] in NOT_PRODUCTION}
    return used, forbidden


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.import_graph", description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    graph = build_graph()
    for module in graph.reachable():
        targets = sorted(graph.edges.get(module, set()) - {"models"})  # every module runs models/__init__
        print(f"{module}" + (f" -> {', '.join(targets)}" if targets else ""))
    unreached = graph.unreached()
    print(
        f"\n{len(graph.reachable())} modules reached from {ENTRY_POINT}; "
        f"unreached under models/: {', '.join(unreached) or 'none'}"
    )
    for module, imports in sorted(graph.forbidden.items()):
        print(f"NOT PRODUCTION: {module} imports {', '.join(sorted(imports))}")
    return 1 if unreached or graph.forbidden else 0


if __name__ == "__main__":
    sys.exit(main())
