#!/usr/bin/env python3
"""screenshot_bars.py PNG NAME=#rrggbb...: the bars of each colour in a screenshot.

For each named colour, finds the horizontal bands (at least 8 pixels high:
a bar, not a glyph of text) of the picture where pixels of exactly that
colour (within 3 per channel) occur, and counts the separate runs of such
pixels on the band's middle line: the bars of that colour in one row of the
timeline (the timeline draws them with crisp edges; a legend swatch is a
band of one run). Prints one line per band, top to bottom:

    y0-y1 NAME runs

so that a test can check which rows exist, in which order, and how many
bars of each kind each row shows.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngread  # noqa: E402


def near(p, c):
    return abs(p[0] - c[0]) <= 3 and abs(p[1] - c[1]) <= 3 and abs(p[2] - c[2]) <= 3


def runs(line, c):
    n, length = 0, 0
    for p in line + [(-99, -99, -99)]:
        if near(p, c):
            length += 1
            continue
        if length >= 1:
            n += 1
        length = 0
    return n


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    width, height, rows = pngread.read(sys.argv[1])
    colours = []
    for arg in sys.argv[2:]:
        name, hexa = arg.split("=")
        hexa = hexa.lstrip("#")
        colours.append((name, tuple(int(hexa[i:i + 2], 16) for i in (0, 2, 4))))
    bands = []
    for name, c in colours:
        start = None
        for y in range(height + 1):
            hit = y < height and any(near(p, c) for p in rows[y])
            if hit and start is None:
                start = y
            elif not hit and start is not None:
                middle = rows[(start + y - 1) // 2]
                n = runs(middle, c)
                if n and y - start >= 8:
                    bands.append((start, y - 1, name, n))
                start = None
    for y0, y1, name, n in sorted(bands):
        print("%d-%d %s %d" % (y0, y1, name, n))


if __name__ == "__main__":
    main()
