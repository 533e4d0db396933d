/* ibl.c — image-based lighting data of cube textures (texture_int.h).
 * STUB (issue 11, in progress): no harmonics and a white BRDF table; the
 * IBL work replaces both. */
#include <string.h>

#include "texture/texture_int.h"

orr_result orri_texture_ibl(orr_engine *e, orr_texture cube, orri_ibl *out) {
    memset(out, 0, sizeof *out);
    orri_texture *t = orri_texture_get(e, cube);
    out->valid = t && t->image.layers == 6;
    out->cube = out->valid ? t : orri_texture_fallback(e, true);
    out->mips = out->cube ? out->cube->image.mips : 1;
    return ORR_OK;
}

orri_texture *orri_brdf_lut(orr_engine *e) { return orri_texture_fallback(e, false); }
