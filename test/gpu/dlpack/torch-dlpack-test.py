#!/usr/bin/env python3
"""PyTorch tensors through DLPack into the kernel library, without copies.

Loads libtile-dlpack-gemm.so (dlpack-gemm.cpp) with ctypes and runs the
library's GEMM on torch tensors handed over as DLPack capsules: f16 x f16
-> f32, A as a transposed view (`x.t()`), bf16 with a fused bias + GELU,
each against float64. Exits 77 (skipped) without PyTorch or a GPU, 1 on a
wrong result or an error.

  torch-dlpack-test.py LIBRARY_SO KERNEL_DIR
"""
import ctypes
import sys


def main():
    so, kernel_dir = sys.argv[1], sys.argv[2]
    try:
        import torch
        import torch.utils.dlpack
    except ImportError as error:
        print(f"skipped: no PyTorch ({error})")
        return 77
    if not torch.cuda.is_available():
        print("skipped: PyTorch sees no CUDA GPU")
        return 77
    lib = ctypes.CDLL(so)
    lib.tile_dlpack_gemm.restype = ctypes.c_int
    lib.tile_dlpack_gemm.argtypes = [ctypes.c_char_p] + [ctypes.c_void_p] * 3 + [
        ctypes.c_char_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

    def gemm(a, b, c, epilogue="none", bias=None):
        # The capsules stay alive (and unconsumed) until the call returns;
        # their destructors call the tensors' deleters afterwards.
        capsules = [torch.utils.dlpack.to_dlpack(t) for t in (a, b, c)]
        pointers = [get_pointer(cap, b"dltensor") for cap in capsules]
        bias_capsule = torch.utils.dlpack.to_dlpack(bias) if bias is not None else None
        bias_pointer = get_pointer(bias_capsule, b"dltensor") if bias_capsule else None
        message = ctypes.create_string_buffer(8192)
        rc = lib.tile_dlpack_gemm(kernel_dir.encode(), *pointers, epilogue.encode(),
                                  bias_pointer, message, len(message))
        return rc, message.value.decode()

    torch.manual_seed(0)
    failures = 0

    def check(name, got, ref, tolerance, report):
        nonlocal failures
        error = ((got.double() - ref).norm() / ref.norm()).item()
        ok = error < tolerance
        failures += not ok
        print(f"{'ok' if ok else 'FAILED'}: {name}: relative error {error:.2e}"
              f" (tolerance {tolerance:g})\n{report}")

    m, n, k = 1000, 600, 264
    a = torch.rand(m, k, device="cuda", dtype=torch.float16) * 2 - 1
    b = torch.rand(k, n, device="cuda", dtype=torch.float16) * 2 - 1
    c = torch.zeros(m, n, device="cuda", dtype=torch.float32)
    ref = a.double() @ b.double()
    rc, report = gemm(a, b, c)
    if rc:
        print(f"FAILED: f16 gemm: {report}")
        return 1
    check("f16 x f16 -> f32", c, ref, 1e-3, report)

    # A stored K x M, passed as torch's transposed view.
    a_stored = a.t().contiguous()
    c.zero_()
    rc, report = gemm(a_stored.t(), b, c)
    if rc:
        print(f"FAILED: transposed view: {report}")
        return 1
    check("A as a.t() view", c, ref, 1e-3, report)

    # bf16 with a fused bias + GELU into bf16.
    ab = a.to(torch.bfloat16)
    bb = b.to(torch.bfloat16)
    bias = torch.rand(n, device="cuda", dtype=torch.bfloat16) - 0.5
    cb = torch.zeros(m, n, device="cuda", dtype=torch.bfloat16)
    rc, report = gemm(ab, bb, cb, "bias_gelu", bias)
    if rc:
        print(f"FAILED: bf16 bias_gelu: {report}")
        return 1
    x = ab.double() @ bb.double() + bias.double()
    check("bf16 bias + GELU", cb, torch.nn.functional.gelu(x), 1e-2, report)

    # A tensor in host memory is refused with the reason.
    rc, report = gemm(a.cpu(), b, c)
    refused = rc == 1 and "CUDA device memory" in report
    failures += not refused
    print(f"{'ok' if refused else 'FAILED'}: a host tensor is refused: {report}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
