"""Pre-submission check: will this tree load and answer on the evaluator for a preset?

    python -m tools.validate [--preset cpu|t4x4] [--set section.option=value ...]

Checks, in order: the aicrowd.json files; `models.user_config.UserModel` importable; the preset's
weight and data files; the runtime it needs (vllm, and for a vllm preset whether enough GPUs are
visible); the leaderboard's settings (t4x4: no reply cache, whose replies would not be the
model's answers to these questions, and no observing answer policy); the answer policy's fitted
file, when the preset or a --set names one (`policy.fitted`): it must have been fitted to the
preset's model (`tools.fit` records the identity the reply cache keys on); then the system
constructed and a dry answer on a tiny synthetic question, both with
every non-AF_UNIX socket refused (the evaluator has no network). With the GPUs the preset needs,
that is `UserModel()` itself. Without them (the Docker build) it is the same `CragSystem` built on
the CPU with only the LLM engine left out: every stage is constructed from the preset, so whatever
a stage loads (packages, encoder and classifier weights, the company table) must be there, and
the LLM folder's config, tokenizer and chat template are loaded by transformers; the stand-in LLM
answers no request, so the dry answer exercises every stage's fallback. It prints the expected
per-question token budget and fails when the longest prompt plus its output cannot fit the
model's context. Exit status 0 when nothing failed.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import importlib
import importlib.util
import ipaddress
import json
import os
import socket
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from models.config import PROMPTS_DIR, REPO_ROOT, CragConfig, LLMConfig, load_config, parse_overrides
from models.config.fitted import read_fitted
from models.llm import Completion, Conversation, GenerationParams, LLMBackend
from models.prompts import parse_template
from tools.weights import missing_weights, quantization_summary

CHALLENGE_IDS = {
    1: "meta-kdd-cup-24-crag-retrieval-summarization",
    2: "meta-kdd-cup-24-crag-knowledge-graph-and-web-retrieval",
    3: "meta-kdd-cup-24-crag-end-to-end-retrieval-augmented-generation",
}
MAX_GPU_COUNT = 4

# Token-budget estimate: CRAG queries and query times are short; tables, KG lines and expressions
# are dense in digits and punctuation, so they take more tokens per character than prose.
QUERY_TOKENS = 64
QUERY_TIME_TOKENS = 16
DATA_CHARS_PER_TOKEN = 3.0
CHAT_TEMPLATE_TOKENS = 16  # role headers and special tokens around the messages
REFERENCE_MARKER_TOKENS = 4  # "[n] " and the blank line between references
EXAMPLE_TOKENS = QUERY_TOKENS + 24  # an attribute example: its question and two labels as a JSON line

SYNTHETIC_BATCH = {
    "interaction_id": ["validate-0"],
    "query": ["what is the capital city of france?"],
    "query_time": ["03/10/2024, 23:34:42 PT"],
    "search_results": [
        [
            {
                "page_name": "France - facts",
                "page_url": "https://example.org/france",
                "page_snippet": "Paris is the capital and largest city of France.",
                "page_result": "<html><body><h1>France</h1><p>Paris is the capital and largest city of "
                "France.</p><table><tr><th>City</th><th>Population</th></tr><tr><td>Paris</td>"
                "<td>2,102,650</td></tr></table></body></html>",
                "page_last_modified": "Thu, 01 Feb 2024 10:00:00 GMT",
            }
        ]
    ],
}


@dataclass
class Check:
    name: str
    status: str  # PASS, FAIL or SKIP
    details: list[str] = field(default_factory=list)


# --- aicrowd.json ----------------------------------------------------------------------------------


def aicrowd_problems(
    data: Any, expected_challenge: str | None = None, gpu_count: int | None = None
) -> list[str]:
    """What is wrong with one parsed aicrowd.json (empty when it is valid)."""
    if not isinstance(data, dict):
        return ["not a JSON object"]
    problems = []
    challenge = data.get("challenge_id")
    if challenge not in CHALLENGE_IDS.values():
        problems.append(f"challenge_id {challenge!r} is not one of {sorted(CHALLENGE_IDS.values())}")
    elif expected_challenge is not None and challenge != expected_challenge:
        problems.append(f"challenge_id is {challenge!r}, expected {expected_challenge!r}")
    authors = data.get("authors")
    if (
        not isinstance(authors, list)
        or not authors
        or not all(isinstance(a, str) and a.strip() for a in authors)
    ):
        problems.append("authors must be a non-empty list of names")
    if not isinstance(data.get("gpu"), bool):
        problems.append("gpu must be true or false")
    count = data.get("gpu_count")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_GPU_COUNT:
        problems.append(f"gpu_count must be an integer from 1 to {MAX_GPU_COUNT}")
    elif gpu_count is not None and (data.get("gpu") is not True or count < gpu_count):
        problems.append(f"the preset uses {gpu_count} GPUs but gpu={data.get('gpu')}, gpu_count={count}")
    if not isinstance(data.get("description"), str) or not data["description"].strip():
        problems.append("description must be a non-empty string")
    return problems


def check_aicrowd(config: CragConfig, root: Path = REPO_ROOT) -> Check:
    gpus = config.llm.tensor_parallel_size if config.llm.backend == "vllm" else None
    files = {root / "aicrowd.json": None}
    files.update(
        {root / "aicrowd" / f"task{task}.json": challenge for task, challenge in CHALLENGE_IDS.items()}
    )
    details = []
    for path, expected in files.items():
        if not path.is_file():
            details.append(f"{path.relative_to(root)}: missing")
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            details.append(f"{path.relative_to(root)}: invalid JSON ({error})")
            continue
        details += [f"{path.relative_to(root)}: {p}" for p in aicrowd_problems(data, expected, gpus)]
    if details:
        return Check("aicrowd.json", "FAIL", details)
    chosen = json.loads((root / "aicrowd.json").read_text(encoding="utf-8"))["challenge_id"]
    return Check("aicrowd.json", "PASS", [f"submits to {chosen}; aicrowd/task1-3.json valid"])


# --- no network ------------------------------------------------------------------------------------


class NetworkBlocked(ConnectionRefusedError):
    """Raised instead of opening a network connection; an OSError, so clients treat it as one."""


def _is_loopback(host: Any) -> bool:
    if host in (None, "", "localhost"):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


def _is_ip_literal(host: Any) -> bool:
    try:
        ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return False
    return True


@contextmanager
def block_network() -> Iterator[list[str]]:
    """Refuse every connection and name lookup over non-AF_UNIX sockets; yields the attempts made.

    Each attempt is recorded as "connect HOST:PORT" or "lookup HOST" (prefixed "external" unless it
    was for a loopback address, e.g. the CRAG mock KG API). Code that opens sockets from C or Rust
    directly is not seen.
    """
    attempts: list[str] = []
    original_socket, original_getaddrinfo = socket.socket, socket.getaddrinfo

    def record(kind: str, host: Any, port: Any = None) -> None:
        where = f"{host}:{port}" if port is not None else str(host)
        attempts.append(f"{'' if _is_loopback(host) else 'external '}{kind} {where}")

    class GuardedSocket(original_socket):
        def connect(self, address):
            return self._refuse(address)

        def connect_ex(self, address):
            return self._refuse(address)

        def sendto(self, data, *args):
            return self._refuse(args[-1])

        def _refuse(self, address):
            if self.family == socket.AF_UNIX:
                return original_socket.connect(self, address)
            host, port = (address[0], address[1]) if isinstance(address, tuple) else (address, None)
            record("connect", host, port)
            raise NetworkBlocked(f"network access blocked by tools.validate: {host}:{port}")

    def guarded_getaddrinfo(host, port, *args, **kwargs):
        if _is_loopback(host) or _is_ip_literal(host):  # no DNS query: the connect is what gets refused
            return original_getaddrinfo(host, port, *args, **kwargs)
        record("lookup", host)
        raise socket.gaierror(socket.EAI_NONAME, f"name lookup blocked by tools.validate: {host}")

    socket.socket, socket.getaddrinfo = GuardedSocket, guarded_getaddrinfo
    try:
        yield attempts
    finally:
        socket.socket, socket.getaddrinfo = original_socket, original_getaddrinfo


def network_check(name: str, attempts: list[str], ok_detail: str) -> Check:
    external = [a for a in attempts if a.startswith("external")]
    local = [a for a in attempts if not a.startswith("external")]
    details = [ok_detail] if not external else []
    details += [f"tried (blocked): {a}" for a in external]
    details += [f"loopback attempt (blocked; fine for the mock KG API): {a}" for a in local]
    return Check(name, "FAIL" if external else "PASS", details)


# --- token budget ----------------------------------------------------------------------------------


@dataclass
class StageBudget:
    stage: str
    template: str
    calls: int  # conversations per question
    prompt_tokens: int  # per conversation, at the configured caps
    output_tokens: int  # per conversation: max_tokens x samples

    @property
    def total(self) -> int:
        return self.calls * (self.prompt_tokens + self.output_tokens)


def token_budget(config: CragConfig, prompts_dir: Path = PROMPTS_DIR) -> list[StageBudget]:
    """Worst-case prompt and output tokens per question for each LLM call the preset makes (the
    stages' LLM shapes, models/stages.py), and the reasoning's backup call.

    Prompt sizes are the template's own text plus each placeholder filled to its configured cap,
    in characters / chars_per_token (an estimate: the real count depends on the tokenizer).
    """
    from models.attributes.data import DOMAINS, DYNAMISM
    from models.stages import llm_shapes

    prose = config.retrieval.chars_per_token
    retrieval, calculator, kg = config.retrieval, config.calculator, config.kg
    common = {"query": QUERY_TOKENS, "query_time": QUERY_TIME_TOKENS}
    references = (
        max(retrieval.max_reference_tokens, retrieval.list_max_reference_tokens)
        + retrieval.max_table_chars / DATA_CHARS_PER_TOKEN
        + max(retrieval.top_k_chunks, retrieval.list_top_k_chunks) * REFERENCE_MARKER_TOKENS
    )
    attributes = config.attributes
    # Each placeholder of a stage's prompt filled to its cap, by stage (beside the query and its time).
    fills: dict[str, dict[str, float]] = {
        "attributes": {
            "question": QUERY_TOKENS,
            "examples": attributes.llm_examples_per_class * (len(DOMAINS) + len(DYNAMISM)) * EXAMPLE_TOKENS,
        },
        "retrieval": {"passage": retrieval.rerank_passage_max_chars / prose},
        "kg": {"domain": 2},
        "calculator": {"references": calculator.max_reference_tokens},
        "reasoning": {
            "references": references,
            "kg": kg.max_total_chars / DATA_CHARS_PER_TOKEN if kg.enabled else 0,
            "calculations": (
                calculator.max_results * calculator.max_expression_chars / DATA_CHARS_PER_TOKEN
                if calculator.enabled
                else 0
            ),
            "knowledge": config.knowledge.answer_max_chars / prose if config.knowledge.enabled else 0,
        },
        "answer check": {  # the options are the query's own words
            "options": QUERY_TOKENS,
            "references": config.answer_check.max_reference_tokens,
            "reasoning": config.answer_check.max_reasoning_tokens,
            "answer": config.reasoning.answer_max_tokens,
        },
    }
    rows = []

    def add(stage: str, template: str, calls: int, output: int, stage_fills: dict[str, float]) -> None:
        prompt = _template_tokens(prompts_dir / f"{template}.txt", {**common, **stage_fills}, prose)
        rows.append(StageBudget(stage, template, calls, prompt, output))

    for stage, shape in llm_shapes(config).items():
        if shape.base is None:  # a variant (brief reasoning) replaces its stage's call, never adds to it
            add(stage, shape.prompt, shape.requests, shape.max_tokens * shape.samples, fills.get(stage, {}))
    add(
        "reasoning (backup, only on an unparsable reply)",
        "reasoning_backup",
        1,
        config.reasoning.backup_max_tokens,
        {"reasoning": config.reasoning.backup_input_max_tokens},
    )
    return rows


def _template_tokens(path: Path, fills: dict[str, float], chars_per_token: float) -> int:
    sections = parse_template(path.read_text(encoding="utf-8"), path)
    tokens = CHAT_TEMPLATE_TOKENS
    for template in sections.values():
        placeholders = [
            m.group("named") or m.group("braced") for m in template.pattern.finditer(template.template)
        ]
        placeholders = [name for name in placeholders if name]
        fixed_text = template.safe_substitute({name: "" for name in placeholders})
        unknown = sorted(set(placeholders) - set(fills))
        if unknown:
            raise ValueError(
                f"{path.name} has placeholder(s) {unknown} with no worst-case size: give each its cap in "
                "tools/validate.py:token_budget (fills)"
            )
        tokens += len(fixed_text) / chars_per_token + sum(fills[name] for name in placeholders)
    return round(tokens)


def context_tokens(config: CragConfig) -> int:
    """The longest prompt + output the preset's LLM accepts."""
    if config.llm.backend == "vllm":
        return config.llm.max_model_len or 0
    return config.llm.context_tokens


def check_budget(config: CragConfig) -> tuple[Check, list[StageBudget]]:
    rows = token_budget(config)
    limit = context_tokens(config)
    too_long = [r for r in rows if limit and r.prompt_tokens + r.output_tokens > limit]
    details = [
        f"{r.stage + ':':<52} {r.calls} x ({r.prompt_tokens:>5} prompt + "
        f"{r.output_tokens:>4} output) = {r.total:>6}"
        for r in rows
    ]
    usual = sum(r.total for r in rows if "backup" not in r.stage)
    details.append(
        f"per question: <= {usual} tokens "
        f"({sum(r.calls * r.prompt_tokens for r in rows if 'backup' not in r.stage)} "
        f"prompt); context {limit}; batch of {config.batch_size}: <= {usual * config.batch_size}"
    )
    details += [
        f"{r.stage}: {r.prompt_tokens + r.output_tokens} tokens exceed the context of {limit}"
        for r in too_long
    ]
    return Check("token budget", "FAIL" if too_long or not limit else "PASS", details), rows


# --- the checks ------------------------------------------------------------------------------------


def check_runtime(config: CragConfig, gpus: int) -> Check:
    """What the backend needs besides weights: vllm for a vllm preset (the GPU count is reported;
    with fewer GPUs than the preset needs the system is built on the CPU)."""
    llm = config.llm
    if llm.backend != "vllm":
        return Check("runtime", "PASS", [f"{llm.backend} backend on the CPU"])
    if importlib.util.find_spec("vllm") is None:
        return Check(
            "runtime", "FAIL", ["vllm is not installed (it comes with the GPU image: requirements.txt)"]
        )
    details = [f"vllm installed, {gpus} GPU(s) visible"]
    if gpus < llm.tensor_parallel_size:
        details[0] += f" (< {llm.tensor_parallel_size}: the system is built on the CPU without the engine)"
    summary = quantization_summary(llm.model_path) if llm.model_path else None
    if summary and summary.get("desc_act"):
        details.append(
            "note: the GPTQ weights use desc_act (act-order); vLLM runs them on a slower path under TP"
        )
    return Check("runtime", "PASS", details)


def dry_answer(model: Any) -> list[str]:
    """One synthetic question through `model` the way the evaluator calls it; the answers."""
    batch_size = model.get_batch_size()
    if not isinstance(batch_size, int) or not 1 <= batch_size <= 16:
        raise ValueError(f"get_batch_size() returned {batch_size!r}; the evaluator needs an int from 1 to 16")
    answers = model.batch_generate_answer(json.loads(json.dumps(SYNTHETIC_BATCH)))
    if not isinstance(answers, list) or len(answers) != 1 or not isinstance(answers[0], str):
        raise ValueError(f"batch_generate_answer returned {answers!r}; expected a list of one string")
    return answers


def check_leaderboard_settings(config: CragConfig) -> Check:
    """The t4x4 preset runs on the leaderboard: every answer computed there, none replayed, and the
    answer policy answering (not observing, which spends the time of every answer a fit needs)."""
    problems = []
    if config.preset == "t4x4" and config.llm.reply_cache is not None:
        problems.append(
            f"llm.reply_cache is {config.llm.reply_cache!r}: the leaderboard must compute every "
            "reply; leave it unset (none) for t4x4"
        )
    if config.preset == "t4x4" and config.policy.observe:
        problems.append("policy.observe is on: it is for `python -m tools.fit` only; leave it off for t4x4")
    if problems:
        return Check("leaderboard settings", "FAIL", problems)
    cache = f"reply cache {config.llm.reply_cache}" if config.llm.reply_cache else "no reply cache"
    return Check("leaderboard settings", "PASS", [cache])


def backend_identity(config: LLMConfig) -> str:
    """The identity of the model `config` runs, as the reply cache keys on it (no model is loaded)."""
    from models.llm import create_backend

    backend = create_backend(dataclasses.replace(config, reply_cache=None))
    try:
        return backend.model_identity()
    finally:
        backend.close()


def check_fitted(config: CragConfig, identity: Callable[[LLMConfig], str] = backend_identity) -> Check:
    """The answer policy's fitted file, when one is named, was fitted to the preset's model."""
    name = "fitted answer policy"
    if config.policy.fitted is None:
        return Check(
            name,
            "PASS",
            [
                "none named: the preset's own options (their sources beside them, "
                "models/config/schema.py:PolicyConfig, presets.py)"
            ],
        )
    fitted = read_fitted(config.policy.fitted)
    try:
        model = identity(config.llm)
    except Exception as error:
        return Check(
            name,
            "FAIL",
            [
                f"{config.policy.fitted}: the preset's model cannot be identified "
                f"({type(error).__name__}: {error})"
            ],
        )
    data = fitted["data"]
    told = (
        f"{config.policy.fitted}: fitted on {data.get('questions', '?')} questions ({fitted['date']}); "
        f"replaces {', '.join(fitted['values']) or 'nothing'}"
    )
    if fitted["model"] != model:
        return Check(
            name,
            "FAIL",
            [
                told,
                f"fitted to {fitted['model']!r}",
                f"the preset runs {model!r}",
                f"refit with `python -m tools.fit --preset {config.preset} ...` on this model",
            ],
        )
    return Check(name, "PASS", [told, f"fitted to the preset's model: {model}"])


def validate(preset: str, overrides: dict[str, str] | None = None) -> list[Check]:
    os.environ["CRAG_PRESET"] = preset
    config = load_config(preset, overrides)
    checks = [check_aicrowd(config)]

    with block_network() as attempts:
        try:
            user_config = importlib.import_module("models.user_config")
            user_model_class = user_config.UserModel
            import_error = None
        except Exception as error:
            import_error = f"{type(error).__name__}: {error}"
    if import_error:
        checks.append(Check("import models.user_config", "FAIL", [import_error]))
    else:
        checks.append(
            network_check("import models.user_config", attempts, f"UserModel = {user_model_class.__name__}")
        )

    problems = missing_weights(config)
    checks.append(
        Check("weights and data files", "FAIL" if problems else "PASS", problems or ["all in place"])
    )
    gpus = visible_gpus() if config.llm.backend == "vllm" else 0
    on_gpus = config.llm.backend != "vllm" or gpus >= config.llm.tensor_parallel_size
    checks.append(check_runtime(config, gpus))
    checks.append(check_leaderboard_settings(config))
    checks.append(check_fitted(config))
    budget_check, _ = check_budget(config)
    checks.append(budget_check)

    non_blocking = ("aicrowd.json", "token budget", "fitted answer policy")
    blockers = [c.name for c in checks if c.status == "FAIL" and c.name not in non_blocking]
    if blockers:
        checks.append(Check("construct + dry answer", "SKIP", [f"blocked by: {', '.join(blockers)}"]))
        return checks
    if on_gpus:
        checks += construct_and_answer(user_model_class)
    else:
        checks += construct_and_answer(lambda: build_on_cpu(config), "on the CPU, LLM engine left out")
    return checks


def visible_gpus() -> int:
    try:
        import torch
    except ImportError:
        return 0
    return torch.cuda.device_count()


NO_ENGINE_ERROR = "no LLM engine while validating on the CPU"


class TokenizerOnlyLLM(LLMBackend):
    """The preset's LLM folder without its engine: config, tokenizer and chat template loaded by
    transformers, exact token counts, and no generation (each request fails, so stages fall back)."""

    name = "tokenizer-only"

    def __init__(self, model_path: str):
        from transformers import AutoConfig, AutoTokenizer

        AutoConfig.from_pretrained(model_path, local_files_only=True)
        self._tokenizer = AutoTokenizer.from_pretrained(model_path, local_files_only=True)
        self._tokenizer.apply_chat_template(
            [{"role": "user", "content": "hi"}], add_generation_prompt=True, tokenize=True
        )

    def generate(self, conversations: Sequence[Conversation], params: GenerationParams) -> list[Completion]:
        return [Completion(texts=[], error=NO_ENGINE_ERROR) for _ in conversations]

    def count_tokens(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False))


