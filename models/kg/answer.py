"""Answers the KG's facts decide, computed here rather than left to the model.

A domain module knows from a question's reading which relation it asks about (a day's trading
volume, a film's budget, a band's members, a team's points) and hands the rows of that relation it
fetched for the asked names and time as a `FactTable`. `compute` reads from the same reading
(models/kg/intent.py) what to do with them (a total, an average, a count, the highest or lowest, the
first or last, a comparison of the names, a set, the time between two dates, or the one value) and
returns a `ComputedAnswer`: its kind, its value and how it was reached. It returns None when the
reading asks for nothing these rows settle (a comparison with no direction that does not set two
values side by side, several rows and no aggregate): the model then reads the facts alone. The
answer reaches the reasoning prompt as the first KG line, before the facts it was computed from;
after the reasoning, an answer that does not state it gives way to it, and so does a decline where
the facts contradict nothing (models/stages.py, `_facts_checked`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from statistics import fmean
from typing import TYPE_CHECKING, Literal

import re

from models import vocabulary
from models.answer_check import violates
from models.kg.matching import loose_key
from models.kg.relations import BY_NAME

if TYPE_CHECKING:
    from models.kg.intent import Intent

Value = float | date | str
_ISO_DAY = re.compile(vocabulary.ISO_DAY)
_YEAR = re.compile(vocabulary.YEAR)
ComputedKind = Literal[
    "lookup", "sum", "average", "count", "extreme", "first", "last", "comparison", "difference", "set"
]


@dataclass(frozen=True)
class Fact:
    """One value of the asked attribute: whose (`subject`), the value (a number, a date or an item,
    a name), and the day it is of when it has one (a trading day, a game)."""

    subject: str
    value: Value
    when: date | None = None


@dataclass
class FactTable:
    """The rows of the attribute a question asks about, for the asked names and time. `additive`: a
    total over rows means something (volumes, points, payments), not so for prices or ratings."""

    attribute: str
    facts: list[Fact] = field(default_factory=list)
    additive: bool = False
    unit: str = ""  # written after a value ("%")
    relation: str = ""  # the relation of models/kg/relations.py the rows are of
    value: str = ""  # the kind of its values (relations.ValueKind), "" when not declared
    rows: str = ""  # what its rows are, as a count names them (a pattern; "" when not declared)
    leaves: bool = False  # its rows can stop holding and are undated (a band's members)


@dataclass(frozen=True)
class ComputedAnswer:
    kind: ComputedKind
    value: str
    how: str  # what was computed from which rows

    def line(self) -> str:
        """The answer first (a small model copies what it reads first), then how it was reached."""
        return f"Computed answer: {self.value} ({self.how})"


def compute(table: FactTable | None, intent: Intent) -> ComputedAnswer | None:
    """The answer `table`'s rows give the question, by its reading; None when they settle nothing:
    no rows, a share, an age or a duration asked (arithmetic no rule here does), or a yes/no question
    that is no comparison of the names."""
    if table is None or not table.facts:
        return None
    if intent.asks("date_gap"):
        return _date_gap(table)
    if (intent.asks("share") and table.unit != "%") or intent.asks("age_or_duration"):
        return None
    facts = list(dict.fromkeys(table.facts))
    between = _between_option_times(table, facts, intent)
    if between is not None:
        return between
    subjects = list(dict.fromkeys(f.subject for f in facts))
    constraint = intent.constraint
    yes_no = constraint is not None and constraint.kind == "yes_no"
    items = all(isinstance(f.value, str) for f in facts)
    if intent.asks("difference") and len(subjects) < 2:
        return None  # a difference to something the facts do not hold ("points behind the leader")
    if (yes_no or intent.asks("existential")) and items and len(subjects) == 1:
        check = _named_value_check(table, facts, intent)
        if check is not None or yes_no:
            return check
    if len(subjects) > 1 and items and intent.asks("more") != intent.asks("less"):
        # several names' items compared ("who has more members?"): their counts are (a superlative
        # among items is an award's name as often: "best new artist")
        table = FactTable(
            f"count of {table.attribute}",
            [Fact(s, float(len({f.value for f in facts if f.subject == s}))) for s in subjects],
        )
        facts, items = table.facts, False
    if len(subjects) > 1 and not items:
        answer = _compare(table, facts, intent.in_question_order(subjects), intent, yes_no)
        if answer is None and _direction(facts, intent, table) is None:
            answer = _about_all(table, facts, intent)
    else:
        answer = _about_one(table, facts, intent)
    if answer is not None and yes_no and answer.value not in ("yes", "no"):
        answer = _held_against_threshold(answer, intent)
    if answer is None or (yes_no and answer.value not in ("yes", "no")):
        return None
    if constraint is not None and violates(constraint, answer.value) is not None:
        return None  # not of the form the question asks for (a number, a date, one of its options)
    if not _of_the_asked_kind(answer, table, intent) or not _over_the_asked_rows(answer, table, intent):
        return None
    if answer.kind == "set" and table.leaves and intent.time.tense == "now":
        return None  # "who are the members": the KG's undated list holds every member there ever was
    return answer


def _between_option_times(table: FactTable, facts: list[Fact], intent: Intent) -> ComputedAnswer | None:
    """A choice between times the question names ("higher today or yesterday?"): the option whose
    time's one row holds the higher (lower) value; None unless every option is a time with one row."""
    times = intent.option_times
    if len(times) < 2 or any(span is None for span in times):
        return None
    more, less = intent.asks("more") or intent.asks("highest"), intent.asks("less") or intent.asks("lowest")
    if more == less:
        return None
    values: dict[str, float] = {}
    for option, span in zip(intent.options, times):
        rows = [
            f
            for f in facts
            if f.when is not None
            and span is not None
            and span.contains(f.when)
            and isinstance(f.value, (int, float))
        ]
        if len(rows) != 1:
            return None
        values[option] = float(rows[0].value)  # type: ignore[arg-type]
    ranking = ", ".join(f"{option} {shown(value, table.unit)}" for option, value in values.items())
    how = f"the {table.attribute} of each time named: {ranking}"
    if len(set(values.values())) == 1:
        return ComputedAnswer("comparison", f"the same: {ranking}", how)  # a tie is the answer, not no answer
    if len(set(values.values())) < len(values):
        return None
    winner = (max if more else min)(values, key=lambda option: values[option])
    return ComputedAnswer("comparison", winner, how)


