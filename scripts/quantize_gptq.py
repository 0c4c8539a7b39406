"""Make the 4-bit GPTQ weights of Llama-3-70B-Instruct that the t4x4 preset serves (optional).

A ready-made export can be fetched instead (`python -m tools.weights fetch --preset t4x4`); this
recipe is for building it from the full-precision model, e.g. to calibrate on CRAG-like text.

Needs, on a separate machine (not the T4 box, not this repo's CPU environment):
  - one CUDA GPU with >= 24 GB (GPTQ works one decoder layer at a time) and ~160 GB of CPU RAM,
    ~140 GB of disk for the fp16 model; a few hours for 80 layers;
  - `pip install gptqmodel==7.7.0` (the maintained successor of auto-gptq; auto-gptq 0.7.1 with
    BaseQuantizeConfig(bits=4, group_size=128, desc_act=False) writes the same format);
  - access to meta-llama/Meta-Llama-3-70B-Instruct (gated: accept the licence, set HF_TOKEN).

Settings, chosen for vLLM's plain GPTQ kernels on T4 with tensor parallelism 4:
  - bits 4, group size 128: 70B weights shrink to ~37 GiB, ~9.3 GiB per GPU. 128 divides both the
    per-GPU input widths (8192/4 and 28672/4), as row-parallel sharding requires;
  - desc_act False: with activation order, vLLM cannot use the exllama kernel on row-parallel layers
    and falls back to a slower path; without it the accuracy cost at group size 128 is small;
  - symmetric quantization and the "gptq" checkpoint format (not gptq_v2), which vLLM 0.8.5 loads.

Calibration: chat-formatted CRAG-style prompts (questions with web-page text) match what the model
will see; this script takes any JSONL file with a "text" field, one calibration sample per line.

    python scripts/quantize_gptq.py --calibration calib.jsonl \
        --output models/weights/Meta-Llama-3-70B-Instruct-GPTQ
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def read_calibration(path: Path, samples: int, max_chars: int) -> list[str]:
    texts = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line).get("text", "").strip()
            if text:
                texts.append(text[:max_chars])
            if len(texts) == samples:
                break
    if not texts:
        raise SystemExit(f"{path} holds no lines with a non-empty 'text' field")
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(
        description="GPTQ 4-bit quantization of Llama-3-70B-Instruct for vLLM on T4"
    )
    parser.add_argument(
        "--model", default="meta-llama/Meta-Llama-3-70B-Instruct", help="hub id or local folder"
    )
    parser.add_argument("--calibration", type=Path, required=True, help="JSONL with a 'text' field per line")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--samples", type=int, default=256, help="calibration samples")
    parser.add_argument("--max-chars", type=int, default=8000, help="characters kept per sample (~2k tokens)")
    parser.add_argument("--bits", type=int, default=4)
    parser.add_argument("--group-size", type=int, default=128)
    args = parser.parse_args()

    from gptqmodel import GPTQModel, QuantizeConfig

    calibration = read_calibration(args.calibration, args.samples, args.max_chars)
    quantize_config = QuantizeConfig(
        bits=args.bits, group_size=args.group_size, desc_act=False, sym=True, format="gptq"
    )
    model = GPTQModel.load(args.model, quantize_config)
    model.quantize(calibration, batch_size=1)
    model.save(str(args.output))
    print(
        f"Saved the {args.bits}-bit GPTQ model to {args.output}; check it with "
        f"`python -m tools.weights check --preset t4x4`"
    )


if __name__ == "__main__":
    main()
