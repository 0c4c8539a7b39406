"""The answer policy: the one place a question's final answer and its route are decided.

Stages record what they found in the question's record (models/pipeline.py); the policy reads it
as `Findings` (models/schema.py) and answers with a `Route`. Its rules are one table (`RULES`), in
the order a question meets them, each decided after a stage's turn: the orchestrator consults the
policy then, so a question a rule closes (an empty query, a refusal for dynamism, no KG evidence, a
name not in the KG, no time for the reasoning) costs no later stage. What is still open after the
last stage gets the answer the reasoning proposed, held to the KG's facts (`proposal`) and to the
form its question asks for, unless the extractor's own answer or a worth says otherwise.

The options are `policy` in the configuration (models/config/schema.py:PolicyConfig), each default
with its source. `decide` replays the rules on a trace's findings: `python -m tools.fit` fits the
options to the model that answers from one run that observed every answer a policy could give
(`policy.observe`: the rules those options decide record their decision and close nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from models.answer_check import AnswerChecker
from models.answers import I_DONT_KNOW, INVALID_QUESTION
from models.attributes.policy import RoutingDecision, route
from models.config import CragConfig, PolicyConfig, WrongForm
from models.prompts import PromptLibrary
from models.schema import EventKind, Findings, Route
from models.vocabulary import NUMBER_VALUE

if TYPE_CHECKING:
    from models.pipeline import QuestionRecord

# The trace events of the rules (`what`; the stage is the one the rule is decided after).
REFUSED = "refused"
NO_REPLY = "no reasoning reply"
FALSE_PREMISE_OVERRULED = "false premise overruled: the KG's facts answer the question"
COMPUTED_KEPT = "the KG's computed answer kept over the model's"
COMPUTED_OVER_DECLINE = "the KG's computed answer given where the model declined"
CONTRADICTED_PREMISE = "invalid question: the KG's facts contradict the question"
WRONG_FORM_REFUSED = "answer of the wrong form refused"
RETRIED_GIVEN = "answer asked again given"
KNOWLEDGE_GIVEN = "the model's own answer given where the reasoning declined"
WORTH_REFUSED = "refused: answers of its kind lose"
# The kinds of answer `policy.late_worth` prices.
LATE_KINDS = ("computed", "from KG", "knowledge shown")
COMPUTED_ROUTES = (Route.COMPUTED_KEPT, Route.COMPUTED_OVER_DECLINE)

# Why an answer breaks the form its question asks for: (constraint kind, how), None when it keeps it.
FormCheck = Callable[[str, str], "tuple[str, str] | None"]


@dataclass(frozen=True)
class Decision:
    """A question's final answer and its route; `what` (with `detail`) is the trace event the rule
    leaves, "" for a plain answer."""

    answer: str
    route: Route
    what: str = ""
    detail: str = ""
    kind: EventKind = "routed"


@dataclass(frozen=True)
class Rule:
    """One rule of the policy: its name (tools.fit reports by it), the stage after whose turn it is
    decided, whether fitted options decide it (an observing run records its decision and closes
    nothing), and the rule itself: a decision, or None when it leaves the question to later ones."""

    name: str
    after: str
    fitted: bool
    decide: Callable[["AnswerPolicy", Findings], Decision | None]


class AnswerPolicy:
    """The rules over one configuration. `form_check` is the answer check's own reading of a
    question's form (None: no check), for an answer the check did not read."""

    def __init__(self, config: PolicyConfig, kg_enabled: bool, form_check: FormCheck | None):
        self.config = config
        self.kg_enabled = kg_enabled
        self.form_check = form_check

    @classmethod
    def from_config(cls, config: CragConfig) -> "AnswerPolicy":
        return cls(
            config.policy, config.kg.enabled, _form_check(config) if config.answer_check.enabled else None
        )

    @property
    def observing(self) -> bool:
        return self.config.observe

    # --- the orchestrator's calls ----------------------------------------------------------------

    def settle(self, records: Iterable["QuestionRecord"], after: str) -> None:
        """After the turn of the stage `after`: close the open questions its rules decide; after the
        attributes, also hold for the KG those whose refusal waits for it."""
        for record in records:
            if not record.is_open:
                continue
            findings = record.findings()
            if after == "attributes":
                decision = self.routing(findings)
                if decision is not None:
                    record.trace.routing = decision.why
                record.waits_for_kg = self.waits_for_kg(findings)
            for rule in RULES:
                if rule.after != after or (rule.fitted and self.observing):
                    continue
                decided = rule.decide(self, findings)
                if decided is not None:
                    record.conclude(decided, rule.after)
                    break

    def finish(self, records: Iterable["QuestionRecord"]) -> None:
        """After the last stage: every question still open gets its answer."""
        for record in records:
            if record.is_open:
                decided, rule = self.decide(record.findings())
                record.conclude(decided, rule.after)

    def decide(self, findings: Findings) -> tuple[Decision, Rule]:
        """The rules in order over everything found: the first decision, and the rule that made it."""
        for rule in RULES:
            decided = rule.decide(self, findings)
            if decided is not None:
                return decided, rule
        raise AssertionError("the last rule answers every question")  # `_answer` below

    # --- what the rules read ---------------------------------------------------------------------

    def routing(self, findings: Findings) -> RoutingDecision | None:
        """The expected worth of answering, by the predicted classes (None: no attributes)."""
        if findings.domain is None:
            return None
        return route(findings.classes, findings.domain, self.config.answer_worth, self.config.refuse_below)

    def waits_for_kg(self, findings: Findings) -> bool:
        """A question the worths refuse, in a domain whose dynamic questions the KG may answer."""
        decision = self.routing(findings)
        return (
            decision is not None
            and decision.refuse
            and self.kg_enabled
            and findings.domain in self.config.kg_answers_dynamic
        )

    def wrong_form(self, form: str) -> WrongForm:
        """What becomes of an answer that breaks a constraint of kind `form`."""
        return self.config.wrong_form.get(form, "retry")

    def asks_again(self, form: str) -> bool:
        """Whether the answer check asks again (always while observing: every answer is recorded)."""
        return self.observing or self.wrong_form(form) == "retry"

    def proposal(self, findings: Findings) -> Decision:
        """The reasoning's answer held to the KG's facts (issue 39's rules, each with its switch): a
        false premise the facts do not show is overruled by their computed answer; a decline becomes
        "invalid question" where the facts contradict the question, else their computed answer;
        another answer that does not state the computed one is replaced by it."""
        options = self.config
        answer = findings.reply if findings.reply is not None else I_DONT_KNOW
        plain = Decision(answer, Route.FROM_KG if self.waits_for_kg(findings) else Route.ANSWERED)
        if not findings.kg_evidence:
            return plain
        computed = findings.kg_computed
        if answer == INVALID_QUESTION:
            if findings.kg_contradicts or not options.false_premise_overruled:
                return plain
            if computed is None and options.premise_overruled_only_by_computed:
                return plain
            overruled = computed if computed is not None else I_DONT_KNOW
            return Decision(overruled, Route.PREMISE_OVERRULED, FALSE_PREMISE_OVERRULED, overruled)
        if answer == I_DONT_KNOW:
            if findings.kg_contradicts and options.contradicted_premise_invalid:
                return Decision(
                    INVALID_QUESTION, Route.INVALID_PREMISE, CONTRADICTED_PREMISE, INVALID_QUESTION
                )
            if computed is not None and not findings.kg_contradicts and options.computed_answer_over_decline:
                return Decision(computed, Route.COMPUTED_OVER_DECLINE, COMPUTED_OVER_DECLINE, computed)
            return plain
        if options.computed_answer_final and computed is not None and not states(answer, computed):
            return Decision(computed, Route.COMPUTED_KEPT, COMPUTED_KEPT, answer)
        return plain

    def late_kinds(self, findings: Findings, proposed: Decision) -> list[str]:
        """The kinds of `policy.late_worth` the proposed answer is of."""
        kinds = {
            "computed": proposed.route in COMPUTED_ROUTES,
            "from KG": proposed.route is Route.FROM_KG,
            "knowledge shown": proposed.route is Route.ANSWERED and findings.knowledge_shown,
        }
        return [kind for kind in LATE_KINDS if kinds[kind]]

    # --- the rules, in the order of RULES -----------------------------------------------------------

    def _empty_query(self, findings: Findings) -> Decision | None:
        return Decision(I_DONT_KNOW, Route.EMPTY_QUERY) if not findings.query.strip() else None

    def _dynamism(self, findings: Findings) -> Decision | None:
        decision = self.routing(findings)
        if decision is None or not decision.refuse or self.waits_for_kg(findings):
            return None
        return Decision(I_DONT_KNOW, Route.REFUSED_DYNAMIC, REFUSED, decision.why)

    def _no_kg_evidence(self, findings: Findings) -> Decision | None:
        if not self.waits_for_kg(findings) or findings.kg_evidence:
            return None
        return Decision(I_DONT_KNOW, Route.NO_KG_EVIDENCE, REFUSED, "the KG had no evidence")

    def _not_in_kg(self, findings: Findings) -> Decision | None:
        """A name the KG lacks, with no KG facts and no web evidence: only the model's guess is left."""
        if not self.config.not_in_kg_refused or not findings.kg_unmatched:
            return None
        if findings.kg_evidence or findings.web_evidence:
            return None
        names = ", ".join(map(repr, findings.kg_unmatched))
        return Decision(I_DONT_KNOW, Route.NOT_IN_KG, REFUSED, f"not in the KG: {names}")

    def _no_reply(self, findings: Findings) -> Decision | None:
        """No reply to read (no time, cut before its answer, failed): the KG's computed answer when
        its facts decide one, else "I don't know"."""
        state = findings.reply_state
        if state == "answered":
            return None
        if findings.kg_computed is not None:
            detail = f"{state}: the KG's computed answer"
            return Decision(findings.kg_computed, Route.COMPUTED_NO_REPLY, NO_REPLY, detail)
        refused = Route.OUT_OF_TIME if state in ("cut", "no time") else Route.FAILED
        return Decision(I_DONT_KNOW, refused, NO_REPLY, f"{state}: {I_DONT_KNOW}")

    def _wrong_form(self, findings: Findings) -> Decision | None:
        """An answer that breaks its question's form: the answer asked again when it keeps the form,
        refused otherwise, or kept (`policy.wrong_form`)."""
        proposed = self.proposal(findings)
        if findings.checked == proposed.answer:
            form, violation = findings.form, findings.violation
        else:  # an answer the check did not read (a replay under other options)
            broken = self.form_check(findings.query, proposed.answer) if self.form_check else None
            form, violation = broken if broken is not None else (None, None)
        if form is None or violation is None:
            return None
        what_then = self.wrong_form(form)
        if what_then == "keep":
            return None
        if what_then == "refuse":
            return Decision(I_DONT_KNOW, Route.WRONG_FORM, WRONG_FORM_REFUSED, f"{violation}, no retry")
        if (
            findings.checked == proposed.answer
            and findings.retried is not None
            and findings.retry_problem is None
        ):
            return Decision(findings.retried, Route.RETRIED, RETRIED_GIVEN, violation)
        problem = findings.retry_problem if findings.checked == proposed.answer else None
        detail = f"{violation}, {problem or 'not asked again'}"
        return Decision(I_DONT_KNOW, Route.WRONG_FORM, WRONG_FORM_REFUSED, detail)

    def _knowledge_over_decline(self, findings: Findings) -> Decision | None:
        """Where the reasoning declined, the extractor's own answer when its worth says it pays."""
        own = findings.knowledge_answer
        if own is None or own in (I_DONT_KNOW, INVALID_QUESTION) or findings.domain is None:
            return None
        proposed = self.proposal(findings)
        if proposed.answer != I_DONT_KNOW or proposed.route not in (Route.ANSWERED, Route.FROM_KG):
            return None
        options = self.config
        reckoning = route(findings.classes, findings.domain, options.knowledge_worth, options.refuse_below)
        if reckoning.expected_score <= options.refuse_below:
            return None
        return Decision(own, Route.KNOWLEDGE_OVER_DECLINE, KNOWLEDGE_GIVEN, reckoning.why)

    def _late_worth(self, findings: Findings) -> Decision | None:
        """An answer of a kind whose worth (`policy.late_worth`) is below the bar."""
        proposed = self.proposal(findings)
        if proposed.answer in (I_DONT_KNOW, INVALID_QUESTION):
            return None
        worths = self.config.late_worth
        for kind in self.late_kinds(findings, proposed):
            if kind in worths and worths[kind] < self.config.refuse_below:
                return Decision(
                    I_DONT_KNOW, Route.REFUSED_WORTH, WORTH_REFUSED, f"{kind}: worth {worths[kind]:+.2f}"
                )
        return None

    def _answer(self, findings: Findings) -> Decision:
        return self.proposal(findings)


