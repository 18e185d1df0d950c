#!/usr/bin/env python3
"""PyTorch peer for the attention benchmark: scaled_dot_product_attention
with the FLASH (FlashAttention-2) and cuDNN backends, f16 and bf16, batch
4, 32 heads, head_dim 64 and 128, causal and not, at the benchmark's sequence
lengths; CUDA events, 10 warm-ups, median of 20. TFLOP/s = 4 B H N^2 D / t,
halved for causal. Prints one JSON object; keys are
backend/d{D}/{mode}/{N} for f16 and backend/bf16/d{D}/{mode}/{N} for bf16."""
import json

from cuda_timing import median_ms, start_peer

SEQUENCES = [1024, 2048, 4096, 8192, 16384]


def main():
    torch, result = start_peer()
    if torch is None:
        return 0
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    backends = {"flash": SDPBackend.FLASH_ATTENTION,
                "cudnn": SDPBackend.CUDNN_ATTENTION}
    for dtype, prefix in ((torch.float16, ""), (torch.bfloat16, "bf16/")):
        for d in (64, 128):
            for n in SEQUENCES:
                q, k, v = (torch.randn(4, 32, n, d, device="cuda", dtype=dtype)
                           for _ in range(3))
                for causal in (False, True):
                    flops = 4 * 4 * 32 * n * n * d / (2 if causal else 1)
                    mode = "causal" if causal else "full"
                    for name, backend in backends.items():
                        key = f"{name}/{prefix}d{d}/{mode}/{n}"
                        try:
                            with sdpa_kernel(backend):
                                ms = median_ms(
                                    lambda: F.scaled_dot_product_attention(
                                        q, k, v, is_causal=causal), runs=20)
                            result[key] = {"median_ms": ms,
                                           "tflops": flops / ms / 1e9}
                        except RuntimeError as error:
                            result[key] = {"error": str(error)[:200]}
                del q, k, v
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
