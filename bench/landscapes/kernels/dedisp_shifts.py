#!/usr/bin/env python3
"""dedisp_shifts.py [OUT] - writes the dedispersion benchmark's per-channel delays (1,536 float32,
raw little-endian, default dedisp_shifts.bin beside this script), the `shifts` input of
dedisp_milo_run.tune.

The values are the Kernel Tuner benchmark hub's (kernels/dedisp_milo/dedispersion_milo.py,
get_shifts): the dispersion delay of each channel of a 1,536-channel band from 1,425 MHz in
0.1953125 MHz steps, relative to the highest channel, in samples of 40.96 us per unit of
dispersion measure; the last channel's is 0. The hub computes them with NumPy in float32;
this computes the same operations in the same order, each rounded to float32 (a double holds
a float32 +, -, * or / exactly enough to round it correctly), so no NumPy is needed. The
largest delay times the largest dispersion measure (2048 x 0.02) must stay under the kernel's
max_shift of 650 samples, or the kernel would read past its input: checked here.
"""
import os
import struct
import sys

NR_CHANNELS = 1536
NR_SAMPLES = 25000
DOWN_SAMPLING = 1
CHANNEL_BANDWIDTH = 0.1953125
SAMPLING_TIME = 0.00004096
MIN_FREQ = 1425.0
NR_DMS, DM_FIRST, DM_STEP, MAX_SHIFT = 2048, 0.0, 0.02, 650


def f32(x):
    """x rounded to the nearest float32 (ties to even), as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def shifts():
    """The 1,536 delays, as NumPy's float32 arithmetic in get_shifts gives them."""
    max_freq = MIN_FREQ + (NR_CHANNELS - 1) * CHANNEL_BANDWIDTH
    inverse_high_freq = f32(1 / max_freq ** 2)          # a Python float, taken as float32 by NumPy
    time_unit = f32(NR_SAMPLES * SAMPLING_TIME)
    out = []
    for channel in range(NR_CHANNELS):
        freq = f32(f32(MIN_FREQ) + f32(f32(channel) * f32(CHANNEL_BANDWIDTH)))
        inverse_freq = f32(1.0 / f32(freq * freq))
        delay = f32(f32(4148.808) * f32(inverse_freq - inverse_high_freq))
        delay = f32(delay * f32(NR_SAMPLES / DOWN_SAMPLING))
        out.append(f32(delay / time_unit))
    out[-1] = 0.0
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                              "dedisp_shifts.bin")
    values = shifts()
    if not (DM_FIRST + NR_DMS * DM_STEP) * values[0] < MAX_SHIFT:
        sys.exit("dedisp_shifts.py: the largest delay %.3f reaches past max_shift %d" %
                 ((DM_FIRST + NR_DMS * DM_STEP) * values[0], MAX_SHIFT))
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(values), *values))


if __name__ == "__main__":
    main()
