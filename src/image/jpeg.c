/* jpeg.c — a walk over a JPEG's marker stream (ITU-T T.81 | ISO/IEC 10918-1,
 * Annex B; Huffman tables: Annex C) before stb_image reads the file. Reads
 * the bytes only; allocates nothing.
 *
 * Why: Debian's stb_image (2.27) builds a Huffman table from a DHT segment
 * without checking that its 16 code counts add up to at most 256: it writes
 * one code length per code into a 257-entry array (stb_image.h:1990), then
 * the symbols into a 256-entry one, so a DHT claiming up to 16 × 255 codes
 * writes past both (issue 16, D7; stb_image 2.28 added the check). It also
 * decodes a scan with a Huffman table that no DHT defined (whatever that
 * memory held). And it pads a short scan with zeros instead of failing, so a
 * few kilobytes claiming 16384 × 16384 decoded to a gigabyte (D8).
 *
 * The walk reads the stream the way stb does, so that every segment stb acts
 * on is checked here: bytes that are not a marker between segments are
 * skipped, 0xFF fill bytes before a marker are skipped, segment bytes past
 * the end of the file read as 0 (stbi__get8 there), and a scan's
 * entropy-coded data runs from its header to the first 0xFF followed by a
 * byte other than 0x00 (a stuffed 0xFF) and RST0-7. Where stb stops early
 * (an unknown marker ends its decode), the walk may go on: it checks more
 * than stb reads, never less.
 *
 * Checks:
 * - every DHT table: class 0 or 1, id 0-3, code counts adding up to at most
 *   256, and the canonical code assignment (C.2: the codes of length l follow
 *   on from those of length l - 1, shifted left once) using at most 2^l codes
 *   of each length l; its symbols inside the segment;
 * - a frame header before the first scan: SOF0/1/2, 8-bit samples, 1, 3 or 4
 *   components with sampling factors 1-4, height given (no DNL); other SOF
 *   types (lossless, hierarchical, arithmetic coding): UNSUPPORTED;
 * - each scan's components exist in the frame, and every Huffman table the
 *   scan decodes with is defined by a DHT before it: sequential scans use
 *   each component's DC and AC tables, progressive DC first scans (Ss = 0,
 *   Ah = 0) the DC table, DC refinements none, AC scans (Ss > 0) the AC one;
 * - enough scan data for the size. Every 8 × 8 block of every component is
 *   coded in some scan with at least one Huffman code, so at least one bit
 *   (a sequential scan codes a DC and an AC code per block, a progressive DC
 *   first scan one DC code; EOB runs shorten only AC scans). A W × H frame
 *   thus needs at least ceil(sum of blocks / 8) bytes of entropy-coded data,
 *   blocks_c = ceil(ceil(W h_c / h_max) / 8) × ceil(ceil(H v_c / v_max) / 8):
 *   at most 2048 decoded bytes (RGBA8) per byte of scan data. A progressive
 *   file cut before its DC scans are complete is refused with it. */
#include <string.h>

#include "image_int.h"

typedef struct jpeg_walk {
    orri_image_ctx *c;
    const uint8_t *d;
    size_t n;
    bool frame, progressive;
    uint32_t width, height, comps;
    uint8_t id[4], h[4], v[4];
    uint8_t defined[2]; /* bit t: Huffman table t of class 0 (DC) / 1 (AC) is defined */
    uint64_t scan_bytes;
} jpeg_walk;

/* A byte of the file, 0 past its end (what stb reads there). */
static uint32_t at(const jpeg_walk *w, size_t i) { return i < w->n ? w->d[i] : 0u; }
static uint32_t be16(const jpeg_walk *w, size_t i) { return at(w, i) << 8 | at(w, i + 1); }

static const char *const class_name[2] = {"DC", "AC"};