# Kinds of computed answer that are numbers whatever the rows' values.
_NUMBER_KINDS = ("count", "sum", "average")


def _named_value_check(table: FactTable, facts: list[Fact], intent: Intent) -> ComputedAnswer | None:
    """A yes/no question whether the one value is the name it writes ("is x the title the film was
    first released under?"): yes when the value is that of a subject or an option it names; no when
    it asks whether the value differs or another one is there ("is there an original title before
    x?"). None when the value is not a name it writes: it may name the value in other words."""
    values = {str(f.value) for f in facts}
    named = {loose_key(name) for name in [*(s.name for s in intent.subjects), *intent.options]}
    if len(values) != 1 or loose_key(next(iter(values))) not in named:
        return None
    other = intent.asks("different") or intent.asks("existential")
    return ComputedAnswer(
        "comparison",
        "no" if other else "yes",
        f"the {table.attribute} is {next(iter(values))}, the name the question writes",
    )


def _held_against_threshold(answer: ComputedAnswer, intent: Intent) -> ComputedAnswer | None:
    """A yes/no question that holds one value against a number it names ("did she win more than 3
    grammys?"): yes or no, from the value computed; None when it names no number or the value is none."""
    if intent.threshold is None:
        return None
    try:
        value = float(answer.value.rstrip("%").replace(",", ""))
    except ValueError:
        return None
    words, limit = intent.threshold
    holds = {
        "above": value > limit,
        "at least": value >= limit,
        "below": value < limit,
        "at most": value <= limit,
        "exactly": value == limit,
    }[vocabulary.THRESHOLD_WORDS[words]]
    return ComputedAnswer(
        "comparison",
        "yes" if holds else "no",
        f"{answer.value} ({answer.how}) held against {words} {shown(limit)}",
    )


