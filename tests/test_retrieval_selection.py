from models.config import RetrievalConfig
from models.retrieval.candidates import Candidate
from models.retrieval.selection import Ranked, select_evidence
from models.retrieval.tokens import TokenCounter
from tests.doubles import ScriptedLLM

WORDS = TokenCounter(ScriptedLLM([]), tokens_per_piece=1.0)  # counts whitespace-separated words


def chunk(words: int, tag: str) -> Candidate:
    return Candidate(" ".join([tag] * words), "sentence")


def config(**overrides) -> RetrievalConfig:
    base = {"max_reference_tokens": 10, "top_k_chunks": 10, "min_references": 0, "max_table_chars": 1000}
    return RetrievalConfig(**{**base, **overrides})


def test_token_budget_skips_what_does_not_fit_but_keeps_smaller_later_items():
    ranked = [Ranked(chunk(6, "a"), 0.9), Ranked(chunk(6, "b"), 0.8), Ranked(chunk(4, "c"), 0.7)]
    evidence = select_evidence(ranked, 0.5, config(), WORDS)
    assert [text.split()[0] for text in evidence.chunks] == ["a", "c"]
    assert evidence.top_relevance == 0.9


def test_minimum_relevance_cuts_low_items_but_min_references_keeps_the_best():
    ranked = [Ranked(chunk(1, "a"), 0.4), Ranked(chunk(1, "b"), 0.1)]
    assert select_evidence(ranked, 0.5, config(), WORDS).chunks == []
    assert select_evidence(ranked, 0.5, config(min_references=1), WORDS).chunks == ["a"]
    assert select_evidence(ranked, 0.05, config(), WORDS).chunks == ["a", "b"]


def test_count_cap_applies_to_text_references():
    ranked = [Ranked(chunk(1, tag), 0.9) for tag in "abcd"]
    assert select_evidence(ranked, 0.0, config(top_k_chunks=2), WORDS).chunks == ["a", "b"]


def test_a_kept_table_replaces_its_rows_and_later_rows_are_skipped():
    row1 = Candidate("Company: Salesforce", "row", table_group=7)
    table = Candidate("| Company |\n|---|\n| Salesforce |\n| Intel |", "table", table_group=7)
    row2 = Candidate("Company: Intel", "row", table_group=7)
    other = chunk(1, "z")
    ranked = [Ranked(row1, 0.9), Ranked(table, 0.8), Ranked(row2, 0.7), Ranked(other, 0.6)]
    evidence = select_evidence(ranked, 0.0, config(max_reference_tokens=11), WORDS)
    assert evidence.tables == [table.text]
    assert evidence.chunks == ["z"]
    assert evidence.references == ["z", table.text]


def test_table_character_cap_ranks_tables_by_relevance():
    big = Candidate("x" * 60, "table", table_group=1)
    small = Candidate("y" * 30, "table", table_group=2)
    best = Candidate("w" * 50, "table", table_group=3)
    ranked = [Ranked(best, 0.9), Ranked(big, 0.8), Ranked(small, 0.7)]
    evidence = select_evidence(ranked, 0.0, config(max_table_chars=100), WORDS)
    assert evidence.tables == [best.text, small.text]


def test_estimated_token_counts_without_an_llm():
    counter = TokenCounter(None, tokens_per_piece=1.3)
    assert counter.count("Salesforce rose 3.1%") == 8  # 6 pieces: Salesforce rose 3 . 1 %
    assert counter.count("") == 0
    assert "estimate" in counter.method


def test_nothing_ranked_gives_empty_evidence():
    evidence = select_evidence([], 0.5, config(min_references=2), WORDS)
    assert evidence.references == [] and evidence.top_relevance is None


def test_near_duplicates_of_kept_references_are_skipped():
    first = Candidate("The best Dow stocks are Apple (AAPL) and Visa (V).", "sentence")
    copy = Candidate("The best Dow stocks are Apple ( AAPL ) and Visa ( V )", "sentence")
    other = Candidate("Salesforce rose the most.", "sentence")
    ranked = [Ranked(first, 0.9), Ranked(copy, 0.8), Ranked(other, 0.7)]
    evidence = select_evidence(ranked, 0.0, config(max_reference_tokens=100), WORDS)
    assert evidence.chunks == [first.text, other.text]


PASSAGES = [["s0 a.", "s1 b.", "s2 c.", "s3 d.", "s4 e.", "s5 f."], ["t0 g.", "t1 h."]]


def sentence(passage: int, position: int) -> Candidate:
    return Candidate(PASSAGES[passage][position], "sentence", passage=passage, position=position)


def test_fixed_windows_bring_neighbours_and_touching_windows_merge():
    ranked = [Ranked(sentence(0, 4), 0.9), Ranked(sentence(1, 0), 0.8), Ranked(sentence(0, 2), 0.7)]
    evidence = select_evidence(
        ranked, 0.0, config(max_reference_tokens=100, context_mode="fixed"), WORDS, PASSAGES
    )
    # 0:4 shows 3-5, 0:2 adds 1-2 (3 is already shown): one run 1-5, placed at its best rank.
    assert evidence.chunks == ["s1 b. s2 c. s3 d. s4 e. s5 f.", "t0 g. t1 h."]


def test_a_sentence_already_shown_as_context_costs_nothing_and_is_not_repeated():
    ranked = [Ranked(sentence(0, 1), 0.9), Ranked(sentence(0, 2), 0.8)]
    limits = config(max_reference_tokens=100, top_k_chunks=1, context_mode="fixed")
    evidence = select_evidence(ranked, 0.0, limits, WORDS, PASSAGES)
    assert evidence.chunks == ["s0 a. s1 b. s2 c."]