/* The tables of a DHT segment whose body is [p, p + len). */
static orr_result read_dht(jpeg_walk *w, size_t p, size_t len) {
    size_t end = p + len;
    while (p < end) {
        uint32_t q = at(w, p), tc = q >> 4, th = q & 15, total = 0, code = 0;
        if (tc > 1 || th > 3)
            return orri_image_fail(w->c, ORR_ERROR_MALFORMED, "JPEG DHT at byte %zu: table class %u id %u", p, tc, th);
        for (uint32_t l = 1; l <= 16; l++) {
            uint32_t count = at(w, p + l);
            total += count;
            code += count; /* one past the last code of length l */
            if (code > (1u << l))
                return orri_image_fail(w->c, ORR_ERROR_MALFORMED,
                                       "JPEG Huffman table %s%u (byte %zu): its %u codes of length %u overflow the "
                                       "prefix code",
                                       class_name[tc], th, p, count, l);
            code <<= 1;
        }
        if (total > 256)
            return orri_image_fail(w->c, ORR_ERROR_MALFORMED,
                                   "JPEG Huffman table %s%u (byte %zu) has %u codes (at most 256)", class_name[tc], th,
                                   p, total);
        if (17 + (size_t)total > end - p)
            return orri_image_fail(w->c, ORR_ERROR_MALFORMED,
                                   "JPEG Huffman table %s%u (byte %zu): %u symbols do not fit in its DHT segment",
                                   class_name[tc], th, p, total);
        w->defined[tc] |= (uint8_t)(1u << th);
        p += 17 + (size_t)total;
    }
    return ORR_OK;
}

static orr_result read_sof(jpeg_walk *w, uint32_t m, size_t p, size_t len) {
    uint32_t bits = at(w, p), nf = at(w, p + 5);
    w->height = be16(w, p + 1), w->width = be16(w, p + 3);
    if (bits != 8) return orri_image_fail(w->c, ORR_ERROR_UNSUPPORTED, "JPEG of %u-bit samples (only 8)", bits);
    if (nf != 1 && nf != 3 && nf != 4)
        return orri_image_fail(w->c, ORR_ERROR_UNSUPPORTED, "JPEG of %u components (1, 3 or 4)", nf);
    if (len != 6 + 3 * (size_t)nf)
        return orri_image_fail(w->c, ORR_ERROR_MALFORMED, "JPEG frame header of %zu bytes for %u components", len, nf);
    if (w->height == 0)
        return orri_image_fail(w->c, ORR_ERROR_UNSUPPORTED, "JPEG whose height comes later (DNL marker)");
    for (uint32_t i = 0; i < nf; i++) {
        uint32_t hv = at(w, p + 7 + 3 * i);
        w->id[i] = (uint8_t)at(w, p + 6 + 3 * i), w->h[i] = (uint8_t)(hv >> 4), w->v[i] = (uint8_t)(hv & 15);
        if (w->h[i] < 1 || w->h[i] > 4 || w->v[i] < 1 || w->v[i] > 4)
            return orri_image_fail(w->c, ORR_ERROR_MALFORMED, "JPEG component %u: sampling factors %ux%u (1-4)",
                                   w->id[i], w->h[i], w->v[i]);
    }
    w->comps = nf;
    w->progressive = m == 0xc2;
    w->frame = true;
    return ORR_OK;
}

static orr_result need_table(jpeg_walk *w, uint32_t tc, uint32_t t, uint32_t comp) {
    if (t > 3 || !(w->defined[tc] >> t & 1))
        return orri_image_fail(w->c, ORR_ERROR_MALFORMED,
                               "JPEG scan decodes component %u with Huffman table %s%u, which no DHT before it defines",
                               comp, class_name[tc], t);
    return ORR_OK;
}

