#!/usr/bin/env python3
"""Writes assets/sprites/sheet.png: a 256x128 RGBA sprite sheet of 4x2 cells of 64x64 pixels.

Orrery's own test content (no third-party source), made for the sprite tests and the Babylon.js
sprite parity scenes. Every cell holds one shape on a transparent background, with an
anti-aliased edge (alpha ramps over one pixel) and a marker in its upper-left quadrant, so that
invertU / invertV and rotation are visible in an image. Cell index = row * 4 + column, row 0 at
the top of the image (Babylon.js's cellIndex order).

  0 red disc          1 green square        2 blue triangle (points down)     3 yellow ring
  4 magenta diamond   5 cyan cross          6 orange star        7 white arrow (points right)

Usage: python3 tools/sprites/make_sheet.py [out.png]
"""
import math
import struct
import sys
import zlib

CELL = 64
COLS, ROWS = 4, 2
COLOURS = [(230, 40, 40), (40, 200, 60), (50, 90, 240), (240, 220, 40),
           (220, 60, 220), (40, 220, 230), (250, 150, 30), (245, 245, 245)]


def clamp01(v):
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


def sd_shape(kind, x, y):
    """Signed distance (pixels, negative inside) of shape `kind` at cell-local (x, y), centre 0."""
    ax, ay = abs(x), abs(y)
    if kind == 0:
        return math.hypot(x, y) - 26
    if kind == 1:
        return max(ax, ay) - 22
    if kind == 2:  # triangle pointing down (y grows downwards in the image), 4 px from the cell edges
        return max(-y - 24, (2 * ax + y - 26) / math.sqrt(5))
    if kind == 3:
        return abs(math.hypot(x, y) - 20) - 7
    if kind == 4:
        return (ax + ay) / math.sqrt(2) - 20
    if kind == 5:
        return min(max(ax - 8, ay - 26), max(ax - 26, ay - 8))
    if kind == 6:
        ang = math.atan2(y, x)
        r = 17 + 9 * math.cos(5 * ang)
        return math.hypot(x, y) - r
    # arrow pointing +x: shaft and head
    shaft = max(abs(y) - 6, abs(x + 6) - 20)
    head = max(x - 26, (abs(y) - (26 - x) * 0.8))
    head = max(head, 4 - x)
    return min(shaft, head)


def pixel(kind, px, py):
    x = px + 0.5 - CELL / 2
    y = py + 0.5 - CELL / 2
    a = clamp01(0.5 - sd_shape(kind, x, y))
    r, g, b = COLOURS[kind]
    # marker: a small dark square in the upper-left quadrant (inside or outside the shape)
    if -24 <= x <= -14 and -24 <= y <= -14:
        return (20, 20, 20, 255)
    shade = 0.75 + 0.25 * clamp01(1 - (x + y) / 64)
    return (int(r * shade), int(g * shade), int(b * shade), int(round(a * 255)))


def png(width, height, rows):
    raw = b''.join(b'\x00' + bytes(row) for row in rows)

    def chunk(tag, data):
        body = tag + data
        return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)
    hdr = struct.pack('>IIBBBBB', width, height, 8, 6, 0, 0, 0)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', hdr) + chunk(b'IDAT', zlib.compress(raw, 9))
            + chunk(b'IEND', b''))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'assets/sprites/sheet.png'
    w, h = CELL * COLS, CELL * ROWS
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            kind = (y // CELL) * COLS + x // CELL
            row.extend(pixel(kind, x % CELL, y % CELL))
        rows.append(row)
    with open(out, 'wb') as f:
        f.write(png(w, h, rows))


if __name__ == '__main__':
    main()
