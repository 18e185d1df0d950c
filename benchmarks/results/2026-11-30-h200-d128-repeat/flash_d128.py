#!/usr/bin/env python3
"""SDPA FLASH at head_dim 128 (f16, bf16; causal and not; sequence 2048 to
16384; batch 4, 32 heads): TFLOP/s as in benchmarks/peers/attention_torch.py,
one JSON object keyed dtype/mode/N."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../peers"))
from cuda_timing import median_ms, start_peer  # noqa: E402


def main():
    torch, result = start_peer()
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    for dtype, name in ((torch.float16, "f16"), (torch.bfloat16, "bf16")):
        for n in (2048, 4096, 8192, 16384):
            q, k, v = (torch.randn(4, 32, n, 128, device="cuda", dtype=dtype)
                       for _ in range(3))
            for causal in (False, True):
                flops = 4 * 4 * 32 * n * n * 128 / (2 if causal else 1)
                with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                    ms = median_ms(lambda: F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal), runs=20)
                mode = "causal" if causal else "full"
                result[f"{name}/{mode}/{n}"] = flops / ms / 1e9
    print(json.dumps(result))


if __name__ == "__main__":
    main()
