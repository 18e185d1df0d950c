# Builds the three kernel folders that ab.sh profiles, from the repository
# root after `scripts/gpu/run-gpu.sh prepare` (the new kernels in
# gpu-bundle/kernels) with the kernels of b5027b6 (before the divisibility
# promise) copied to /tmp/kold beforehand:
#   kernels-old  b5027b6: versioned pipelined loop, masked scalar fallbacks
#   kernels      b4dff4d: _div8 (used in place, not copied)
#   kernels-o2   b4dff4d's PTX through ptxas -O2 instead of -O3
import json, os, re, shutil, subprocess

b = "gpu-bundle"
pat = re.compile(r"^(gemm_f16_f(16|32)_(128x128x64_t128_s3|128x256x64_t256_s3_r8|"
                 r"256x128x64_t256_s3_r8)(_bias_gelu(_tanh)?)?(_div8)?|"
                 r"attention_(causal_)?f16_d(64|128)_128x(64|128)_t128_s2)$")


def make(src_dir, dst, o2=False):
    index = json.load(open(f"{src_dir}/index.json"))
    os.makedirs(dst, exist_ok=True)
    kernels = [k for k in index["kernels"] if pat.match(k["name"])]
    for k in kernels:
        shutil.copy(f"{src_dir}/{k['manifest']}", dst)
        if o2:
            subprocess.run(["/usr/local/cuda/bin/ptxas", "-arch=sm_90", "-O2",
                            f"{src_dir}/{k['ptx']}", "-o", f"{dst}/{k['cubin']}"],
                           check=True)
        else:
            shutil.copy(f"{src_dir}/{k['cubin']}", dst)
    index["kernels"] = kernels
    json.dump(index, open(f"{dst}/index.json", "w"), indent=1)


make("/tmp/kold", f"{b}/kernels-old")
make(f"{b}/kernels", f"{b}/kernels-o2", o2=True)