def _of_the_asked_kind(answer: ComputedAnswer, table: FactTable, intent: Intent) -> bool:
    """The answer is of the kind the question asks for: a date or a year where it asks when, a number
    where it asks how many, a place where it asks where, a language where it asks which language."""
    form = intent.form
    if form in ("", "name", "option", "yes_no") or answer.value in ("yes", "no"):
        return True
    is_date = _date_like(answer.value)
    if form in ("date", "year"):
        return is_date or table.value in ("date", "year") and answer.kind not in _NUMBER_KINDS
    if form == "number":
        return not is_date and (answer.kind in _NUMBER_KINDS or _number_like(answer.value))
    return table.value in ("", form)


def _over_the_asked_rows(answer: ComputedAnswer, table: FactTable, intent: Intent) -> bool:
    """A count or a total is over the rows the question names ("how many albums" is no count of every
    work): the relation's rows are those, or the question names none."""
    if not table.rows or not (answer.kind in ("count", "sum") or intent.operation in ("count", "sum")):
        return True
    return intent.counts(table.rows) is not False


def _date_like(text: str) -> bool:
    return bool(_ISO_DAY.match(text) or _YEAR.fullmatch(text))


def _number_like(text: str) -> bool:
    try:
        float(text.rstrip("%").replace(",", ""))
    except ValueError:
        return False
    return True


def _about_all(table: FactTable, facts: list[Fact], intent: Intent) -> ComputedAnswer | None:
    """The total or the average of every name's rows, when the reading asks for one and compares nothing."""
    numbers = [float(f.value) for f in facts if isinstance(f.value, (int, float))]
    if len(numbers) != len(facts):
        return None
    if intent.asks("average"):
        return ComputedAnswer(
            "average", shown(fmean(numbers), table.unit), f"average of {len(numbers)} {table.attribute}"
        )
    if intent.asks("total") and table.additive:
        return ComputedAnswer(
            "sum", shown(sum(numbers), table.unit), f"sum of {len(numbers)} {table.attribute}"
        )
    return None


