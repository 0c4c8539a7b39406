"""A faked 4x Tesla T4 (compute 7.5) vLLM platform, for `tools.check_t4x4` on machines without a GPU.

vLLM picks its platform once, on first use, and many of its modules keep a reference to that one
object. `install_fake_t4x4()` must therefore run before anything imports vllm: it loads only
`vllm.platforms`, makes the platform object the CUDA platform class with T4 answers to every
device question, and only then runs vllm's package initialisation. Nothing here touches a GPU;
vllm's compiled CUDA extension (which needs libcuda) is replaced by an empty module, since the
check never runs a kernel.

Not a script: tools/check_t4x4.py imports it.
"""

from __future__ import annotations

import importlib.util
import sys
import types

T4_NAME = "Tesla T4"
T4_CAPABILITY = (7, 5)
# nvidia-smi on a g4dn.12xlarge: 15,360 MiB per T4.
T4_TOTAL_MEMORY_BYTES = 15_360 * 1024 * 1024
T4_COUNT = 4


def install_fake_t4x4() -> None:
    """Make vLLM see four T4s. Raises RuntimeError when vllm was already imported."""
    if "vllm" in sys.modules:
        raise RuntimeError("install_fake_t4x4() must run before vllm is imported")
    spec = importlib.util.find_spec("vllm")
    if spec is None or spec.loader is None:
        raise RuntimeError("vllm is not installed (make check-t4x4 installs requirements.txt)")
    package = importlib.util.module_from_spec(spec)
    sys.modules["vllm"] = package
    sys.modules["vllm._C"] = types.ModuleType("vllm._C")

    import vllm.platforms as platforms

    placeholder = platforms.interface.UnspecifiedPlatform()
    platforms._current_platform = placeholder

    from vllm.platforms.cuda import CudaPlatformBase
    from vllm.platforms.interface import DeviceCapability

    class FakeT4Platform(CudaPlatformBase):
        @classmethod
        def get_device_capability(cls, device_id: int = 0) -> DeviceCapability:
            return DeviceCapability(*T4_CAPABILITY)

        @classmethod
        def get_device_name(cls, device_id: int = 0) -> str:
            return T4_NAME

        @classmethod
        def get_device_uuid(cls, device_id: int = 0) -> str:
            return f"GPU-fake-t4-{device_id}"

        @classmethod
        def get_device_total_memory(cls, device_id: int = 0) -> int:
            return T4_TOTAL_MEMORY_BYTES

        @classmethod
        def is_fully_connected(cls, physical_device_ids: list[int]) -> bool:
            # g4dn.12xlarge: four T4s on PCIe, no NVLink.
            return False

        @classmethod
        def log_warnings(cls) -> None:
            return None

    placeholder.__class__ = FakeT4Platform
    spec.loader.exec_module(package)

    import torch

    # Some of vllm's quantization code asks torch directly (e.g. GPTQ's BitBLAS compatibility probe).
    torch.cuda.get_device_capability = lambda device=None: T4_CAPABILITY
    torch.cuda.get_device_name = lambda device=None: T4_NAME

    import vllm._custom_ops as custom_ops
    import vllm.utils

    vllm.utils.cuda_device_count_stateless = lambda: T4_COUNT
    # The kernel library's own capability answers: every CUTLASS fp4 / fp8 / sparse / grouped GEMM
    # path needs compute >= 8.9 or 9.0, so all are False on a T4 (compute 7.5).
    for query in (
        "cutlass_scaled_mm_supports_fp4",
        "cutlass_scaled_mm_supports_fp8",
        "cutlass_scaled_mm_supports_block_fp8",
        "cutlass_sparse_scaled_mm_supported",
        "cutlass_group_gemm_supported",
    ):
        setattr(custom_ops, query, lambda capability: False)