def test_context_stays_within_the_unit_size_cap():
    ranked = [Ranked(sentence(0, 2), 0.9)]
    evidence = select_evidence(ranked, 0.0, config(unit_max_chars=12, context_mode="fixed"), WORDS, PASSAGES)
    assert evidence.chunks == ["s1 b. s2 c."]


def test_questions_asking_for_several_things_keep_more_units():
    ranked = [Ranked(chunk(1, tag), 0.9) for tag in "abcdef"]
    assert len(select_evidence(ranked, 0.0, config(top_k_chunks=2, list_top_k_chunks=5), WORDS).chunks) == 2
    several = select_evidence(
        ranked, 0.0, config(top_k_chunks=2, list_top_k_chunks=5), WORDS, wants_list=True
    )
    assert len(several.chunks) == 5


BIOGRAPHY = [
    "Harold Ramis was an American actor, comedian and director from Chicago.",
    "He was born on November 21, 1944, in Chicago, Illinois.",
    "Ramis co-wrote Animal House, Meatballs and Caddyshack with his friends.",
    "The films Ramis directed include the following:",
    "Caddyshack (1980)",
    "Groundhog Day (1993)",
    "Analyze This (1999)",
    "What was the last film that Harold Ramis directed himself?",
    "Year One, released in 2009, was the last film that Ramis directed.",
    "Born",
    "November 21, 1944",
]


def shown_alone(position: int, **overrides) -> list[str]:
    candidate = Candidate(BIOGRAPHY[position], "sentence", passage=0, position=position)
    limits = config(max_reference_tokens=1000, **overrides)
    return select_evidence([Ranked(candidate, 0.9)], 0.0, limits, WORDS, [BIOGRAPHY]).chunks


def test_adaptive_window_adds_only_the_neighbours_a_sentence_needs():
    # A plain sentence stands alone.
    assert shown_alone(2) == [BIOGRAPHY[2]]
    # A pronoun needs its antecedent.
    assert shown_alone(1) == [" ".join(BIOGRAPHY[0:2])]
    # A sentence ending with ':' brings the list it opens (within list_continuation_sentences).
    assert shown_alone(3, list_continuation_sentences=2) == [" ".join(BIOGRAPHY[3:6])]
    # A question brings its answer.
    assert shown_alone(7) == [" ".join(BIOGRAPHY[7:9])]
    # A short line (a label or a bare value) brings both neighbours.
    assert shown_alone(9) == [" ".join(BIOGRAPHY[8:11])]
    # Fixed windows take a neighbour on each side whatever the sentence says.
    assert shown_alone(2, context_mode="fixed") == [" ".join(BIOGRAPHY[1:4])]


def test_a_sentence_is_shown_once_whatever_passage_or_window_it_comes_from():
    snippet = ["He was born on November 21, 1944, in Chicago, Illinois."]
    passages = [BIOGRAPHY, snippet]
    ranked = [
        Ranked(Candidate(snippet[0], "sentence", passage=1, position=0), 0.9),
        Ranked(Candidate(BIOGRAPHY[0], "sentence", passage=0, position=0), 0.8),
        Ranked(Candidate(BIOGRAPHY[1], "sentence", passage=0, position=1), 0.7),
    ]
    evidence = select_evidence(ranked, 0.0, config(max_reference_tokens=1000), WORDS, passages)
    # The snippet's sentence is shown; the page's copy is neither shown again alone nor as context.
    assert evidence.chunks == [snippet[0], BIOGRAPHY[0]]


def test_a_shown_sentence_glued_inside_a_longer_one_is_cut_out_but_a_short_label_is_not():
    passages = [
        ["Ex Machina won the Oscar in visual effects on Sunday night."],
        ["Share this article Ex Machina won the Oscar in visual effects on Sunday night."],
        ["Director"],
        ["Director: Alex Garland wrote and directed the film."],
    ]
    ranked = [
        Ranked(Candidate(text[0], "sentence", passage=i, position=0), 0.9 - i / 10)
        for i, text in enumerate(passages)
    ]
    evidence = select_evidence(ranked, 0.0, config(max_reference_tokens=1000), WORDS, passages)
    assert evidence.chunks == [passages[0][0], "Share this article", "Director", passages[3][0]]


def test_no_normalised_sentence_appears_twice_in_a_questions_references():
    """A property over many shuffled pools: passages repeating each other's sentences (page bodies,
    snippets, mirrors), every sentence ranked in a random order, every context mode."""
    import random

    from models.retrieval.candidates import text_key

    generator = random.Random(7)
    facts = [f"Fact number {i} says something about topic {i % 5}." for i in range(30)]
    for trial in range(60):
        passages = [generator.sample(facts, generator.randint(2, 8)) for _ in range(generator.randint(1, 6))]
        passages.append([generator.choice(facts).upper().replace(".", " !")])  # a differently written copy
        ranked = [
            Ranked(Candidate(text, "sentence", passage=p, position=i), generator.random())
            for p, sentences in enumerate(passages)
            for i, text in enumerate(sentences)
        ]
        generator.shuffle(ranked)
        mode = generator.choice(["adaptive", "fixed"])
        limits = config(max_reference_tokens=400, top_k_chunks=40, context_mode=mode, max_word_overlap=1.1)
        evidence = select_evidence(ranked, 0.0, limits, WORDS, passages)
        shown = " | ".join(text_key(chunk) for chunk in evidence.chunks)
        for fact in facts:
            assert f" {shown} ".count(f" {text_key(fact)} ") <= 1, (trial, fact, evidence.chunks)
