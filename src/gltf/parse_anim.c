/* parse_anim.c — skins (glTF 2.0 spec 3.7.3) and animations (3.11) decoded
 * on the CPU: joints and inverse bind matrices; per channel its target node
 * and path (translation, rotation, scale, weights), interpolation (LINEAR,
 * STEP, CUBICSPLINE: in-tangent, value, out-tangent per key) and keys.
 * Channels without a node (KHR_animation_pointer) are skipped with a
 * warning. Key times must be finite, from 0 and strictly increasing, and
 * rotation keys of some length (the spec; orrery/animation.h refuses others). */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_int.h"
#include "orrery/handedness.h"

static orr_result joints_of(orri_gltf_ctx *c, const cJSON *j, const char *path, const orri_gltf_doc *doc,
                            orri_gltf_skin *s) {
    int64_t n = orri_json_array(c, j, "joints", path);
    if (n < 0) return orr_last_result();
    if (n == 0) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.joints is missing or empty", path);
    if (!(s->joints = orri_gltf_alloc(c, (size_t)n, sizeof(uint32_t), path))) return orr_last_result();
    uint32_t k = 0;
    for (const cJSON *e = orri_json_member(j, "joints")->child; e; e = e->next, k++) {
        double d = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (!(d >= 0 && d < doc->node_count) || d != floor(d))
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.joints[%u] is not a node index", path, k);
        s->joints[k] = (uint32_t)d;
    }
    s->joint_count = (uint32_t)n;
    return ORR_OK;
}

static orr_result parse_skin(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "skins[%u]", i);
    orri_gltf_skin *s = &doc->skins[i];
    s->name = orri_gltf_strdup(c, orri_json_str(j, "name"));
    int64_t ibm, skel;
    if (!orri_json_int(c, j, "inverseBindMatrices", 0, INT32_MAX, -1, &ibm, path) ||
        !orri_json_int(c, j, "skeleton", 0, (int64_t)doc->node_count - 1, -1, &skel, path))
        return ORR_ERROR_MALFORMED;
    s->skeleton = (int32_t)skel;
    orr_result r = joints_of(c, j, path, doc, s);
    if (r != ORR_OK) return r;
    if (ibm < 0) {
        if (!(s->inverse_bind = orri_gltf_alloc(c, s->joint_count, 16 * sizeof(float), path))) return orr_last_result();
        for (uint32_t k = 0; k < s->joint_count; k++)
            for (int d = 0; d < 4; d++) s->inverse_bind[k * 16 + d * 5] = 1;
        return ORR_OK;
    }
    char p[96];
    snprintf(p, sizeof p, "%s.inverseBindMatrices", path);
    uint32_t count, comps;
    r = orri_gltf_read_floats(c, doc, ibm, 1u << 16, p, &s->inverse_bind, &count, &comps);
    if (r == ORR_OK && count < s->joint_count)
        r = orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s has %u matrices for %u joints", p, count, s->joint_count);
    return r;
}

static orr_result path_of(orri_gltf_ctx *c, const char *s, const char *path, orri_gltf_path *out) {
    static const char *const names[4] = {"translation", "rotation", "scale", "weights"};
    for (int k = 0; s && k < 4; k++)
        if (strcmp(s, names[k]) == 0) return *out = (orri_gltf_path)k, ORR_OK;
    return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.target.path \"%s\" is unknown", path, s ? s : "(missing)");
}

