#!/usr/bin/env python3
"""pnpoly_polygon.py [DIR] - writes the point-in-polygon benchmark's polygon (pnpoly.tune's
constant arguments) into DIR (default: this script's folder):

  pnpoly_vertices.bin   600 float2 (x, y), raw little-endian float32: d_vertices
  pnpoly_slopes.bin     600 float32: d_slopes, slope j of the edge from vertex j to vertex j - 1

The polygon is Kernel Tuner's pnpoly example's: 600 points on the unit circle at angles
drawn uniformly from [0, 2 pi) and sorted in decreasing order (so the vertices go round the
circle clockwise, a convex polygon whose edges only meet at their ends), x = cos, y = sin,
each rounded to float32. The angles come from Python's own Mersenne Twister with seed 1,
not NumPy's (the example draws unseeded): the same file on every run and machine.

Slope j is (x[k] - x[j]) / (y[k] - y[j]) with k = j - 1 (599 for j = 0), each operation
rounded to float32 as the kernel's IEEE float arithmetic rounds it (a double holds a float32
-, or / exactly enough to round it correctly), so that a variant that reads the precomputed
slopes computes exactly what one that divides on the GPU does. No two vertices may share a
y (an edge would be horizontal and its slope infinite): checked here.
"""
import math
import os
import random
import struct
import sys

VERTICES = 600
SEED = 1


def f32(x):
    """x rounded to the nearest float32 (ties to even), as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def polygon():
    """The vertices as (x, y) pairs of float32 values, clockwise round the unit circle."""
    rng = random.Random(SEED)
    angles = sorted((rng.random() * 2.0 * math.pi for _ in range(VERTICES)), reverse=True)
    return [(f32(math.cos(a)), f32(math.sin(a))) for a in angles]


def slopes(vertices):
    """Slope j of the edge from vertex j to vertex j - 1, in float32 arithmetic."""
    out = []
    for j, (xj, yj) in enumerate(vertices):
        xk, yk = vertices[j - 1]
        out.append(f32(f32(xk - xj) / f32(yk - yj)))
    return out


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    vertices = polygon()
    if len({y for _, y in vertices}) != VERTICES:
        sys.exit("pnpoly_polygon.py: two vertices share a y; choose another SEED")
    with open(os.path.join(folder, "pnpoly_vertices.bin"), "wb") as f:
        f.write(struct.pack("<%df" % (2 * VERTICES), *[c for v in vertices for c in v]))
    with open(os.path.join(folder, "pnpoly_slopes.bin"), "wb") as f:
        f.write(struct.pack("<%df" % VERTICES, *slopes(vertices)))


if __name__ == "__main__":
    main()
