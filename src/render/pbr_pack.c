/* pbr_pack.c — the per-draw PBR block (gpu_types.h ORRI_PBR_FIELDS) and the
 * PBR vertex streams of a mesh (tangents, second UV set).
 *
 * Handedness (seeds/001, docs/handedness.md): Babylon.js's glTF loader sets
 * invertNormalMapX = !rightHanded, invertNormalMapY = rightHanded, which
 * signs the cotangent frame (−1, 1) left-handed and (1, −1) right-handed.
 * This renderer's framebuffer runs y down (negative viewport height), which
 * negates dFdy and so both axes of the derivative frame once more: the signs
 * uploaded are (1, −1) and (−1, 1). The right-handed build also mirrors cube
 * lookups in z (Babylon.js REFLECTIONMAP_OPPOSITEZ), as the background does.
 */
#include <math.h>
#include <string.h>

#include "orrery/handedness.h"
#include "render/renderer_int.h"

static const orr_texture_slot *slot_of(const orr_pbr_material_desc *p, int k) {
    const orr_texture_slot *s[ORRI_PBR_SLOTS] = {&p->base_color_texture, &p->metallic_roughness_texture,
                                                 &p->normal_texture, &p->occlusion_texture, &p->emissive_texture};
    return s[k];
}

/* KHR_texture_transform: uv' = T(offset) · R(rotation) · S(scale) · uv with
 * R = [c s; −s c] (rows), the extension's counter-clockwise rotation in UV
 * space (v down the image). */
static void pack_transform(const orr_texture_slot *t, orr_vec4f *r0, orr_vec4f *r1) {
    double c = cos(t->rotation), s = sin(t->rotation);
    *r0 = (orr_vec4f){(float)(c * t->scale.x), (float)(s * t->scale.y), (float)t->offset.x, (float)t->uv_set};
    *r1 = (orr_vec4f){(float)(-s * t->scale.x), (float)(c * t->scale.y), (float)t->offset.y, 0};
}

/* 8-bit textures sampled without sRGB decode are decoded in the shader with
 * Babylon.js's toLinearSpace (pow 2.2); sRGB-decoded and float ones are not. */
static bool needs_decode(const orri_texture *t) {
    VkFormat f = t->image.format;
    return f == VK_FORMAT_R8G8B8A8_UNORM || f == VK_FORMAT_B8G8R8A8_UNORM || f == VK_FORMAT_R8G8B8_UNORM;
}

static uint32_t texture_flags(orr_engine *e, const orr_pbr_material_desc *p, uint32_t *decode) {
    uint32_t f = 0;
    *decode = 0;
    for (int k = 0; k < ORRI_PBR_SLOTS; k++) {
        orri_texture *t = orri_texture_get(e, slot_of(p, k)->texture);
        if (!t || t->image.layers != 1) continue;
        f |= ORRI_PBR_TEX_BASE << k;
        if ((k == 0 || k == 4) && needs_decode(t)) *decode |= ORRI_PBR_TEX_BASE << k;
    }
    return f;
}

static void pack_ibl(orr_engine *e, orr_scene *s, orri_gpu_pbr *b, uint32_t *flags) {
    orri_ibl ibl;
    if (orri_texture_ibl(e, s->environment_texture, &ibl) != ORR_OK || !ibl.valid) return;
    *flags |= ORRI_PBR_IBL;
    b->ibl = (orr_vec4f){(float)(ibl.mips ? ibl.mips - 1 : 0), (float)ibl.size, ibl.lod_generation_scale,
                         ibl.lod_generation_offset};
    for (int i = 0; i < 9; i++) b->sh[i] = (orr_vec4f){ibl.sh[i][0], ibl.sh[i][1], ibl.sh[i][2], 0};
}

