"""The batch's time: a limit every LLM call obeys, and a cost model that decides what fits in it.

A batch of n questions must end within n x `budget.seconds_per_question`. Three parts:

- `EngineSpeed`: how fast the LLM runs where the system runs: seconds per prompt token, seconds of
  one decode step by the number of sequences in it and the context they read, seconds of a call's
  own overhead, and the KV cache. `calibrate()` measures them at warm-up on the real engine
  (outside any question's time); afterwards every engine step the backend reports refines them,
  and the backend asks it how long its next step will take (`predict_step`). Before calibration
  they are the preset's guess (`budget.initial_*`; by default the 4x T4 model of models/README.md).
- `StageCosts`: what each stage costs per question: prompt tokens and reply lengths for the LLM
  stages (seconds through `EngineSpeed`; a call decodes as long as its longest reply, planned at a
  high quantile of the replies measured, `reply_steps`), and the rest (CPU work, KG API calls) in
  seconds; all learned from the batches run so far.
- `BatchDeadline`: one batch's clock. A stage runs when it fits together with what the stages after
  it need (`fits`), every LLM call gets a `TimeLimit` that keeps the later stages' time free
  (`limit`), and the reasoning call takes the richest form whose predicted time fits what is left
  (`reasoning_form`), keeping room, when there is some, for a brief pass over the replies the
  limit may cut. The limit is enforced by the backends (they stop the engine); the rest is
  planning, so that the limit rarely has to cut anything.

When time runs short the batch degrades in this order: the calculator is skipped, then the
knowledge extractor (both are only extra opinions for the reasoning prompt, and the calculator
costs the most: n samples, each prefilled by vLLM's V0 engine), then the references are
shortened, then the reasoning text is dropped (brief replies: the answer alone), and finally the
last questions of the batch answer `I don't know`.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
from loguru import logger

from models.config import BudgetConfig
from models.llm.base import Completion, GenerationParams, LLMBackend, StepTiming, TimeLimit, TokenUsage

Clock = Callable[[], float]

# Guided like the stages' replies, so that calibrated decode steps include the token-mask work.
CALIBRATION_SCHEMA = {
    "type": "object",
    "properties": {"numbers": {"type": "string", "maxLength": 400}},
    "required": ["numbers"],
}
_FILLER = (
    "The committee met on a grey morning to review the harbour accounts, the river survey, the "
    "school census and the orchard yields of the last nine seasons, line by line. "
)


@dataclass
class EngineSpeed:
    """The LLM's speed here; `observe` refines it from each engine step (moving averages)."""

    call_overhead_s: float
    prefill_s_per_token: float
    decode_step_s: dict[int, float]  # sequences in the step -> seconds of one decode step
    kv_cache_tokens: int | None = None
    smoothing: float = 0.05
    decode_scale: float = 1.0  # learned factor on the decode steps
    context_s_per_token: float = 0.0  # per decode step, per token of context its sequences read
    outlier_factor: float = 2.0  # a step counts as at most this many times off its prediction
    engine_seconds: float = 0.0  # the observed steps' seconds in all

    @classmethod
    def initial(cls, budget: BudgetConfig) -> "EngineSpeed":
        """The configured guess, before anything was measured."""
        overhead, prefill = budget.initial_call_overhead_s, budget.initial_prefill_tokens_per_s
        steps, context = budget.initial_decode_step_s, budget.initial_context_s_per_token
        if overhead is None or prefill is None or steps is None or context is None:
            raise ValueError(
                "budget.initial_* are derived when the configuration loads: use models.config.load_config"
            )
        return cls(
            call_overhead_s=overhead,
            prefill_s_per_token=1.0 / prefill,
            decode_step_s=dict(steps),
            smoothing=budget.step_smoothing,
            context_s_per_token=context,
            outlier_factor=budget.step_outlier_factor,
        )

    def step_seconds(self, sequences: int, context_tokens: int = 0) -> float:
        """A decode step of `sequences` sequences reading `context_tokens` tokens of KV cache in all:
        linear between the measured counts, and beyond the largest growing as between the last two,
        plus the context's reads."""
        return (self._table_step(sequences) + context_tokens * self.context_s_per_token) * self.decode_scale

    def _table_step(self, sequences: int) -> float:
        points = sorted(self.decode_step_s.items())
        if sequences <= points[0][0] or len(points) == 1:
            return points[0][1]
        for (low, low_s), (high, high_s) in itertools.pairwise(points):
            if sequences <= high:
                return low_s + (high_s - low_s) * (sequences - low) / (high - low)
        (low, low_s), (high, high_s) = points[-2], points[-1]
        return high_s + max(0.0, (high_s - low_s) / (high - low)) * (sequences - high)

    def predict_step(self, prompt_tokens: int, sequences: int, context_tokens: int) -> float:
        """One engine step that computes `prompt_tokens` prompt tokens and decodes `sequences`
        sequences over `context_tokens` tokens of context (what the vLLM backend asks before a step)."""
        decode = self.step_seconds(sequences, context_tokens) if sequences > 0 else 0.0
        return prompt_tokens * self.prefill_s_per_token + decode

    def call_seconds(self, prompt_tokens: int, sequences: int, steps: int) -> float:
        """One generate call: its prompts' tokens, its sequences and the decode steps they take.
        Sequences that do not fit the KV cache together wait for the ones before (waves); every
        step reads each running sequence's prompt and the half of its reply written on average."""
        if sequences <= 0:
            return 0.0
        waves = 1
        if self.kv_cache_tokens:
            waves = max(1, math.ceil((prompt_tokens + sequences * steps) / self.kv_cache_tokens))
        per_wave = math.ceil(sequences / waves)
        context = prompt_tokens / waves + per_wave * steps / 2
        return (
            self.call_overhead_s
            + prompt_tokens * self.prefill_s_per_token
            + waves * steps * self.step_seconds(per_wave, int(context))
        )

    def observe(self, step: StepTiming) -> None:
        """Refine the speeds from one engine step, off its prediction by at most `outlier_factor`."""
        self.engine_seconds += step.seconds
        decode = self.step_seconds(step.sequences, step.context_tokens) if step.sequences else 0.0
        weight, bound = self.smoothing, self.outlier_factor
        if step.prompt_tokens > 0:
            per_token = max(0.0, step.seconds - decode) / step.prompt_tokens
            per_token = min(
                max(per_token, self.prefill_s_per_token / bound), self.prefill_s_per_token * bound
            )
            self.prefill_s_per_token += weight * (per_token - self.prefill_s_per_token)
        elif decode > 0:
            ratio = min(max(step.seconds / decode, 1.0 / bound), bound)
            self.decode_scale *= 1.0 + weight * (ratio - 1.0)

    def describe(self) -> str:
        steps = ", ".join(f"{n} seq {self.step_seconds(n) * 1000:.0f} ms" for n in sorted(self.decode_step_s))
        kv = f", KV cache {self.kv_cache_tokens} tokens" if self.kv_cache_tokens else ""
        prefill = 1.0 / self.prefill_s_per_token if self.prefill_s_per_token > 0 else float("inf")
        return (
            f"prefill {prefill:.0f} tok/s, decode step {steps}, call overhead "
            f"{self.call_overhead_s:.2f} s{kv}"
        )

    def check(self) -> None:
        """Raises when a figure cannot be a speed (not finite, or a prefill or step of no time)."""
        figures = [self.call_overhead_s, self.prefill_s_per_token, *self.decode_step_s.values()]
        if (
            not all(math.isfinite(x) and x >= 0 for x in figures)
            or self.prefill_s_per_token <= 0
            or min(self.decode_step_s.values(), default=0.0) <= 0
        ):
            raise RuntimeError(f"calibration measured no usable speed ({self.describe()})")


