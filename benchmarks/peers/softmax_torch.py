#!/usr/bin/env python3
"""PyTorch peer for the softmax benchmark: torch.softmax(x, dim=-1) on random
normal inputs, f16 and f32, at the benchmark's shapes, timed with CUDA events
(10 warm-ups, median of 50). GB/s counts bytes read + written. Prints one
JSON object."""
import json

from cuda_timing import median_ms, start_peer

SHAPES = [(4096, 4096), (8192, 8192), (32768, 1024), (1024, 32768),
          (1024, 65536)]


def main():
    torch, result = start_peer()
    if torch is None:
        return 0
    for m, n in SHAPES:
        for name, dtype in (("f16", torch.float16), ("f32", torch.float32)):
            x = torch.randn(m, n, device="cuda", dtype=dtype) * 2
            ms = median_ms(lambda: torch.softmax(x, dim=-1))
            nbytes = 2 * m * n * x.element_size()
            result[f"{name}/{m}x{n}"] = {"median_ms": ms,
                                         "gbps": nbytes / ms / 1e6}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
