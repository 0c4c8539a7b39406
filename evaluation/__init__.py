"""Local evaluation that scores like the CRAG leaderboard (used by `local_evaluation.py`).

data (reading CRAG files) → runner (resumable predictions) → truncation + scoring + judges →
reports, charts and the 4x T4 time-budget estimate.
"""
