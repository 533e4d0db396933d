/* pack.c — the sprites' GPU records.
 *
 * Default (creation order, as Babylon.js): one 80-byte record per slot,
 * camera-independent (the anchor's cell as int64 words, its local offset as
 * double-single; the vertex shader makes it eye-relative), rewritten only for
 * the slots that changed. No CPU frustum culling: the GPU cull pass
 * (sprite_cull.comp, decision 53) or, with it off, the rasterizer's clipping
 * drops off-screen sprites.
 *
 * depth_sort (opt-in): the visible sprites back to front by view depth, a
 * stable LSD radix sort on 32-bit keys (three 11-bit passes), linear in the
 * count; equal depths keep creation order. It depends on the camera, so every
 * camera move re-packs and re-uploads every sprite.
 */
#include <math.h>
#include <string.h>

#include "orrery/double_single.h"
#include "orrery/handedness.h"
#include "sprite/sprite_int.h"

double orri_sprite_view_depth(const orri_sprite_frame *f, orr_dvec3 p) {
    const double *v = f->view.m; /* column-major: row 2 is m[2], m[6], m[10], m[14] */
    double z = v[2] * p.x + v[6] * p.y + v[10] * p.z + v[14];
    return f->right_handed ? -z : z; /* right-handed views look down −z */
}

static uint32_t unorm8(double c) {
    c = c < 0 ? 0 : c > 1 ? 1 : c;
    return (uint32_t)lrint(c * 255.0);
}

static uint32_t pack_color(orr_color4 c) {
    return unorm8(c.r) | unorm8(c.g) << 8 | unorm8(c.b) << 16 | unorm8(c.a) << 24;
}

/* Larger depth first: the key orders ascending as the depth descends. */
static uint32_t back_to_front_key(float depth) {
    uint32_t u;
    memcpy(&u, &depth, 4);
    u = (u & 0x80000000u) ? ~u : u | 0x80000000u; /* ascending with depth */
    return ~u;
}

static bool ensure_scratch(orr_sprite_manager *m) {
    if (m->scratch_cap >= m->count) return true;
    const orr_allocator *a = &m->scene->ctx->allocator;
    uint32_t cap = m->capacity;
    uint32_t *k = orri_realloc(a, m->scratch, (size_t)cap * 4 * sizeof *k);
    if (!k) return false;
    m->scratch = k;
    m->scratch_cap = cap;
    return true;
}

static void radix_sort(uint32_t n, uint32_t *keys, uint32_t *idx, uint32_t *keys2, uint32_t *idx2) {
    for (uint32_t shift = 0; shift < 33; shift += 11) {
        uint32_t hist[2048] = {0};
        for (uint32_t i = 0; i < n; i++) hist[(keys[i] >> shift) & 2047u]++;
        uint32_t sum = 0;
        for (uint32_t b = 0; b < 2048; b++) {
            uint32_t c = hist[b];
            hist[b] = sum, sum += c;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t d = hist[(keys[i] >> shift) & 2047u]++;
            keys2[d] = keys[i], idx2[d] = idx[i];
        }
        uint32_t *t = keys;
        keys = keys2, keys2 = t;
        t = idx, idx = idx2, idx2 = t;
    }
    /* Three passes: the result is in the second buffers; copy back. */
    memcpy(keys2, keys, (size_t)n * sizeof *keys);
    memcpy(idx2, idx, (size_t)n * sizeof *idx);
}

orri_gpu_sprite orri_sprite_record(const orr_sprite_manager *m, uint32_t i, bool right_handed) {
    const orri_sprite *sp = &m->sprites[i];
    orri_gpu_sprite r = {.hidden = 1};
    if ((sp->flags & (ORRI_SPRITE_LIVE | ORRI_SPRITE_VISIBLE)) != (ORRI_SPRITE_LIVE | ORRI_SPRITE_VISIBLE)) return r;
    const double *l = &sp->position.local.x;
    const int64_t *c = &sp->position.cell.x;
    for (int k = 0; k < 3; k++) {
        orr_ds d = orr_ds_split(l[k]);
        r.hi[k] = d.hi, r.lo[k] = d.lo;
        uint64_t u = (uint64_t)c[k];
        r.cell[2 * k] = (uint32_t)u, r.cell[2 * k + 1] = (uint32_t)(u >> 32);
    }
    uint32_t inv_u = ((sp->flags & ORRI_SPRITE_INV_U) ? 1u : 0u) ^ (right_handed ? 1u : 0u);
    uint32_t inv_v = (sp->flags & ORRI_SPRITE_INV_V) ? 1u : 0u;
    r.angle = (float)sp->angle, r.width = (float)sp->width, r.height = (float)sp->height;
    r.cell_flags = sp->cell | inv_u << 30 | inv_v << 31;
    r.color = pack_color(sp->color);
    r.hidden = 0;
    return r;
}

void orri_sprite_write_range(const orr_sprite_manager *m, bool right_handed, orri_gpu_sprite *out, uint32_t lo,
                             uint32_t hi) {
    for (uint32_t i = lo; i < hi && i < m->count; i++) out[i] = orri_sprite_record(m, i, right_handed);
}

orr_result orri_sprite_pack_sorted(orr_sprite_manager *m, const orri_sprite_frame *f, orri_gpu_sprite *out,
                                   uint32_t *count) {
    *count = 0;
    if (!ensure_scratch(m))
        return orri_fail(m->scene->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "sprites '%s': sort scratch", m->label);
    uint32_t *keys = m->scratch, *idx = keys + m->scratch_cap;
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->count; i++) {
        const orri_sprite *sp = &m->sprites[i];
        if ((sp->flags & (ORRI_SPRITE_LIVE | ORRI_SPRITE_VISIBLE)) != (ORRI_SPRITE_LIVE | ORRI_SPRITE_VISIBLE))
            continue;
        orr_dvec3 a = f->anchor(f->user, sp->position);
        keys[n] = back_to_front_key((float)orri_sprite_view_depth(f, a)), idx[n] = i;
        n++;
    }
    radix_sort(n, keys, idx, keys + 2 * (size_t)m->scratch_cap, idx + 2 * (size_t)m->scratch_cap);
    for (uint32_t j = 0; j < n; j++) out[j] = orri_sprite_record(m, idx[j], f->right_handed);
    *count = n;
    return ORR_OK;
}