def build_on_cpu(config: CragConfig) -> Any:
    """The preset's CragSystem with every device on the CPU and a tokenizer-only LLM (vllm presets)."""
    from models.crag_system import CragSystem

    config = copy.deepcopy(config)
    config.retrieval.embedding_device = "cpu"
    config.retrieval.cross_encoder_device = "cpu"
    config.retrieval.cross_encoder_dtype = "float32"  # half precision is a GPU format
    llm = TokenizerOnlyLLM(config.llm.model_path) if config.llm.backend == "vllm" else None
    system = CragSystem(config, llm=llm)
    system.warm_up()  # loads every stage's weights, as UserModel() does
    return system


def construct_and_answer(build: Callable[[], Any], how: str = "UserModel()") -> list[Check]:
    from models.pipeline import STAGE_FAILED

    checks = []
    name = f"construct ({how})"
    with block_network() as attempts:
        started = time.perf_counter()
        try:
            model = build()
        except Exception as error:
            return [Check(name, "FAIL", [f"{type(error).__name__}: {error}"])]
        construct_seconds = time.perf_counter() - started
    checks.append(network_check(name, attempts, f"built in {construct_seconds:.1f}s"))

    with block_network() as attempts:
        started = time.perf_counter()
        try:
            answers = dry_answer(model)
        except Exception as error:
            checks.append(Check("dry answer", "FAIL", [f"{type(error).__name__}: {error}"]))
            return checks
        finally:
            close = getattr(model, "close", None)
            if callable(close):
                close()
        seconds = time.perf_counter() - started
    check = network_check("dry answer", attempts, f"{answers[0]!r} in {seconds:.1f}s")
    for trace in getattr(model, "last_traces", [])[:1]:
        used = ", ".join(
            f"{stage} {u.prompt_tokens}+{u.completion_tokens}" for stage, u in trace.tokens.items()
        )
        check.details.append(f"tokens used (prompt+output): {used or 'none'}")
        check.details += [f"{event.kind}: {event.label} {event.detail}".rstrip() for event in trace.events]
        unexpected = [
            f"{event.stage} failed: {event.detail}"
            for event in trace.events
            if event.what == STAGE_FAILED and NO_ENGINE_ERROR not in event.detail
        ]
        check.details += unexpected
        if unexpected:
            check.status = "FAIL"
    checks.append(check)
    return checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.validate", description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default=os.environ.get("CRAG_PRESET", "cpu"))
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.OPTION=VALUE",
        help="config override (repeatable), checked as part of the preset",
    )
    args = parser.parse_args(argv)
    try:
        checks = validate(args.preset, parse_overrides(args.set))
    except ValueError as error:
        parser.error(str(error))
    for check in checks:
        print(f"[{check.status}] {check.name}")
        for detail in check.details:
            print(f"       {detail}")
    failed = [c.name for c in checks if c.status == "FAIL"]
    print(f"preset {args.preset}: " + (f"FAILED ({', '.join(failed)})" if failed else "ready"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