def calibrate(llm: LLMBackend, budget: BudgetConfig) -> EngineSpeed:
    """Measure `llm` on `llm.clock`: a short prompt with one token (the call's own cost), a
    reasoning-sized prompt with one token (prefill), then guided replies of
    `calibration_decode_tokens` tokens for each of `calibration_sequences` sequences at once (the
    first token comes with the prefill; the others are decode steps). A decode step of n sequences
    is the median of the engine's own reports of its steps that only decoded those n (their
    context's reads taken off), when it reports steps; else the call's time past its prompts over
    its decode steps. Every prompt is unique, so that no prefix cache hides its cost."""
    run, prompts = next(_calibration_runs), itertools.count()
    context_s = budget.initial_context_s_per_token or 0.0
    steps_seen: list[StepTiming] = []

    def prompt(words: str) -> list[dict[str, str]]:
        return [{"role": "user", "content": f"Calibration {run}.{next(prompts)}. {words}"}]

    def timed(
        conversations: list[list[dict[str, str]]], params: GenerationParams
    ) -> tuple[float, list[Completion]]:
        steps_seen.clear()
        observer, llm.step_observer = llm.step_observer, steps_seen.append
        started = llm.clock()
        try:
            with llm.limited(None):
                completions = llm.generate(conversations, params)
        finally:
            llm.step_observer = observer
        failed = [c.error for c in completions if c.error]
        if failed:
            raise RuntimeError(f"calibration request failed: {failed[0]}")
        return llm.clock() - started, completions

    short = "Write the numbers from 1 to 400, separated by spaces."
    base, (base_reply,) = timed([prompt(short)], GenerationParams(max_tokens=1))
    repeats = max(1, round(budget.calibration_prompt_tokens / max(1, llm.count_tokens(_FILLER))))
    seconds, (long_reply,) = timed([prompt(_FILLER * repeats)], GenerationParams(max_tokens=1))
    prefill = max(0.0, seconds - base) / max(1, long_reply.prompt_tokens - base_reply.prompt_tokens)
    table = {}
    decode = GenerationParams(max_tokens=budget.calibration_decode_tokens, json_schema=CALIBRATION_SCHEMA)
    for sequences in budget.calibration_sequences:
        seconds, replies = timed([prompt(short) for _ in range(sequences)], decode)
        reported = [
            step.seconds - step.context_tokens * context_s
            for step in steps_seen
            if step.prompt_tokens == 0 and step.sequences == sequences
        ]
        if reported:
            table[sequences] = statistics.median(reported)
            continue
        steps = max(reply.completion_tokens for reply in replies) - 1
        more_prompt = sum(reply.prompt_tokens for reply in replies) - base_reply.prompt_tokens
        table[sequences] = max(0.0, seconds - base - more_prompt * prefill) / max(1, steps)
    one_step = table[min(table)] if table else 0.0
    speed = EngineSpeed(
        call_overhead_s=max(0.0, base - base_reply.prompt_tokens * prefill - one_step),
        prefill_s_per_token=prefill,
        decode_step_s=table,
        kv_cache_tokens=llm.kv_cache_tokens(),
        smoothing=budget.step_smoothing,
        context_s_per_token=context_s,
        outlier_factor=budget.step_outlier_factor,
    )
    speed.check()
    logger.info(f"Calibration of the {llm.name} engine: {speed.describe()}")
    return speed


