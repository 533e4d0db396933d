#!/usr/bin/env python3
"""Independent reference decode of the repository's image assets (assets/), for tests/unit/test_image.c.

Pure Python 3 (struct + zlib, no numpy, no stb): its own DDS header walk, its
own Radiance RLE decoder, its own PNG inflate + unfilter, and Babylon.js's
RGBD formula (rgb = pow(c/255, 2.2) / (a/255)). It shares no code with the C
loaders, so agreement checks both.

    python3 tools/image-ref/image_ref.py [/path/to/assets]

prints the expected texel values that test_image.c pastes in.
"""
import os
import json
import struct
import sys
import zlib

ASSETS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets")


def dds_texel(path, face, mip, x, y):
    d = open(path, "rb").read()
    assert d[:4] == b"DDS "
    h = struct.unpack("<31I", d[4:128])
    height, width, mips = h[2], h[3], h[6]
    fourcc = h[20]
    off = 128
    if fourcc == struct.unpack("<I", b"DX10")[0]:
        fmt = struct.unpack("<I", d[128:132])[0]
        assert fmt == 10, fmt  # R16G16B16A16_FLOAT
        off = 148
    bpp = 8
    face_bytes = sum(max(1, width >> m) * max(1, height >> m) * bpp for m in range(mips))
    p = off + face * face_bytes + sum(max(1, width >> m) * max(1, height >> m) * bpp for m in range(mip))
    w = max(1, width >> mip)
    p += (y * w + x) * bpp
    return struct.unpack("<4e", d[p:p + 8])


def hdr_decode(path):
    d = open(path, "rb").read()
    lines = d.split(b"\n")
    i = 0
    pos = 0
    # header: up to the empty line, then the resolution line
    while True:
        line = lines[i]
        pos += len(line) + 1
        i += 1
        if line == b"":
            break
    res = lines[i].split()
    pos += len(lines[i]) + 1
    assert res[0] == b"-Y" and res[2] == b"+X", res
    H, W = int(res[1]), int(res[3])
    rows = []
    for _ in range(H):
        if d[pos] == 2 and d[pos + 1] == 2:
            assert (d[pos + 2] << 8 | d[pos + 3]) == W
            pos += 4
            ch = []
            for c in range(4):
                out = []
                while len(out) < W:
                    n = d[pos]
                    pos += 1
                    if n > 128:
                        out += [d[pos]] * (n - 128)
                        pos += 1
                    else:
                        out += list(d[pos:pos + n])
                        pos += n
                assert len(out) == W
                ch.append(out)
            rows.append([(ch[0][x], ch[1][x], ch[2][x], ch[3][x]) for x in range(W)])
        else:
            rows.append([tuple(d[pos + 4 * x:pos + 4 * x + 4]) for x in range(W)])
            pos += 4 * W
    return W, H, rows, len(d) - pos


def rgbe(p):
    r, g, b, e = p
    if e == 0:
        return (0.0, 0.0, 0.0)
    f = 2.0 ** (e - 136)
    return (r * f, g * f, b * f)


def png_decode(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos = 8
    idat = b""
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        if typ == b"IHDR":
            W, H, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0, (depth, interlace)
        elif typ == b"IDAT":
            idat += body
        pos += 12 + ln
    chans = {2: 3, 6: 4, 0: 1, 4: 2}[ctype]
    raw = zlib.decompress(idat)
    stride = W * chans
    prev = bytearray(stride)
    rows = []
    p = 0
    for _ in range(H):
        ft = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        for i in range(stride):
            a = line[i - chans] if i >= chans else 0
            b = prev[i]
            c = prev[i - chans] if i >= chans else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if (pa <= pb and pa <= pc) else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return W, H, chans, rows


def png_texel(png, x, y):
    W, H, chans, rows = png
    px = rows[y][x * chans:(x + 1) * chans]
    if chans == 3:
        return tuple(px) + (255,)
    return tuple(px)


def env_face_png(path, mip, face):
    d = open(path, "rb").read()
    nul = d.index(b"\0", 8)
    man = json.loads(d[8:nul])
    e = man["specular"]["mipmaps"][mip * 6 + face]
    start = nul + 1 + e["position"]
    return man, d[start:start + e["length"]]


def rgbd(px):
    r, g, b, a = px
    dd = a / 255.0
    return tuple(((c / 255.0) ** 2.2) / dd for c in (r, g, b))


def main():
    print("// DDS %s/dds/backgroundSkybox.dds: {face, mip, x, y, r, g, b, a}" % ASSETS)
    for (f, m, x, y) in [(0, 0, 0, 0), (2, 0, 32, 32), (3, 3, 4, 2), (5, 6, 0, 0), (1, 1, 31, 17), (4, 0, 63, 63)]:
        v = dds_texel(ASSETS + "/dds/backgroundSkybox.dds", f, m, x, y)
        print("    {%d, %d, %d, %d, %.9g, %.9g, %.9g, %.9g}," % ((f, m, x, y) + v))

    for name, pts in [("studio_small_03_1k", [(0, 0), (512, 256), (1023, 511), (100, 50), (700, 180)]),
                      ("venice_sunset_1k", [(0, 0), (700, 300), (0, 511), (1023, 0), (345, 123)])]:
        W, H, rows, trailing = hdr_decode(ASSETS + "/hdr/%s.hdr" % name)
        print("// HDR %s: %dx%d, %d trailing bytes: {x, y, r, g, b}" % (name, W, H, trailing))
        for (x, y) in pts:
            print("    {%d, %d, %.9g, %.9g, %.9g}," % ((x, y) + rgbe(rows[y][x])))
        mx = max(((rgbe(p), (x, y)) for y, r in enumerate(rows) for x, p in enumerate(r)), key=lambda t: max(t[0]))
        print("//   brightest texel %s at %s" % (mx[0], mx[1]))

    png = png_decode(open(ASSETS + "/bjs/backgroundGround.png", "rb").read())
    print("// PNG bjs/backgroundGround.png %dx%d, %d channels: {x, y, r, g, b, a}" % png[:3])
    for (x, y) in [(512, 512), (0, 0), (768, 512), (256, 700), (1023, 1023)]:
        print("    {%d, %d, %d, %d, %d, %d}," % ((x, y) + png_texel(png, x, y)))

    print("// Cube cube/ryfjallet_<face>.png: {face, x, y, r, g, b, a}")
    for (f, name, x, y) in [(0, "px", 0, 0), (0, "px", 128, 128), (2, "py", 10, 200), (3, "ny", 100, 30),
                            (5, "nz", 255, 255)]:
        p = png_decode(open(ASSETS + "/cube/ryfjallet_%s.png" % name, "rb").read())
        print("    {%d, %d, %d, %d, %d, %d, %d}," % ((f, x, y) + png_texel(p, x, y)))

    print("// ENV bjs/environmentSpecular.env: {mip, face, x, y, R, G, B, D (PNG bytes), r, g, b (RGBD decoded)}")
    for (m, f, x, y) in [(0, 0, 64, 64), (0, 2, 0, 0), (3, 4, 5, 7), (7, 5, 0, 0), (2, 1, 31, 0), (0, 3, 127, 90)]:
        man, data = env_face_png(ASSETS + "/bjs/environmentSpecular.env", m, f)
        p = png_decode(data)
        assert p[0] == man["width"] >> m
        px = png_texel(p, x, y)
        print("    {%d, %d, %d, %d, %d, %d, %d, %d, %.9g, %.9g, %.9g}," % ((m, f, x, y) + px + rgbd(px)))


if __name__ == "__main__":
    main()
