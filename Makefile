# Two entry points: `make run` (local evaluation on the bundled sample) and `make test`.
# Both create .venv on first use; later runs reinstall only when requirements-cpu.txt changes.

VENV ?= .venv
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.installed-cpu
PRESET ?= cpu
DATA ?= data/sample.jsonl
OUT ?= outputs/sample
# llama.cpp is built for a portable AVX2 baseline: a native build enables AMX kernels on CPUs that
# report AMX, and those crash (segfault in decode) on virtual machines that do not grant AMX state.
LLAMA_CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

.PHONY: setup run test clean

setup: $(STAMP)

# The GPU lock pins every package both environments share; torch (and the packages only torch needs)
# is the one exception, see the README.
$(STAMP): requirements-cpu.txt requirements.txt
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	grep -vE '^(torch|torchaudio|torchvision|xformers|triton|sympy|mpmath)==' requirements.txt > $(VENV)/gpu-lock-constraints.txt
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PYTHON) -m pip install --quiet -r requirements-cpu.txt -c $(VENV)/gpu-lock-constraints.txt
	touch $(STAMP)

run: setup
	$(PYTHON) local_evaluation.py --data $(DATA) --out $(OUT) --preset $(PRESET)

test: setup
	$(PYTHON) -m pytest

clean:
	rm -rf outputs .pytest_cache
