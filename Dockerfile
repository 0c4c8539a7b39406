# GPU image for the CRAG leaderboard (AWS g4dn.12xlarge: 4x T4, no network at run time).
#
# CUDA 12.4 matches the torch 2.6.0 wheels that vllm 0.8.5.post1 pins (requirements.txt). The
# devel flavour keeps nvcc and headers for kernels that Triton and xformers build on first use.
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04

ARG PYTHON=python3.11
ARG USER_NAME=aicrowd
ARG USER_ID=1001

ENV DEBIAN_FRONTEND=noninteractive \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH

# Python 3.11 (Ubuntu 22.04 ships 3.10) from the deadsnakes archive; -dev for Triton's launcher builds.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends software-properties-common gpg-agent \
    && add-apt-repository -y ppa:deadsnakes/ppa \
    && apt-get update \
    && apt-get install -y --no-install-recommends \
        ${PYTHON} ${PYTHON}-dev ${PYTHON}-venv build-essential git git-lfs ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && ${PYTHON} -m venv "${VIRTUAL_ENV}"

COPY requirements.txt /tmp/requirements.txt
RUN pip install --no-cache-dir -r /tmp/requirements.txt && rm /tmp/requirements.txt

RUN useradd --create-home --uid "${USER_ID}" --shell /bin/bash "${USER_NAME}"
USER ${USER_NAME}
WORKDIR /home/${USER_NAME}/app

# The code and the weights under models/ (Git LFS in the submission repository).
COPY --chown=${USER_NAME}:${USER_NAME} . .

# Run-time settings. The evaluator is offline: no hub look-ups, no usage reports. vLLM's V0 engine
# is the one that runs on Turing. The preset picks the 4x T4 configuration (models/config/presets.py).
ENV CRAG_PRESET=t4x4 \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    HF_HUB_DISABLE_TELEMETRY=1 \
    VLLM_NO_USAGE_STATS=1 \
    DO_NOT_TRACK=1 \
    VLLM_USE_V1=0 \
    CRAG_CACHE_DIR=/home/${USER_NAME}/.cache/crag

# Fail the build, not a submission, when a package, a weight or a data file is missing: the whole
# t4x4 system is built on the CPU (no GPU at build time; only the LLM engine is left out).
RUN python -m tools.validate --preset t4x4