def _about_one(table: FactTable, facts: list[Fact], intent: Intent) -> ComputedAnswer | None:
    name = table.attribute
    if all(isinstance(f.value, str) for f in facts):
        items = [str(f.value) for f in facts]
        items = list(dict.fromkeys(items))
        if intent.asks("count"):
            return ComputedAnswer("count", str(len(items)), f"count of the {len(items)} {name}")
        if len(items) == 1:
            return ComputedAnswer("lookup", items[0], name)
        if intent.asks_for_one:
            return (
                None  # several where the question asks for one ("which film won ..."): which one is not known
            )
        return ComputedAnswer(
            "set", ", ".join(items), f"every one of the {name}"
        )  # no count: a count is no list
    if len(facts) == 1:
        fact = facts[0]
        one_total = table.relation in BY_NAME and BY_NAME[table.relation].a_total
        if intent.asks("average") or (intent.asks("total") and not (table.additive or one_total)):
            return None  # an average (a total) over rows the table does not hold ("each film of the series")
        if intent.asks("when") and fact.when is not None and not isinstance(fact.value, date):
            return ComputedAnswer(
                "lookup", fact.when.isoformat(), f"the day of {fact.subject}'s {name} {shown(fact.value)}"
            )
        return ComputedAnswer(
            "lookup", shown(fact.value, table.unit), f"{name} of {fact.subject}" + _on(fact)
        )
    numbers = [f for f in facts if isinstance(f.value, (int, float))]
    span = _span(facts)
    if len(numbers) == len(facts):
        values = [float(f.value) for f in numbers]  # type: ignore[arg-type]
        if intent.asks("rows_counted"):
            return ComputedAnswer(
                "count", str(len(values)), f"count of the {len(values)} rows of {name}{span}"
            )
        if intent.asks("average"):
            return ComputedAnswer(
                "average", shown(fmean(values), table.unit), f"average of {len(values)} {name}{span}"
            )
        if intent.asks("total") or (table.additive and intent.asks("count")):
            return ComputedAnswer("sum", shown(sum(values), table.unit), f"sum of {len(values)} {name}{span}")
    picked = _extreme(facts, intent)
    if picked is None:
        return None
    kind, which, fact = picked
    if kind != "extreme":
        span = ""  # the earliest row's day beside the span's last day misleads: the span is left out
    if intent.asks("when") and fact.when is not None and not isinstance(fact.value, date):
        return ComputedAnswer(
            kind,
            fact.when.isoformat(),
            f"the day of the {which} of the {len(facts)} {name}{span}, {shown(fact.value)}",
        )
    return ComputedAnswer(
        kind, shown(fact.value, table.unit), f"the {which} of the {len(facts)} {name}{span}" + _on(fact)
    )


def _extreme(facts: list[Fact], intent: Intent) -> tuple[ComputedKind, str, Fact] | None:
    """The row the reading picks among several: the highest or lowest value, the earliest or latest."""
    dated = [f for f in facts if isinstance(f.value, date) or f.when is not None]
    high, low = intent.asks("highest"), intent.asks("lowest")
    if high != low and not all(isinstance(f.value, date) for f in facts):
        numbers = [f for f in facts if isinstance(f.value, (int, float))]
        if len(numbers) == len(facts):
            chosen = (max if high else min)(numbers, key=lambda f: float(f.value))  # type: ignore[arg-type]
            return "extreme", "highest" if high else "lowest", chosen
    earlier, later = intent.asks("earlier"), intent.asks("later")
    if earlier != later and len(dated) == len(facts):
        chosen = (min if earlier else max)(dated, key=_day)
        return ("first", "earliest", chosen) if earlier else ("last", "latest", chosen)
    return None


def _direction(facts: list[Fact], intent: Intent, table: FactTable | None = None) -> bool | None:
    """True when the reading asks for the highest value (the latest date), False for the lowest
    (the earliest), None when it asks for neither or both. A choice on merit ("more attractive")
    goes the way the relation's figure is better (a lower P/E ratio), None when it declares none."""
    values = [f.value for f in facts if not isinstance(f.value, str)]
    if values and all(isinstance(v, date) for v in values):
        earlier, later = intent.asks("earlier"), intent.asks("later")
        return None if earlier == later else later
    if intent.asks("merit"):
        relation = BY_NAME.get(table.relation) if table is not None else None
        return None if relation is None or not relation.better else relation.better == "higher"
    more = intent.asks("more") or intent.asks("highest")
    less = intent.asks("less") or intent.asks("lowest")
    return None if more == less else more


