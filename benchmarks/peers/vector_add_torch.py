#!/usr/bin/env python3
"""PyTorch peer for the vector-add benchmark: torch.add and Tensor.copy_ on
2^28 random float32 values, timed with CUDA events (warm-up, median of 50).
Prints one JSON object."""
import json
import sys

from cuda_timing import median_ms, start_peer

N = 1 << 28


def main():
    torch, result = start_peer()
    if torch is None:
        return 0
    a = torch.rand(N, device="cuda") * 2 - 1
    b = torch.rand(N, device="cuda") * 2 - 1
    c = torch.empty_like(a)
    add_ms = median_ms(lambda: torch.add(a, b, out=c))
    assert torch.equal(c, a + b)
    copy_ms = median_ms(lambda: c.copy_(a))
    result.update({
        "n": N,
        "torch.add": {"median_ms": add_ms, "gbps": 3 * 4 * N / add_ms / 1e6},
        "torch.copy_": {"median_ms": copy_ms, "gbps": 2 * 4 * N / copy_ms / 1e6},
    })
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
