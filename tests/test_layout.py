"""The layout rules: `models/` holds only what `UserModel` uses, and never imports tooling or tests."""

from __future__ import annotations

import subprocess
import sys

from tools.import_graph import ENTRY_POINT, NOT_PRODUCTION, REPO_ROOT, build_graph


def test_every_module_under_models_is_used_by_user_model():
    graph = build_graph()
    assert graph.unreached() == [], f"modules under models/ that {ENTRY_POINT} never reaches"
    expected = {"models.crag_system", "models.web.worker", "models.llm.llamacpp_backend"}
    assert expected <= set(graph.reachable())


def test_production_never_imports_tests_tooling_or_evaluation():
    assert build_graph().forbidden == {}


def test_importing_user_model_loads_no_tooling_module():
    code = (
        "import sys, models.user_config; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {NOT_PRODUCTION!r}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_the_graph_finds_unused_modules_and_lazy_imports_of_tooling(tmp_path):
    package = tmp_path / "models"
    (package / "web").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "user_config.py": "from models.stage import Stage\n",
        "stage.py": "import subprocess\n\nclass Stage:\n    def run(self):\n"
        "        from tests.doubles import ScriptedLLM\n"
        "        subprocess.run(['python', '-m', 'models.web.worker'])\n",
        "web/__init__.py": "",
        "web/worker.py": "from . import helpers\n",
        "web/helpers.py": "",
        "unused.py": "import evaluation.judges\n",
    }
    for name, text in files.items():
        (package / name).write_text(text)

    graph = build_graph(tmp_path)

    assert graph.unreached() == ["models.unused"]
    assert "models.web.helpers" in graph.reachable()  # relative import in a worker started by name
    assert graph.forbidden == {"models.stage": {"tests.doubles"}, "models.unused": {"evaluation.judges"}}