/* Keys of one sampler for one channel: times, values and the value size. */
static orr_result keys(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *sampler, const char *spath,
                       orri_gltf_channel *ch) {
    int64_t in, outp;
    if (!orri_json_int(c, sampler, "input", 0, INT32_MAX, -1, &in, spath) ||
        !orri_json_int(c, sampler, "output", 0, INT32_MAX, -1, &outp, spath))
        return ORR_ERROR_MALFORMED;
    const char *interp = orri_json_str(sampler, "interpolation");
    ch->interpolation = !interp || strcmp(interp, "LINEAR") == 0 ? ORRI_GLTF_LINEAR
                        : strcmp(interp, "STEP") == 0            ? ORRI_GLTF_STEP
                        : strcmp(interp, "CUBICSPLINE") == 0     ? ORRI_GLTF_CUBIC
                                                                 : (orri_gltf_interp)-1;
    if ((int)ch->interpolation < 0)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.interpolation \"%s\" is unknown", spath, interp);
    char p[128];
    snprintf(p, sizeof p, "%s.input", spath);
    uint32_t n, comps, vn, vcomps;
    orr_result r = orri_gltf_read_floats(c, doc, in, 1u << 1, p, &ch->times, &n, &comps);
    for (uint32_t k = 0; r == ORR_OK && k < n; k++)
        if (!(k ? ch->times[k] > ch->times[k - 1] : ch->times[0] >= 0))
            r = orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s[%u]: key times are not increasing from 0 or more", p, k);
    if (r != ORR_OK) return r;
    ch->key_count = n;
    snprintf(p, sizeof p, "%s.output", spath);
    uint32_t mask = ch->path == ORRI_GLTF_W ? 1u << 1 : ch->path == ORRI_GLTF_R ? 1u << 4 : 1u << 3;
    r = orri_gltf_read_floats(c, doc, outp, mask, p, &ch->values, &vn, &vcomps);
    if (r != ORR_OK) return r;
    uint64_t per = (uint64_t)n * (ch->interpolation == ORRI_GLTF_CUBIC ? 3u : 1u);
    ch->comps = vcomps;
    if (ch->path == ORRI_GLTF_W) {
        ch->comps = per ? (uint32_t)(vn / per) : 0;
        vcomps = 1;
    }
    if ((uint64_t)vn * vcomps != per * ch->comps || ch->comps == 0)
        return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s has %u values for %u keys (%s)", p, vn, n,
                              ch->interpolation == ORRI_GLTF_CUBIC ? "CUBICSPLINE: 3 per key" : "1 per key");
    uint32_t step = ch->interpolation == ORRI_GLTF_CUBIC ? 3u : 1u, at = ch->interpolation == ORRI_GLTF_CUBIC;
    for (uint32_t k = 0; ch->path == ORRI_GLTF_R && k < n; k++) {
        const float *q = ch->values + ((size_t)k * step + at) * 4;
        if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-12f))
            return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s[%u]: a rotation of no length", p, k);
    }
    return ORR_OK;
}

static orr_result parse_channel(orri_gltf_ctx *c, const orri_gltf_doc *doc, const cJSON *anim, const cJSON *j,
                                const char *apath, uint32_t k, orri_gltf_channel *ch, bool *skip) {
    char path[96];
    snprintf(path, sizeof path, "%s.channels[%u]", apath, k);
    int64_t sampler, node;
    const cJSON *target = orri_json_member(j, "target");
    int64_t ns = orri_json_array(c, anim, "samplers", apath);
    if (ns < 0 || !orri_json_int(c, j, "sampler", 0, ns - 1, -1, &sampler, path) ||
        !orri_json_int(c, target, "node", 0, (int64_t)doc->node_count - 1, -1, &node, path))
        return ORR_ERROR_MALFORMED;
    if (sampler < 0) return orri_gltf_fail(c, ORR_ERROR_MALFORMED, "%s.sampler is missing", path);
    if (node < 0) {
        orri_gltf_warn(c, "%s has no target node: skipped", path);
        return *skip = true, ORR_OK;
    }
    ch->node = (uint32_t)node;
    orr_result r = path_of(c, orri_json_str(target, "path"), path, &ch->path);
    char sp[96];
    snprintf(sp, sizeof sp, "%s.samplers[%lld]", apath, (long long)sampler);
    return r == ORR_OK ? keys(c, doc, cJSON_GetArrayItem(orri_json_member(anim, "samplers"), (int)sampler), sp, ch) : r;
}

static orr_result parse_animation(orri_gltf_ctx *c, const cJSON *j, uint32_t i, orri_gltf_doc *doc) {
    char path[64];
    snprintf(path, sizeof path, "animations[%u]", i);
    orri_gltf_animation *a = &doc->animations[i];
    a->name = orri_gltf_strdup(c, orri_json_str(j, "name"));
    int64_t n = orri_json_array(c, j, "channels", path);
    if (n < 0) return orr_last_result();
    if (n && !(a->channels = orri_gltf_alloc(c, (size_t)n, sizeof *a->channels, path))) return orr_last_result();
    uint32_t k = 0;
    for (const cJSON *e = n ? orri_json_member(j, "channels")->child : NULL; e; e = e->next, k++) {
        bool skip = false;
        orri_gltf_channel *ch = &a->channels[a->channel_count];
        orr_result r = parse_channel(c, doc, j, e, path, k, ch, &skip);
        if (r == ORR_OK && !skip) a->channel_count++;
        if (r != ORR_OK || skip) {
            orri_gltf_free(c, ch->times), orri_gltf_free(c, ch->values);
            *ch = (orri_gltf_channel){0};
        }
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

orr_result orri_gltf_parse_skins(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    PARSE_ARRAY("skins", skins, skin_count, parse_skin(c, j_, i_, doc));
    return ORR_OK;
}

orr_result orri_gltf_parse_animations(orri_gltf_ctx *c, const cJSON *root, orri_gltf_doc *doc) {
    PARSE_ARRAY("animations", animations, animation_count, parse_animation(c, j_, i_, doc));
    return ORR_OK;
}
