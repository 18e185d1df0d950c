#!/usr/bin/env bash
# Session 35 (2026-12-05), H200: the GELUs without libdevice on the GPU (tests, sanitizers, which GELU
# cuBLASLt computes, fused epilogue benchmarks).
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $out/gpu.txt
python3 scripts/gpu/kernel-subset.py /tmp/gelu $b/kernels '_bias_gelu'
python3 scripts/gpu/kernel-subset.py /tmp/newgelu $b/kernels '^gemm_f16_f16_.*_bias_gelu(_tanh)?_div8_ws_tma64(_persistent)?$'
ls /tmp/newgelu
cat > /tmp/lt.py <<'PY'
import torch, math
torch.manual_seed(0)
for dt in (torch.float32, torch.float16):
    m, n, k = 1024, 1024, 256
    a = (torch.randn(m, k, device="cuda") * (2.0 / math.sqrt(k))).to(dt)
    b = torch.randn(k, n, device="cuda").to(dt)
    bias = (torch.randn(n, device="cuda") * 0.5).to(dt)
    torch.backends.cuda.matmul.allow_tf32 = False
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = torch._addmm_activation(bias, a, b, use_gelu=True)
        torch.cuda.synchronize()
    names = sorted({e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA})
    x = a.double() @ b.double() + bias.double()
    erf = 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
    th = 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    o = out.double()
    print(dt, "kernels:", names)
    print("  |x| max %.2f; erf vs tanh GELU: max %.2e" % (x.abs().max(), (erf - th).abs().max()))
    for label, ref in (("erf", erf), ("tanh", th)):
        d = (o - ref).abs()
        print("  cuBLASLt GELU_BIAS vs %-4s GELU: max abs %.3e, mean abs %.3e, norm rel %.3e" %
              (label, d.max(), d.mean(), (d.norm() / ref.norm())))
print("torch", torch.__version__, "cuda", torch.version.cuda)
PY
python3 /tmp/lt.py 2>&1 | tee $out/cublaslt-gelu.txt
TILE_KERNEL_DIR=/tmp/gelu timeout 240 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.*:BiasGeluGpu.*:LibraryGpu.*Gemm*' > $out/gelu-tests.log 2>&1; echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |relative error|error" $out/gelu-tests.log | head -30
for tool in memcheck racecheck synccheck; do
  TILE_KERNEL_DIR=/tmp/newgelu timeout 100 compute-sanitizer --tool $tool $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' > /tmp/san-$tool.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/san-$tool.log | tr '\n' ' ')"
  cat /tmp/san-$tool.log >> $out/sanitizer.log
done
TILE_KERNEL_DIR=$b/kernels timeout 280 $b/bin/tile-bench-gemm --benchmark_filter='^epilogue_(paired_.*_ws.*|library_.*|cublaslt_gelu_bias)/' --benchmark_out=$out/bench-epilogue.json --benchmark_out_format=json > $out/bench.log 2>&1; echo "bench rc=$?"
scripts/gpu/hopper-gemm.sh summarize $out/bench-epilogue.json
