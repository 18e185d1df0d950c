#!/usr/bin/env python3
"""How far the frontend's GELUs (fe::gelu, fe::geluTanh in
python-free-frontend/edsl/lib/Frontend.cpp) are from float64 GELU.

    scripts/gelu-accuracy.py

Replays each formula step by step in float32 (every operation rounded to the
nearest float32; exp2 and the reciprocal exact before that rounding, where
the GPU's ex2.approx / rcp.approx add about 2 ulp) over x in [-12, 12] in
steps of 1e-4, and prints the largest absolute error against the float64
erf GELU and tanh GELU. Plain Python, no numpy."""
import math
import struct


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def gelu(x):
    """x/2 erfc(-x/sqrt 2), erfc from Abramowitz & Stegun 7.1.26."""
    p, coefficients = 0.3275911, (1.061405429, -1.453152027, 1.421413741,
                                  -0.284496736, 0.254829592)
    a = f32(abs(x) * f32(math.sqrt(0.5)))
    t = f32(1 / f32(f32(p) * a + 1))  # fma, then rcp
    poly = f32(coefficients[0])
    for c in coefficients[1:]:
        poly = f32(t * poly + f32(c))  # fma
    gaussian = f32(2 ** f32(f32(a * f32(-math.log2(math.e))) * a))
    erfc_of_a = f32(f32(t * poly) * gaussian)
    cdf_times_2 = erfc_of_a if x < 0 else f32(2 - erfc_of_a)
    return f32(f32(x * 0.5) * cdf_times_2)


def gelu_tanh(x):
    """x / (1 + 2^(x (k1 + k3 x^2))), the logistic form of the tanh GELU."""
    k1 = -2 * math.sqrt(2 / math.pi) * math.log2(math.e)
    k3 = 0.044715 * k1
    power = f32(x * f32(f32(f32(x * x) * f32(k3)) + f32(k1)))
    e = f32(2 ** power) if power < 128 else math.inf
    return f32(x * f32(1 / f32(e + 1)))


def exact(x):
    return 0.5 * x * math.erfc(-x / math.sqrt(2))


def exact_tanh(x):
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) *
                                    (x + 0.044715 * x ** 3)))


xs = [f32(i / 10000) for i in range(-120000, 120001)]
for name, formula, reference in (("gelu (erf)", gelu, exact),
                                 ("geluTanh", gelu_tanh, exact_tanh)):
    error = max(abs(formula(x) - reference(x)) for x in xs)
    print(f"{name}: largest absolute error {error:.2e} over [-12, 12]")
