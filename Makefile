# Two entry points: `make run` (local evaluation on the bundled sample) and `make test` (`make lint`,
# then the test suite). Both create .venv on first use; later runs reinstall only when
# requirements-cpu.txt changes.
# `make check-t4x4` checks the leaderboard preset in the GPU image's packages, without a GPU.

VENV ?= .venv
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.installed-cpu
PRESET ?= cpu
DATA ?= data/sample.jsonl
OUT ?= outputs/sample
# llama.cpp is built for a portable AVX2 baseline: a native build enables AMX kernels on CPUs that
# report AMX, and those crash (segfault in decode) on virtual machines that do not grant AMX state.
LLAMA_CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

# The GPU image's packages (requirements.txt: vllm 0.8.5.post1, CUDA torch; several GB, cached by pip).
VENV_T4X4 ?= .venv-t4x4
T4X4_PYTHON := $(VENV_T4X4)/bin/python
T4X4_STAMP := $(VENV_T4X4)/.installed-gpu-lock

.PHONY: setup run lint test check-t4x4 clean

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

# ruff over the repository (its rules and its layout), mypy over models/ (configured in pyproject.toml).
lint: setup
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy

test: setup lint
	$(PYTHON) -m pytest

$(T4X4_STAMP): requirements.txt requirements-check-t4x4.txt
	test -x $(T4X4_PYTHON) || python3 -m venv $(VENV_T4X4)
	$(T4X4_PYTHON) -m pip install --quiet --upgrade pip
	$(T4X4_PYTHON) -m pip install --quiet -r requirements.txt
	$(T4X4_PYTHON) -m pip install --quiet -r requirements-check-t4x4.txt -c requirements.txt
	touch $(T4X4_STAMP)

# The t4x4 CragSystem through the real vLLM front end and V0 engine on a faked 4x T4 (tools/check_t4x4.py).
check-t4x4: $(T4X4_STAMP)
	$(T4X4_PYTHON) -m tools.check_t4x4

clean:
	rm -rf outputs .pytest_cache
