#!/usr/bin/env python3
"""PyTorch peer for the vector-add benchmark: torch.add and Tensor.copy_ on
2^28 random float32 values, timed with CUDA events (warm-up, median of 50).
Prints one JSON object."""
import json
import sys

from cuda_timing import cuda_torch, median_ms

N = 1 << 28


def main():
    torch, skipped = cuda_torch()
    if skipped:
        print(json.dumps({"skipped": skipped}))
        return 0
    a = torch.rand(N, device="cuda") * 2 - 1
    b = torch.rand(N, device="cuda") * 2 - 1
    c = torch.empty_like(a)
    add_ms = median_ms(lambda: torch.add(a, b, out=c))
    assert torch.equal(c, a + b)
    copy_ms = median_ms(lambda: c.copy_(a))
    print(json.dumps({
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "n": N,
        "torch.add": {"median_ms": add_ms, "gbps": 3 * 4 * N / add_ms / 1e6},
        "torch.copy_": {"median_ms": copy_ms, "gbps": 2 * 4 * N / copy_ms / 1e6},
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