RULES: tuple[Rule, ...] = (
    Rule("empty query", "attributes", False, AnswerPolicy._empty_query),
    Rule("dynamism", "attributes", True, AnswerPolicy._dynamism),
    Rule("no KG evidence", "kg", True, AnswerPolicy._no_kg_evidence),
    Rule("not in the KG", "retrieval", True, AnswerPolicy._not_in_kg),
    Rule("no reasoning reply", "reasoning", False, AnswerPolicy._no_reply),
    Rule("wrong form", "answer check", True, AnswerPolicy._wrong_form),
    Rule("knowledge over a decline", "answer check", True, AnswerPolicy._knowledge_over_decline),
    Rule("late worth", "answer check", True, AnswerPolicy._late_worth),
    Rule("answer", "answer check", True, AnswerPolicy._answer),
)


def _form_check(config: CragConfig) -> FormCheck:
    checker = AnswerChecker(config.answer_check, None, PromptLibrary())

    def check(query: str, answer: str) -> tuple[str, str] | None:
        broken = checker.check(query, answer)
        return (broken[0].kind, broken[1]) if broken is not None else None

    return check


def states(answer: str, value: str) -> bool:
    """`answer` writes every word and number of `value` (case, signs and thousands commas aside)."""

    def words(text: str) -> set[str]:
        return {word.replace(",", "") for word in re.findall(rf"{NUMBER_VALUE}|[^\W\d_]+", text.lower())}

    return words(value) <= words(answer)