_calibration_runs = itertools.count()


@dataclass(frozen=True)
class LLMStageShape:
    """How a stage asks the LLM, per question: `requests` conversations of the `prompt` template
    (prompts/), each with `samples` replies of at most `max_tokens` tokens, guided by a JSON schema
    or not. `base`: the stage whose prompt sizes and other seconds a variant of it shares (brief
    reasoning is reasoning with shorter replies). The deadline plans one conversation per question;
    `requests` sizes the worst case (tools/validate.py)."""

    samples: int
    max_tokens: int
    guided: bool
    prompt: str
    requests: int = 1
    base: str | None = None


BRIEF_REASONING = "reasoning (brief)"


@dataclass
class StageCosts:
    """Per stage and question: prompt tokens and reply lengths of the LLM stages, other seconds; the
    seeds are the stages' own (models/stages.py) or the config's, then each observed stage moves
    them (moving averages; the reply lengths are kept, the last `reply_window` of each stage)."""

    shapes: dict[str, LLMStageShape]
    smoothing: float
    other_seconds: dict[str, float] = field(default_factory=dict)
    prompt_tokens: dict[str, float] = field(default_factory=dict)
    reply_coverage: float = 0.95
    reply_window: int = 400
    replies: dict[str, deque[float]] = field(default_factory=dict)  # each reply's tokens / max_tokens

    def predict(
        self,
        speed: EngineSpeed,
        stage: str,
        questions: int,
        prompt_tokens: Sequence[int] | None = None,
        share: float = 1.0,
    ) -> float:
        """Seconds of `stage` for `questions` questions (`prompt_tokens`: the exact prompts, when
        known; `share` of them)."""
        if questions <= 0:
            return 0.0
        seconds = self.other_seconds.get(self._base(stage), 0.0) * questions
        shape = self.shapes.get(stage)
        if shape is None:
            return seconds
        tokens = (
            sum(prompt_tokens)
            if prompt_tokens is not None
            else self.prompt_tokens.get(self._base(stage), 0.0) * questions
        )
        tokens *= share
        sequences = questions * shape.samples
        steps = self.reply_steps(stage, sequences)
        return seconds + speed.call_seconds(int(tokens * shape.samples), sequences, steps)

    def reply_steps(self, stage: str, sequences: int) -> int:
        """Decode steps to plan for a call of `stage` with `sequences` replies: the longest of them
        stays within this many with probability `reply_coverage` when the replies are as long as
        the measured ones (the quantile reply_coverage ** (1 / sequences) of one reply). Until the
        stage has measured enough replies to tell that quantile (1 / (1 - level) of them), max_tokens."""
        shape = self.shapes[stage]
        level = self.reply_coverage ** (1.0 / max(1, sequences))
        measured = self.replies.get(stage)
        if not measured or len(measured) * (1.0 - level) < 1.0:
            return shape.max_tokens
        share = float(np.quantile(np.fromiter(measured, float), level, method="higher"))
        return max(1, min(shape.max_tokens, math.ceil(share * shape.max_tokens)))

    def observe(
        self,
        speed: EngineSpeed,
        stage: str,
        seconds: float,
        usages: Sequence[TokenUsage | None],
        engine_seconds: float = 0.0,
    ) -> None:
        """What `stage` took for its questions (`usages`: each one's LLM tokens, None when it used
        none; `engine_seconds`: what the engine's steps took in it, when it reports them). A reply a
        time limit cut counts as long as max_tokens (its length is unknown). Replies from the reply
        cache count for the prompt and reply lengths, but took no model time. Of the stage's time,
        the LLM's is the longer of its prediction and the engine's steps, the rest its other seconds:
        an engine slower than predicted (a stall) is the engine's, which the steps teach
        `EngineSpeed`, not the stage's work."""
        questions = len(usages)
        if questions <= 0:
            return
        llm_seconds = 0.0
        shape = self.shapes.get(stage)
        used = [usage for usage in usages if usage is not None and usage.calls]
        if shape is not None and used:
            prompts = [usage.prompt_tokens / usage.calls for usage in used]
            replies = [
                shape.max_tokens if usage.cut else usage.completion_tokens / (usage.calls * shape.samples)
                for usage in used
            ]
            window = self.replies.setdefault(stage, deque(maxlen=self.reply_window))
            window.extend(min(1.0, reply / shape.max_tokens) for reply in replies)
            self._average(self.prompt_tokens, self._base(stage), sum(prompts) / len(prompts))
            computed = [
                (prompt, reply)
                for prompt, reply, usage in zip(prompts, replies, used)
                if usage.cached < usage.calls
            ]
            if computed:
                steps = max(1, math.ceil(max(reply for _, reply in computed)))
                prompt_total = sum(prompt for prompt, _ in computed)
                llm_seconds = speed.call_seconds(
                    int(prompt_total * shape.samples), len(computed) * shape.samples, steps
                )
        llm_seconds = max(llm_seconds, engine_seconds)
        self._average(self.other_seconds, self._base(stage), max(0.0, seconds - llm_seconds) / questions)

    def _base(self, stage: str) -> str:
        shape = self.shapes.get(stage)
        return shape.base if shape is not None and shape.base else stage

    def _average(self, table: dict[str, float], key: str, value: float) -> None:
        previous = table.get(key)
        table[key] = value if previous is None else previous + self.smoothing * (value - previous)


