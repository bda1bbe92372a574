#!/usr/bin/env python3
"""png_check.py IMAGE.png [--min-colours N] [--min-ink SHARE] [--want RRGGBB:COUNT ...]

Fails (exit 1, saying why) when a screenshot is blank or nearly so: fewer than N distinct
colours, less than SHARE of its pixels not white, or fewer than COUNT pixels near (each
channel within 24) a colour the page must show. Prints what it measured. Reads the PNG
itself (zlib and the five scanline filters: 8-bit greyscale, RGB or RGBA, not
interlaced), so that it needs nothing but Python.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 6: 4}.get(ctype)
    if depth != 8 or channels is None or interlace:
        raise ValueError("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    min_colours, min_ink, wants = 2, 0.0, []
    while args:
        opt = args.pop(0)
        if opt == "--min-colours":
            min_colours = int(args.pop(0))
        elif opt == "--min-ink":
            min_ink = float(args.pop(0))
        elif opt == "--want":
            colour, count = args.pop(0).split(":")
            wants.append((tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4)), int(count), colour))
        else:
            sys.exit("png_check: unknown option " + opt)
    width, height, channels, rows = read_png(path)
    colours, ink = set(), 0
    near = [0] * len(wants)
    for line in rows:
        for x in range(0, len(line), channels):
            px = tuple(line[x:x + 3]) if channels >= 3 else (line[x],) * 3
            colours.add(px)
            if px != (255, 255, 255):
                ink += 1
            for k, (want, _, _) in enumerate(wants):
                if all(abs(px[c] - want[c]) <= 24 for c in range(3)):
                    near[k] += 1
    share = ink / float(width * height)
    print("png_check: %s: %dx%d, %d colours, %.1f %% not white%s" % (
        path, width, height, len(colours), share * 100,
        "".join(", %d px near #%s" % (near[k], w[2]) for k, w in enumerate(wants))))
    problems = []
    if len(colours) < min_colours:
        problems.append("only %d colours (want at least %d): blank or nearly" % (len(colours), min_colours))
    if share < min_ink:
        problems.append("only %.1f %% of the pixels are not white (want %.1f %%)" % (share * 100, min_ink * 100))
    for k, (_, count, name) in enumerate(wants):
        if near[k] < count:
            problems.append("only %d pixels near #%s (want %d)" % (near[k], name, count))
    for p in problems:
        print("png_check: FAIL: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
