/* pack.c — the per-frame pack of a manager's sprites for the GPU.
 *
 * One pass over the sprites: the anchor goes through the frame's eye seam
 * (eye-relative under floating origin, cells first, then float64, then the
 * float32 store), the bounding sphere (radius half the diagonal) is tested
 * against the upload-frame frustum, and the 32-byte record is written. FACING
 * managers then sort back to front by view depth: a stable LSD radix sort
 * on 32-bit keys (three 11-bit passes), linear in the count, so a million
 * sprites sort in a few milliseconds; equal depths keep creation order.
 */
#include <math.h>
#include <string.h>

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
    if (k) m->scratch = k;
    orri_gpu_sprite *t = k ? orri_realloc(a, m->scratch_sprites, (size_t)cap * sizeof *t) : NULL;
    if (t) m->scratch_sprites = t;
    if (!k || !t) return false;
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

static bool visible(const orri_sprite_frame *f, orr_dvec3 a, const orri_sprite *sp) {
    if (!f->frustum) return true;
    double r = 0.5 * sqrt(sp->width * sp->width + sp->height * sp->height);
    return orr_frustum_test_sphere(f->frustum, (orr_dsphere){a, r});
}

orr_result orri_sprite_pack(orr_sprite_manager *m, const orri_sprite_frame *f, bool sort, orri_gpu_sprite *out,
                            uint32_t *count) {
    *count = 0;
    if (sort && !ensure_scratch(m))
        return orri_fail(m->scene->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "sprites '%s': sort scratch", m->label);
    orri_gpu_sprite *dst = sort ? m->scratch_sprites : out;
    uint32_t *keys = m->scratch, *idx = keys + m->scratch_cap;
    uint32_t n = 0;
    const uint32_t flip_u = f->right_handed ? 1u : 0u; /* Babylon.js: inverts.x = invertU XOR right-handed */
    for (uint32_t i = 0; i < m->count; i++) {
        const orri_sprite *sp = &m->sprites[i];
        if ((sp->flags & (ORRI_SPRITE_LIVE | ORRI_SPRITE_VISIBLE)) != (ORRI_SPRITE_LIVE | ORRI_SPRITE_VISIBLE))
            continue;
        orr_dvec3 a = f->anchor(f->user, sp->position);
        if (!visible(f, a, sp)) continue;
        uint32_t inv_u = ((sp->flags & ORRI_SPRITE_INV_U) ? 1u : 0u) ^ flip_u;
        uint32_t inv_v = (sp->flags & ORRI_SPRITE_INV_V) ? 1u : 0u;
        dst[n] = (orri_gpu_sprite){(float)a.x,
                                   (float)a.y,
                                   (float)a.z,
                                   (float)sp->angle,
                                   (float)sp->width,
                                   (float)sp->height,
                                   sp->cell | inv_u << 30 | inv_v << 31,
                                   pack_color(sp->color)};
        if (sort) keys[n] = back_to_front_key((float)orri_sprite_view_depth(f, a)), idx[n] = n;
        n++;
    }
    if (sort) {
        radix_sort(n, keys, idx, keys + 2 * (size_t)m->scratch_cap, idx + 2 * (size_t)m->scratch_cap);
        for (uint32_t j = 0; j < n; j++) out[j] = dst[idx[j]];
    }
    *count = n;
    return ORR_OK;
}
