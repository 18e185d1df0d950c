// -tile-approximate-math (ApproximateMath.cpp): an f32 math.tanh that
// allows an approximate function (fastmath<afn>) becomes llvm.intr.tanh with
// the afn flag (also from fastmath<fast>), which the NVPTX back end emits as one tanh.approx.f32
// (tile-kernels.mlir's GELUTANH checks the PTX); a tanh without afn, an f16
// one and a vector one stay math.tanh, for convert-gpu-to-nvvm's libdevice
// call. The pass runs on any op (here the gpu.module, as the pipeline nests
// it, and a builtin module).
//
// RUN: tile-opt %s --tile-approximate-math | FileCheck %s
// RUN: tile-opt %s --pass-pipeline='builtin.module(gpu.module(tile-approximate-math))' | FileCheck %s --check-prefix=NESTED

// CHECK-LABEL: gpu.func @tanh_forms
// CHECK-SAME: (%[[X:.*]]: f32, %[[H:.*]]: f16, %[[V:.*]]: vector<2xf32>)
// CHECK-NEXT: %[[FAST:.*]] = llvm.intr.tanh(%[[X]]) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// CHECK-NEXT: %[[EXACT:.*]] = math.tanh %[[X]] : f32
// CHECK-NEXT: %[[FASTER:.*]] = llvm.intr.tanh(%[[X]]) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// CHECK-NEXT: %[[HF:.*]] = math.tanh %[[H]] fastmath<afn> : f16
// CHECK-NEXT: %[[VF:.*]] = math.tanh %[[V]] fastmath<afn> : vector<2xf32>
// CHECK-NEXT: gpu.return %[[FAST]], %[[EXACT]], %[[FASTER]], %[[HF]], %[[VF]]
// NESTED-LABEL: gpu.func @tanh_forms
// NESTED-NEXT: llvm.intr.tanh
// NESTED-NEXT: math.tanh %{{.*}} : f32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tanh_forms(%x: f32, %h: f16, %v: vector<2xf32>) -> (f32, f32, f32, f16, vector<2xf32>) {
      %fast = math.tanh %x fastmath<afn> : f32
      %exact = math.tanh %x : f32
      %faster = math.tanh %x fastmath<fast> : f32
      %hf = math.tanh %h fastmath<afn> : f16
      %vf = math.tanh %v fastmath<afn> : vector<2xf32>
      gpu.return %fast, %exact, %faster, %hf, %vf : f32, f32, f32, f16, vector<2xf32>
    }
  }
}