@dataclass(frozen=True)
class Planned:
    """A stage still to come in the batch, as a reserve of time: how many questions reach it and,
    when already known, their prompt tokens; `share` of the prompts (references shortened)."""

    stage: str
    questions: int
    prompt_tokens: Sequence[int] | None = None
    share: float = 1.0


@dataclass(frozen=True)
class ReasoningForm:
    """One way to run the reasoning stage: full replies (reasoning, then the answer) or brief ones
    (the answer alone), over this share of each question's references."""

    brief: bool
    share: float
    prompt_tokens: tuple[int, ...]  # per question, in order

    @property
    def stage(self) -> str:
        return BRIEF_REASONING if self.brief else "reasoning"

    def describe(self) -> str:
        kind = "brief replies" if self.brief else "full replies"
        return f"{kind} over {self.share:.0%} of the references"


@dataclass(frozen=True)
class ReasoningPlan:
    """The reasoning call's form, how many of the first questions it answers, and the reserve kept
    after it for a brief pass over the replies the limit may cut (None: no room for one)."""

    form: ReasoningForm
    answerable: int
    recovery: Planned | None = None


class BatchDeadline:
    def __init__(
        self, questions: int, budget: BudgetConfig, costs: StageCosts, speed: EngineSpeed, clock: Clock
    ):
        self.costs = costs
        self.speed = speed
        self.clock = clock
        self.start = clock()
        total = questions * budget.seconds_per_question
        self.end = self.start + total - budget.end_margin_s  # no LLM call runs past this
        self.plan_end = self.start + total * budget.usable_fraction  # what the plans aim for

    def seconds_left(self) -> float:
        return self.end - self.clock()

    def predict(self, stage: str, questions: int, prompt_tokens: Sequence[int] | None = None) -> float:
        return self.costs.predict(self.speed, stage, questions, prompt_tokens)

    def reserve(self, later: Sequence[Planned]) -> float:
        """Predicted seconds of the stages still to come."""
        return sum(
            self.costs.predict(self.speed, p.stage, p.questions, p.prompt_tokens, share=p.share)
            for p in later
        )

    def fits(self, stage: str, questions: int, later: Sequence[Planned] = ()) -> bool:
        """Whether `stage` and the stages after it are predicted to end within the plan."""
        needed = self.predict(stage, questions) + self.reserve(later)
        return needed <= self.plan_end - self.clock()

    def limit(self, later: Sequence[Planned] = ()) -> TimeLimit:
        """The time a call must end by for the later stages still to have their predicted time."""
        return TimeLimit(self.end - self.reserve(later), self.clock)

    def affordable(self, stage: str, prompt_tokens: Sequence[int], seconds: float) -> int:
        """How many of the first questions (with these prompts) a call of `stage` can serve in `seconds`."""
        count = len(prompt_tokens)
        while count > 0 and self.predict(stage, count, prompt_tokens[:count]) > seconds:
            count -= 1
        return count

    def reasoning_form(
        self,
        forms: Sequence[ReasoningForm],
        later: Sequence[Planned] = (),
        recovery: Callable[[ReasoningForm], Planned | None] = lambda form: None,
    ) -> ReasoningPlan:
        """The first of `forms` whose predicted time fits what is left after the `later` stages'
        reserve, for every question, with its `recovery` reserve when that fits too; when no form
        fits, the last form and how many of the first questions it can still answer."""
        left = self.seconds_left() - self.reserve(later)
        for form in forms:
            needed = self.predict(form.stage, len(form.prompt_tokens), form.prompt_tokens)
            if needed > left:
                continue
            kept = recovery(form)
            if kept is not None and needed + self.reserve([kept]) > left:
                kept = None
            return ReasoningPlan(form, len(form.prompt_tokens), kept)
        last = forms[-1]
        return ReasoningPlan(last, self.affordable(last.stage, last.prompt_tokens, left))