uint64_t orri_pbr_frame_key(orr_engine *e, orr_scene *s) {
    orri_ibl ibl;
    if (orri_texture_ibl(e, s->environment_texture, &ibl) != ORR_OK) return 0;
    uint64_t h = orri_mix((uint64_t)(uintptr_t)ibl.cube, ibl.mips * 4u + ibl.prefiltered * 2u + ibl.valid);
    float lod[2] = {ibl.lod_generation_scale, ibl.lod_generation_offset};
    uint32_t lod_bits[2];
    memcpy(lod_bits, lod, sizeof lod);
    h = orri_mix(orri_mix(h, lod_bits[0]), lod_bits[1]);
    uint32_t bits[36];
    memcpy(bits, ibl.sh, sizeof bits);
    for (int i = 0; i < 36; i++) h = orri_mix(h, bits[i]);
    return h;
}

void orri_pbr_pack(orr_engine *e, orr_scene *s, orri_node *n, orri_material *m, void *block) {
    const orr_pbr_material_desc *p = &m->pbr;
    orri_gpu_pbr b;
    memset(&b, 0, sizeof b);
    orr_color4 c = p->base_color.value;
    b.base_color = (orr_vec4f){(float)c.r, (float)c.g, (float)c.b, (float)c.a};
    double es = p->emissive_strength.value;
    b.emissive = orri_pack_color((orr_color3){p->emissive.r * es, p->emissive.g * es, p->emissive.b * es}, 0);
    b.factors = orr_dvec4_to_f32(
        (orr_dvec4){p->metallic.value, p->roughness.value, p->normal_scale.value, p->occlusion_strength.value});
    double sx = ORR_RIGHT_HANDED ? -1 : 1;
    b.alpha = orr_dvec4_to_f32((orr_dvec4){p->alpha_cutoff.value, p->environment_intensity.value, sx, -sx});
    const orr_image_processing *ip = &s->image_processing;
    b.ip = orr_dvec4_to_f32(
        (orr_dvec4){ip->exposure.value, ip->contrast.value, (double)(ip->tone_mapping - ORR_TONE_MAPPING_NONE), 0});
    for (int k = 0; k < ORRI_PBR_SLOTS; k++) pack_transform(slot_of(p, k), &b.uv_rows[2 * k], &b.uv_rows[2 * k + 1]);
    uint32_t decode, f = texture_flags(e, p, &decode);
    const orr_geometry *geo = &orri_node_mesh(n)->geometry;
    if (p->unlit) f |= ORRI_PBR_UNLIT;
    if ((p->vertex_colors.value && geo->colors) || orri_node_mesh(n)->thin) f |= ORRI_PBR_VERTEX_COLOR;
    if (p->double_sided) f |= ORRI_PBR_DOUBLE_SIDED;
    if (p->specular_anti_aliasing.value) f |= ORRI_PBR_SPECULAR_AA;
    if (geo->tangents) f |= ORRI_PBR_TANGENTS;
    if (orri_node_mesh(n)->receive_shadows) f |= ORRI_PBR_RECEIVE_SHADOWS;
    if (p->alpha_mode == ORR_ALPHA_MASK) f |= ORRI_PBR_ALPHA_TEST;
    if (p->alpha_mode == ORR_ALPHA_BLEND) f |= ORRI_PBR_ALPHA_BLEND;
    if (ORR_RIGHT_HANDED) f |= ORRI_PBR_OPPOSITE_Z;
    pack_ibl(e, s, &b, &f);
    b.flags = (orri_uvec4){f, decode, 0, 0};
    memcpy(block, &b, sizeof b);
}

orr_result orri_pbr_upload_streams(orr_engine *e, VkCommandBuffer batch, orri_geometry_gpu *g,
                                   const orr_geometry *geo) {
    const float *src[2] = {geo->tangents, geo->uvs2};
    orri_buffer *dst[2] = {&g->tangents, &g->uvs2};
    const size_t stride[2] = {16, 8};
    for (int i = 0; i < 2; i++) {
        if (!src[i]) continue;
        size_t size = stride[i] * geo->vertex_count;
        /* tangents: also the skinning pre-pass's source (storage) */
        orr_result r =
            orri_buffer_create(&e->gpu, size, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               ORRI_MEM_DEVICE, i ? "mesh uvs2" : "mesh tangents", dst[i]);
        if (r == ORR_OK) r = orri_buffer_upload(&e->gpu, batch, dst[i], 0, src[i], size);
        if (r != ORR_OK) return r;
        g->bytes += size;
    }
    return ORR_OK;
}
