#!/usr/bin/env python3
"""Seed corpora for the image fuzz targets: small valid files in every branch
(DX10 and legacy DDS, flat and RLE HDR, tiny .env with 1x1 faces, PNGs of each
colour type, baseline and progressive JPEGs) plus cut-down copies of the
repository's assets/. fuzz_png reads PNG and JPEG: its corpus holds both.

    python3 fuzz/make_corpus.py <assets> <out/corpus>
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

# JPEG: no encoder is at hand, so a small one (ITU-T T.81) for blocky
# pictures: every 8x8 block a flat level (DC only, AC all zero), Huffman
# coded with the Annex K luminance DC table. Baseline (with and without
# restart markers) and progressive (DC first scan with Al = 1, a DC
# refinement scan, then one AC scan per component that is a single EOB run),
# grey and 4:2:0 colour.
class Bits:
    def __init__(self):
        self.out, self.acc, self.n = bytearray(), 0, 0

    def put(self, code, length):
        for i in range(length - 1, -1, -1):
            self.acc = (self.acc << 1) | ((code >> i) & 1)
            self.n += 1
            if self.n == 8:
                self.out.append(self.acc)
                if self.acc == 0xff:
                    self.out.append(0)  # stuffing
                self.acc, self.n = 0, 0

    def flush(self):
        while self.n:
            self.put(1, 1)  # pad with one bits
        return bytes(self.out)


def canonical(counts, symbols):
    table, code, k = {}, 0, 0
    for length in range(1, 17):
        for _ in range(counts[length - 1]):
            table[symbols[k]] = (code, length)
            code, k = code + 1, k + 1
        code <<= 1
    return table


DC_COUNTS, DC_SYMBOLS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], list(range(12))
AC_EOB_COUNTS, AC_EOB_SYMBOLS = [1] + [0] * 15, [0x00]
AC_RUN_COUNTS, AC_RUN_SYMBOLS = [0, 0, 0, 15] + [0] * 12, [n << 4 for n in range(15)]  # EOB0..EOB14


def segment(marker, body):
    return bytes([0xff, marker]) + struct.pack(">H", len(body) + 2) + body


def put_value(bits, table, v):
    s = abs(v).bit_length()
    bits.put(*table[s])
    if s:
        bits.put(v if v >= 0 else v + (1 << s) - 1, s)


def jpeg(w, h, comps, progressive=False, restart=0):
    """comps: (id, h, v) sampling factors; returns the file."""
    hmax, vmax = max(c[1] for c in comps), max(c[2] for c in comps)
    mcux, mcuy = -(-w // (8 * hmax)), -(-h // (8 * vmax))
    level = lambda ci, bx, by: (bx * 7 + by * 13 + ci * 29) % 61 - 30
    out = b"\xff\xd8" + segment(0xdb, bytes([0]) + bytes([8] * 64))
    out += segment(0xc2 if progressive else 0xc0, bytes([8]) + struct.pack(">HH", h, w) + bytes([len(comps)]) +
                   b"".join(bytes([i, hh << 4 | vv, 0]) for i, hh, vv in comps))
    ac_counts, ac_symbols = (AC_RUN_COUNTS, AC_RUN_SYMBOLS) if progressive else (AC_EOB_COUNTS, AC_EOB_SYMBOLS)
    out += segment(0xc4, bytes([0x00] + DC_COUNTS + DC_SYMBOLS) + bytes([0x10] + ac_counts + ac_symbols))
    if restart:
        out += segment(0xdd, struct.pack(">H", restart))
    dc, ac = canonical(DC_COUNTS, DC_SYMBOLS), canonical(ac_counts, ac_symbols)

    def interleaved(ah, al, blockfn):
        data, bits, pred = bytearray(), Bits(), [0] * len(comps)
        for m in range(mcux * mcuy):
            if restart and m and m % restart == 0:
                data += bits.flush() + bytes([0xff, 0xd0 + (m // restart - 1) % 8])
                bits, pred = Bits(), [0] * len(comps)
            mx, my = m % mcux, m // mcux
            for ci, (cid, hh, vv) in enumerate(comps):
                for y in range(vv):
                    for x in range(hh):
                        pred[ci] = blockfn(bits, level(ci, mx * hh + x, my * vv + y), pred[ci])
        sos = bytes([len(comps)] + [b for c in comps for b in (c[0], 0x00)] + [0, 0 if progressive else 63, ah << 4 | al])
        return segment(0xda, sos) + bytes(data) + bits.flush()

    def baseline(bits, v, pred):
        put_value(bits, dc, v - pred)
        bits.put(*ac[0x00])  # EOB
        return v

    if not progressive:
        return out + interleaved(0, 0, baseline) + b"\xff\xd9"

    def dc_first(bits, v, pred):
        put_value(bits, dc, (v >> 1) - pred)
        return v >> 1

    def dc_refine(bits, v, pred):
        bits.put(v & 1, 1)
        return pred

    out += interleaved(0, 1, dc_first) + interleaved(1, 0, dc_refine)
    for cid, hh, vv in comps:  # AC 1..63, all zero: one EOB run over the component's blocks
        cw, ch = -(-w * hh // hmax), -(-h * vv // vmax)
        run, bits = -(-cw // 8) * -(-ch // 8), Bits()
        n = run.bit_length() - 1
        bits.put(*ac[n << 4])
        bits.put(run - (1 << n), n)
        out += segment(0xda, bytes([1, cid, 0x00, 1, 63, 0x00])) + bits.flush()
    return out + b"\xff\xd9"


COLOUR = [(1, 2, 2), (2, 1, 1), (3, 1, 1)]
put("png", "jpeg_grey.jpg", jpeg(21, 13, [(1, 1, 1)]))
put("png", "jpeg_420_restart.jpg", jpeg(40, 24, COLOUR, restart=2))
put("png", "jpeg_progressive_grey.jpg", jpeg(24, 17, [(1, 1, 1)], progressive=True))
put("png", "jpeg_progressive_420.jpg", jpeg(35, 33, COLOUR, progressive=True))

# PNG: each colour type, plus one real face
put("png", "grey.png", png(3, 2, 0, bytes(range(6))))
put("png", "rgb.png", png(4, 4, 2, bytes(range(48))))
put("png", "rgba.png", png(2, 2, 6, bytes(range(16))))
put("png", "ga.png", png(2, 3, 4, bytes(range(12))))
put("png", "gradient32.png", png(32, 32, 2, bytes((x * 8 + c * 50 + y * 3) & 255 for y in range(32) for x in range(32) for c in range(3))))
put("png", "ground_16rows.png", png(64, 16, 6, bytes((x * 4 + y) & 255 if c == 3 else 255 for y in range(16) for x in range(64) for c in range(4))))
# glTF (fuzz_gltf): the small GLBs of assets/gltf as they are; the .gltf files
# made self-contained (external buffers and images as base64 data: URIs, the
# fuzz target reads no files); hand-made files for the paths no sample takes.
import base64


def data_uri(raw):
    return "data:application/octet-stream;base64," + base64.b64encode(raw).decode()


gltf_dir = os.path.join(assets, "gltf")
for model, name in [("Box", "Box.glb"), ("BoxTextured", "BoxTextured.glb"), ("BoxVertexColors", "BoxVertexColors.glb"),
                    ("RiggedSimple", "RiggedSimple.glb"), ("SimpleInstancing", "SimpleInstancing.glb"),
                    ("TextureSettingsTest", "TextureSettingsTest.glb"), ("Fox", "Fox.glb")]:
    put("gltf", name, open(os.path.join(gltf_dir, model, name), "rb").read())
for model, name in [("Box", "Box.gltf"), ("TextureCoordinateTest", "TextureCoordinateTest.gltf"),
                    ("BoxTextured", "BoxTextured.gltf")]:
    doc = json.load(open(os.path.join(gltf_dir, model, name)))
    for item in doc.get("buffers", []) + doc.get("images", []):
        if "uri" in item and not item["uri"].startswith("data:"):
            item["uri"] = data_uri(open(os.path.join(gltf_dir, model, item["uri"]), "rb").read())
    put("gltf", name.replace(".gltf", "_embedded.gltf"), json.dumps(doc).encode())
tri = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<3H", 0, 1, 2) + b"\0\0" + struct.pack("<2H", 1, 2) + \
    struct.pack("<2f", 5, 6) + struct.pack("<4f", 0, 1, 2, 3) + struct.pack("<4f", 0, 0, 0, 1) * 4
views = [{"buffer": 0, "byteOffset": o, "byteLength": n} for o, n in [(0, 36), (36, 6), (44, 4), (48, 8), (56, 16), (72, 64)]]
hand = {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_texture_transform", "KHR_materials_unlit",
                                                       "KHR_lights_punctual", "EXT_mesh_gpu_instancing"],
        "buffers": [{"byteLength": len(tri), "uri": data_uri(tri)}], "bufferViews": views,
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
                      {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
                      {"componentType": 5126, "count": 3, "type": "SCALAR", "sparse": {"count": 2,
                       "indices": {"bufferView": 2, "componentType": 5123}, "values": {"bufferView": 3}}},
                      {"bufferView": 4, "componentType": 5126, "count": 4, "type": "SCALAR"},
                      {"bufferView": 5, "componentType": 5126, "count": 4, "type": "VEC4"}],
        "materials": [{"extensions": {"KHR_materials_unlit": {}}, "alphaMode": "MASK", "doubleSided": True}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "mode": 5, "material": 0,
                                    "targets": [{"POSITION": 0}]}], "weights": [0.5]}],
        "cameras": [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}],
        "extensions": {"KHR_lights_punctual": {"lights": [{"type": "spot", "spot": {"outerConeAngle": 0.6}}]}},
        "nodes": [{"mesh": 0, "children": [1], "matrix": [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]},
                  {"camera": 0, "extensions": {"KHR_lights_punctual": {"light": 0}}}],
        "animations": [{"channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
                        "samplers": [{"input": 3, "output": 4, "interpolation": "STEP"}]}],
        "scenes": [{"nodes": [0]}], "scene": 0}
put("gltf", "handmade.gltf", json.dumps(hand).encode())
# fuzz_ttf: the repository's font whole (the target checks the atlas's code points).
font = os.path.join(assets, "fonts", "DejaVuSans.ttf")
if os.path.exists(font):
    with open(font, "rb") as f:
        put("ttf", "DejaVuSans.ttf", f.read())
print("corpus written to", out)
