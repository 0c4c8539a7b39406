"""PNG bar charts of a report's breakdowns and of an ablation (matplotlib, headless)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402

from evaluation.reports import BREAKDOWNS  # noqa: E402

_SERIES = [
    ("accuracy", "correct", "tab:green"),
    ("missing_rate", "missing", "tab:gray"),
    ("hallucination_rate", "hallucination", "tab:red"),
    ("score", "score", "tab:blue"),
]


def _grouped_bars(title: str, groups: dict[str, dict[str, Any]], path: Path) -> Path:
    names = list(groups)
    positions = np.arange(len(names))
    width = 0.8 / len(_SERIES)
    figure, axis = plt.subplots(figsize=(max(6.0, 1.2 * len(names) + 2), 4.5))
    for k, (key, label, colour) in enumerate(_SERIES):
        axis.bar(
            positions + (k - 1.5) * width, [groups[n][key] for n in names], width, label=label, color=colour
        )
    axis.axhline(0.0, color="black", linewidth=0.8)
    axis.set_xticks(positions, [f"{n}\n(n={groups[n]['n']})" for n in names], fontsize=8)
    axis.set_ylim(-1.05, 1.05)
    axis.set_ylabel("share of questions / score")
    axis.set_title(title)
    axis.legend(fontsize=8, ncols=4, loc="lower center", bbox_to_anchor=(0.5, 1.08))
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def breakdown_charts(report: dict[str, Any], folder: Path) -> list[Path]:
    """One chart per breakdown present in the report: `chart_by_domain.png`, ..."""
    charts = []
    for label, key in BREAKDOWNS.items():
        if key in report:
            title = f"{report['preset']}: by {label} (overall score {report['score']:.3f})"
            charts.append(_grouped_bars(title, report[key], folder / f"chart_{key}.png"))
    return charts


def comparison_chart(reports: dict[str, dict[str, Any]], path: Path) -> Path:
    return _grouped_bars("Ablation: presets on the same questions", reports, path)
