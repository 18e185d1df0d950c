"""CUDA-event timing shared by the PyTorch peer scripts."""
import statistics


def cuda_torch():
    """(torch, None) when PyTorch sees a CUDA GPU, else (None, why not)."""
    try:
        import torch
    except ImportError as error:
        return None, f"no torch: {error}"
    if not torch.cuda.is_available():
        return None, "no CUDA GPU"
    return torch, None


def start_peer():
    """(torch, {"device": ..., "torch": version}) when PyTorch sees a CUDA
    GPU; otherwise prints {"skipped": why} (the peer's whole report) and
    returns (None, None)."""
    import json
    torch, skipped = cuda_torch()
    if skipped:
        print(json.dumps({"skipped": skipped}))
        return None, None
    return torch, {"device": torch.cuda.get_device_name(),
                   "torch": torch.__version__}


def median_ms(fn, runs=50, warmup=10):
    """Median of `runs` CUDA-event timings of fn() after `warmup` calls."""
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)
