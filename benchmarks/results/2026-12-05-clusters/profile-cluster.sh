#!/usr/bin/env bash
# Why the _cm2 kernels run at 0.6x of their twins: the clusters the driver
# says fit, and ncu's launch statistics of one cm2 launch at 4096^3.
set -u
cd "$(dirname "$0")/.."
bundle=$PWD/gpu-bundle
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
python3 - "$bundle/kernels" <<'PY' 2>&1 | tee "$out/occupancy.txt"
import ctypes, json, os, sys
cu = ctypes.CDLL("libcuda.so.1")
assert cu.cuInit(0) == 0
dev = ctypes.c_int(); cu.cuDeviceGet(ctypes.byref(dev), 0)
ctx = ctypes.c_void_p(); cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev); cu.cuCtxSetCurrent(ctx)
class Cfg(ctypes.Structure):
    _fields_ = [("gx", ctypes.c_uint), ("gy", ctypes.c_uint), ("gz", ctypes.c_uint),
                ("bx", ctypes.c_uint), ("by", ctypes.c_uint), ("bz", ctypes.c_uint),
                ("smem", ctypes.c_uint), ("stream", ctypes.c_void_p),
                ("attrs", ctypes.c_void_p), ("nattrs", ctypes.c_uint)]
d = sys.argv[1]
for name in ["gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent_cm2",
             "gemm_f16_f16_256x128x64_t640_s4_r8_div8_ws_tma32_persistent_cm2"]:
    man = json.load(open(os.path.join(d, name + ".manifest.json")))["kernels"][0]
    data = open(os.path.join(d, name + ".cubin"), "rb").read()
    mod = ctypes.c_void_p(); r = cu.cuModuleLoadData(ctypes.byref(mod), data)
    fn = ctypes.c_void_p(); cu.cuModuleGetFunction(ctypes.byref(fn), mod, man["name"].encode())
    smem = man["dynamic_shared_memory"]
    cu.cuFuncSetAttribute(fn, 8, smem)  # MAX_DYNAMIC_SHARED_SIZE_BYTES
    for gx in (132, 264):
        cfg = Cfg(gx, 1, 1, man["block"][0], 1, 1, smem, None, None, 0)
        n = ctypes.c_int(-1)
        r = cu.cuOccupancyMaxActiveClusters(ctypes.byref(n), fn, ctypes.byref(cfg))
        print(name, "grid", gx, "rc", r, "max active clusters", n.value)
PY
sub=/tmp/k-one
python3 scripts/gpu/kernel-subset.py $sub "$bundle/kernels" \
  '^gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent(_cm2)?$'
for v in gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent_cm2 gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent; do
  TILE_KERNEL_DIR=$sub timeout 150 ncu --launch-skip 3 --launch-count 1 --clock-control none \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    "$bundle/bin/tile-bench-gemm" --benchmark_filter="^$v/4096x4096x4096/" > "$out/ncu-$v.txt" 2>&1
  echo "ncu $v rc=$?"
  grep -E "Duration|Grid Size|Cluster Size|Cluster Scheduling|Max Active Clusters|Registers Per|Waves Per SM|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|Stall|Issued Warp|No Eligible|Warp Cycles Per Issued" "$out/ncu-$v.txt" | head -30
done
