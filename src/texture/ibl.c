/* ibl.c — image-based lighting data of cube textures (texture_int.h,
 * orrery/texture.h "Image-based lighting"): what every new cube gets
 * (orri_texture_ibl_finish), what the PBR material reads (orri_texture_ibl)
 * and the public harmonics query.
 *
 * Invariant: every live cube made through orr_texture_create /
 * orr_texture_load_* has its harmonics (source != NONE) from the moment
 * the call returns, so that nothing computes them while a frame is being
 * recorded; the engine's fallback cube has none (valid = false).
 */
#include <stdio.h>
#include <string.h>

#include "texture/texture_int.h"

static void to_vec4(const double in[9][3], float out[9][4]) {
    for (int l = 0; l < 9; l++) {
        for (int i = 0; i < 3; i++) out[l][i] = (float)in[l][i];
        out[l][3] = 0;
    }
}

orr_result orri_texture_ibl(orr_engine *e, orr_texture cube, orri_ibl *out) {
    memset(out, 0, sizeof *out);
    orri_texture *t = orri_texture_get(e, cube);
    out->valid = t && t->image.layers == 6;
    out->cube = out->valid ? t : orri_texture_fallback(e, true);
    out->mips = out->cube ? out->cube->image.mips : 1;
    out->size = out->cube ? out->cube->image.width : 1;
    out->lod_generation_scale = 0.8f;
    if (!out->valid) return ORR_OK;
    to_vec4(t->sh.prescaled, out->sh);
    to_vec4(t->sh.polynomial, out->polynomial);
    out->prefiltered = t->prefiltered;
    if (t->prefiltered) out->lod_generation_scale = t->lod_generation_scale;
    return ORR_OK;
}

orr_result orr_texture_get_spherical_harmonics(orr_engine *e, orr_texture texture, orr_spherical_harmonics *out) {
    if (out) *out = (orr_spherical_harmonics){0};
    if (!e || !out) return orri_texture_null_args(e, "orr_texture_get_spherical_harmonics", "engine or out");
    orri_texture *t = orri_texture_get(e, texture);
    if (!t) {
        orri_misuse(orri_engine_textures(e)->ctx, ORR_MSG_INVALID_HANDLE,
                    "orr_texture_get_spherical_harmonics: texture 0x%08x is null or stale", texture.id);
        return ORR_ERROR_INVALID_HANDLE;
    }
    *out = t->sh;
    return ORR_OK;
}

/* The prefiltered cube replaces the one just made (counted in its place). */
static orr_result replace_by_prefiltered(orr_engine *e, const orr_prefilter_desc *p, orr_texture *out) {
    orri_texture_store *ts = orri_engine_textures(e);
    orr_prefilter_desc d = *p;
    char label[sizeof((orri_texture){0}).label]; /* the pool may move while the result is made */
    snprintf(label, sizeof label, "%s", orri_texture_get(e, *out)->label);
    if (!d.label) d.label = label;
    orr_texture pf;
    orr_result r = orri_texture_prefilter(e, *out, &d, true, &pf);
    orri_texture_entry_free(e, out->id, false); /* nothing submitted uses it any more */
    *out = (orr_texture){0};
    if (r != ORR_OK) return r;
    orri_texture *t = orri_texture_get(e, pf);
    t->internal = false, ts->live++;
    *out = pf;
    return ORR_OK;
}

orr_result orri_texture_ibl_finish(orr_engine *e, const orr_texture_desc *d, const orr_env_info *env,
                                   orr_texture *out) {
    orri_texture *t = orri_texture_get(e, *out);
    bool cube = t->image.layers == 6;
    orr_result r = ORR_OK;
    if (!cube && d->prefilter) {
        orri_misuse(orri_engine_textures(e)->ctx, ORR_MSG_WRONG_KIND,
                    "orr_texture_create: desc.prefilter needs a cube ('%s' is 2D)", t->label);
        r = ORR_ERROR_INVALID_ARGUMENT;
    } else if (cube && env) {
        t->prefiltered = true;
        t->lod_generation_scale = (float)(env->lod_generation_scale > 0 ? env->lod_generation_scale : 0.8);
        if (env->irradiance_kind != ORR_ENV_IRRADIANCE_NONE)
            orri_sh_from_env(env, &t->sh);
        else
            r = orri_sh_compute(e, t, &t->sh);
    } else if (cube) {
        r = orri_sh_compute(e, t, &t->sh);
        if (r == ORR_OK && d->prefilter) return replace_by_prefiltered(e, d->prefilter, out);
    }
    if (r != ORR_OK) {
        orri_texture_entry_free(e, out->id, false);
        *out = (orr_texture){0};
    }
    return r;
}