static orr_result read_sos(jpeg_walk *w, size_t p, size_t len) {
    if (!w->frame) return orri_image_fail(w->c, ORR_ERROR_MALFORMED, "JPEG scan before the frame header");
    uint32_t ns = at(w, p);
    if (ns < 1 || ns > w->comps || len != 4 + 2 * (size_t)ns)
        return orri_image_fail(w->c, ORR_ERROR_MALFORMED, "JPEG scan header of %zu bytes for %u components", len, ns);
    uint32_t ss = at(w, p + 1 + 2 * ns), ah = at(w, p + 3 + 2 * ns) >> 4;
    bool dc = !w->progressive || (ss == 0 && ah == 0), ac = !w->progressive || ss > 0;
    for (uint32_t i = 0; i < ns; i++) {
        uint32_t cs = at(w, p + 1 + 2 * i), t = at(w, p + 2 + 2 * i), k = 0;
        while (k < w->comps && w->id[k] != cs) k++;
        if (k == w->comps)
            return orri_image_fail(w->c, ORR_ERROR_MALFORMED, "JPEG scan names component %u, not in the frame", cs);
        orr_result r = dc ? need_table(w, 0, t >> 4, cs) : ORR_OK;
        if (r == ORR_OK && ac) r = need_table(w, 1, t & 15, cs);
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

/* Where the entropy-coded data that starts at p ends: at the 0xFF of the
 * next marker that is not RST0-7 (stuffed 0xFF 0x00 and fill bytes are data
 * and padding), or at the end of the file. */
static size_t scan_end(const jpeg_walk *w, size_t p) {
    while (p < w->n) {
        const uint8_t *ff = memchr(w->d + p, 0xff, w->n - p);
        if (!ff) return w->n;
        size_t i = (size_t)(ff - w->d), j = i + 1;
        while (j < w->n && w->d[j] == 0xff) j++;
        if (j >= w->n) return w->n;
        if (w->d[j] != 0x00 && (w->d[j] < 0xd0 || w->d[j] > 0xd7)) return i;
        p = j + 1;
    }
    return w->n;
}

static bool is_sof(uint32_t m) { return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc; }

/* The marker walk; stops where stb cannot go on (EOI, a marker without a
 * segment, one stb does not know, a second frame) or at the end. */
static orr_result walk(jpeg_walk *w) {
    size_t p = 2; /* after SOI */
    for (;;) {
        while (p < w->n && w->d[p] != 0xff) p++; /* not a marker: stb skips it */
        while (p < w->n && w->d[p] == 0xff) p++; /* fill bytes */
        if (p >= w->n) return ORR_OK;
        uint32_t m = w->d[p++];
        bool known = m == 0xc4 || m == 0xda || m == 0xdb || m == 0xdc || m == 0xdd || (m >= 0xe0 && m <= 0xef) ||
                     m == 0xfe || is_sof(m);
        if (!known || (is_sof(m) && w->frame)) return ORR_OK;
        uint32_t seg = be16(w, p);
        if (seg < 2)
            return orri_image_fail(w->c, ORR_ERROR_MALFORMED, "JPEG segment 0x%02x at byte %zu has length %u", m, p - 2,
                                   seg);
        size_t body = p + 2, len = seg - 2;
        orr_result r = ORR_OK;
        if (m == 0xc4)
            r = read_dht(w, body, len);
        else if (m == 0xc0 || m == 0xc1 || m == 0xc2)
            r = read_sof(w, m, body, len);
        else if (is_sof(m))
            r = orri_image_fail(w->c, ORR_ERROR_UNSUPPORTED,
                                "JPEG SOF%u (lossless, hierarchical or arithmetic-coded) is not supported", m - 0xc0);
        else if (m == 0xda)
            r = read_sos(w, body, len);
        if (r != ORR_OK) return r;
        p = body + len;
        if (m == 0xda) {
            size_t end = scan_end(w, p);
            w->scan_bytes += end > p ? end - p : 0;
            p = end;
        }
    }
}

orr_result orri_jpeg_check(orri_image_ctx *c, const uint8_t *d, size_t n, uint32_t *width, uint32_t *height) {
    if (!orri_is_jpeg(d, n)) return orri_image_fail(c, ORR_ERROR_MALFORMED, "not a JPEG file (SOI)");
    jpeg_walk w = {.c = c, .d = d, .n = n};
    orr_result r = walk(&w);
    if (r != ORR_OK) return r;
    if (!w.frame) return orri_image_fail(c, ORR_ERROR_MALFORMED, "JPEG without a frame header (SOF0, SOF1 or SOF2)");
    r = orri_image_check_size(c, ORR_PIXEL_RGBA8, w.width, w.height, 1, 1);
    if (r != ORR_OK) return r;
    uint32_t hmax = 1, vmax = 1;
    for (uint32_t i = 0; i < w.comps; i++) {
        hmax = w.h[i] > hmax ? w.h[i] : hmax;
        vmax = w.v[i] > vmax ? w.v[i] : vmax;
    }
    uint64_t blocks = 0; /* sizes <= 16384: no overflow */
    for (uint32_t i = 0; i < w.comps; i++) {
        uint64_t cw = ((uint64_t)w.width * w.h[i] + hmax - 1) / hmax,
                 ch = ((uint64_t)w.height * w.v[i] + vmax - 1) / vmax;
        blocks += ((cw + 7) / 8) * ((ch + 7) / 8);
    }
    uint64_t need = (blocks + 7) / 8;
    if (w.scan_bytes < need)
        return orri_image_fail(c, ORR_ERROR_MALFORMED,
                               "JPEG scan data too short (truncated?): %ux%u in %u components codes %llu blocks, which "
                               "take at least %llu bytes (a bit each); the scans hold %llu",
                               w.width, w.height, w.comps, (unsigned long long)blocks, (unsigned long long)need,
                               (unsigned long long)w.scan_bytes);
    *width = w.width, *height = w.height;
    return ORR_OK;
}