def _compare(
    table: FactTable, facts: list[Fact], subjects: list[str], intent: Intent, yes_no: bool
) -> ComputedAnswer | None:
    """Which of the names the wording's comparative picks, each name's rows reduced to one value:
    the name; its value when the wording asks when; yes or no when it asks whether the first name is
    the one; by how much when it asks for the difference of two."""
    values: dict[str, float | date] = {}
    for subject in subjects:
        rows = [f for f in facts if f.subject == subject and not isinstance(f.value, str)]
        value = _reduce(table, rows, intent)
        if value is None:
            return None
        values[subject] = value
    facts_line = ", ".join(f"{subject} {shown(value, table.unit)}" for subject, value in values.items())
    numbers = [v for v in values.values() if not isinstance(v, date)]
    if intent.asks("difference") and len(numbers) == 2 == len(values):
        return ComputedAnswer(
            "difference",
            shown(abs(numbers[0] - numbers[1]), table.unit),
            f"difference of the {table.attribute}: {facts_line}",
        )
    highest = _direction(facts, intent, table)
    if (
        highest is None
        and intent.asks("side_by_side")
        and len(numbers) == 2 == len(values)
        and numbers[0] != numbers[1]
    ):
        (high, top), (low, bottom) = sorted(values.items(), key=lambda item: _sort_key(item[1]), reverse=True)
        return ComputedAnswer(
            "comparison",
            f"{high} {shown(top, table.unit)}, higher than {low} {shown(bottom, table.unit)}",
            f"the {table.attribute} set side by side: {facts_line}",
        )
    if highest is None or len(set(values.values())) < len(values):
        return None
    ranked = sorted(values, key=lambda s: _sort_key(values[s]), reverse=highest)
    winner = ranked[0]
    dates = all(isinstance(v, date) for v in values.values())
    which = ("latest" if highest else "earliest") if dates else ("highest" if highest else "lowest")
    ranking = ", ".join(f"{subject} {shown(values[subject], table.unit)}" for subject in ranked)
    how = f"{winner} has the {which} {table.attribute}: {ranking}"
    if yes_no:
        return ComputedAnswer("comparison", "yes" if winner == subjects[0] else "no", how)
    if intent.asks("when"):
        return ComputedAnswer("comparison", shown(values[winner], table.unit), how)
    return ComputedAnswer("comparison", winner, how)


def _date_gap(table: FactTable) -> ComputedAnswer | None:
    """The time between the table's two dates, in whole years and months (days when under a month)."""
    days = sorted({value for f in table.facts if isinstance(value := f.value, date)})
    if len(days) != 2 or len(table.facts) != 2:
        return None
    first, last = days
    months = (last.year - first.year) * 12 + last.month - first.month - (last.day < first.day)
    years, months = divmod(months, 12)
    parts = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((years, "year"), (months, "month")) if n]
    gap = " and ".join(parts) or f"{(last - first).days} days"
    return ComputedAnswer(
        "difference",
        gap,
        f"from {first.isoformat()} to {last.isoformat()}, {(last - first).days} days, "
        f"between the {table.attribute} of {' and '.join(f.subject for f in table.facts)}",
    )


def _reduce(table: FactTable, rows: list[Fact], intent: Intent) -> float | date | None:
    """One name's rows as one value: its only row, the total of additive rows, else their average
    when asked."""
    if not rows:
        return None
    if len(rows) == 1:
        return rows[0].value  # type: ignore[return-value]
    numbers = [float(f.value) for f in rows if isinstance(f.value, (int, float))]
    if len(numbers) != len(rows):
        return None
    if intent.asks("average"):
        return fmean(numbers)
    return sum(numbers) if table.additive else None


def _sort_key(value: float | date) -> float:
    return float(value.toordinal()) if isinstance(value, date) else float(value)


def _day(fact: Fact) -> date:
    return fact.value if isinstance(fact.value, date) else fact.when or date.min


def _on(fact: Fact) -> str:
    return f" on {fact.when.isoformat()}" if fact.when is not None else ""


def _span(facts: list[Fact]) -> str:
    days = sorted(f.when for f in facts if f.when is not None)
    return f", {days[0].isoformat()} to {days[-1].isoformat()}" if len(days) > 1 else ""


def shown(value: Value, unit: str = "") -> str:
    """A value as an answer states it: whole numbers without decimals, others to two places, a
    number followed by its unit."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        return value
    if float(value).is_integer():
        return f"{int(value)}{unit}"
    return (f"{value:.2f}" if abs(value) >= 1 else f"{value:.4g}") + unit
