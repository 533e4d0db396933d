#!/usr/bin/env python3
"""Seed corpora for the image fuzz targets: small valid files in every branch
(DX10 and legacy DDS, flat and RLE HDR, tiny .env with 1x1 faces, PNGs of each
colour type) plus cut-down copies of the shared assets.

    python3 fuzz/make_corpus.py <shared/assets> <out/corpus>
"""
import json
import os
import struct
import sys
import zlib

assets, out = sys.argv[1], sys.argv[2]


def put(target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)


def png(w, h, ctype, pixels):
    chans = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = b"".join(b"\0" + pixels[y * w * chans:(y + 1) * w * chans] for y in range(h))

    def chunk(t, b):
        return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, ctype, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def dds(w, mips, cube, dx10, fmt_bytes):
    h = [124, 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000, w, w, w * 8, 0, mips] + [0] * 11
    pf = [32, 0x4, struct.unpack("<I", b"DX10")[0] if dx10 else 113, 0, 0, 0, 0, 0]
    caps = [0x1000 | 0x400008, 0xfe00 if cube else 0, 0, 0, 0]
    head = b"DDS " + struct.pack("<31I", *(h + pf + caps))
    if dx10:
        head += struct.pack("<5I", 10, 3, 4 if cube else 0, 1, 0)
    n = sum(max(1, w >> m) ** 2 for m in range(mips)) * (6 if cube else 1)
    return head + bytes((i * 37) & 255 for i in range(n * fmt_bytes))


# DDS
put("dds", "cube4_dx10.dds", dds(4, 3, True, True, 8))
put("dds", "cube4_legacy.dds", dds(4, 3, True, False, 8))
put("dds", "tex8_dx10.dds", dds(8, 1, False, True, 8))
real = open(os.path.join(assets, "dds/backgroundSkybox.dds"), "rb").read()
put("dds", "backgroundSkybox.dds", real)

# HDR: flat tiny, RLE crop of the real file (first 3 scanlines)
put("hdr", "flat.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 3\n" + bytes(range(10, 34)))
put("hdr", "flip.hdr", b"#?RGBE\n\n+Y 2 -X 3\n" + bytes(range(40, 64)))
for name in ["venice_sunset_1k", "studio_small_03_1k"]:
    d = open(os.path.join(assets, "hdr/%s.hdr" % name), "rb").read()
    i = d.index(b"-Y 512 +X 1024\n")
    body = d[i + 15:]
    pos = 0
    for _ in range(3):  # walk three RLE scanlines
        pos += 4
        for _c in range(4):
            x = 0
            while x < 1024:
                n = body[pos]
                pos += 1
                if n > 128:
                    pos += 1
                    x += n - 128
                else:
                    pos += n
                    x += n
    put("hdr", name + "_3rows.hdr", d[:i] + b"-Y 3 +X 1024\n" + body[:pos])

# ENV: width 1 (one mip, six 1x1 RGBD PNGs) and width 2
for w in (1, 2):
    mips = w.bit_length()
    imgs = []
    for m in range(mips):
        s = max(1, w >> m)
        for f in range(6):
            imgs.append(png(s, s, 6, bytes([40 * f, 100, 200, 128 + m]) * (s * s)))
    pos, entries = 0, []
    for b in imgs:
        entries.append({"length": len(b), "position": pos})
        pos += len(b)
    man = {"version": 1, "width": w, "irradiance": {"x": [0.1, 0.2, 0.3], "y": [0, 0, 0]},
           "specular": {"mipmaps": entries, "lodGenerationScale": 0.8}}
    put("env", "tiny%d.env" % w, bytes([0x86, 0x16, 0x87, 0x96, 0xf6, 0xd6, 0x96, 0x36]) +
        json.dumps(man).encode() + b"\0" + b"".join(imgs))

# PNG: each colour type, plus one real face
put("png", "grey.png", png(3, 2, 0, bytes(range(6))))
put("png", "rgb.png", png(4, 4, 2, bytes(range(48))))
put("png", "rgba.png", png(2, 2, 6, bytes(range(16))))
put("png", "ga.png", png(2, 3, 4, bytes(range(12))))
put("png", "gradient32.png", png(32, 32, 2, bytes((x * 8 + c * 50 + y * 3) & 255 for y in range(32) for x in range(32) for c in range(3))))
put("png", "ground_16rows.png", png(64, 16, 6, bytes((x * 4 + y) & 255 if c == 3 else 255 for y in range(16) for x in range(64) for c in range(4))))
print("corpus written to", out)
