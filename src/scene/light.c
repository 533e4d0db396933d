/* light.c — Babylon.js lights: hemispheric, directional, point, spot.
 * Defaults as Babylon.js: diffuse and specular white, intensity 1, range
 * Number.MAX_VALUE (stored as +inf: attenuation 1 − d/range stays 1). */
#include <math.h>

#include "scene/scene_int.h"

/* The one resolver of the desc: every optional set, Babylon.js defaults. */
orr_light_desc orr_light_desc_defaults(const orr_light_desc *desc) {
    orr_light_desc d = desc ? *desc : (orr_light_desc){0};
    if (!d.diffuse.set) d.diffuse = ORR_RGB(1, 1, 1);
    if (!d.specular.set) d.specular = ORR_RGB(1, 1, 1);
    if (!d.intensity.set) d.intensity = ORR_F64(1);
    if (d.range <= 0) d.range = INFINITY;
    if (d.direction.x == 0 && d.direction.y == 0 && d.direction.z == 0)
        d.direction = d.type == ORR_LIGHT_HEMISPHERIC ? (orr_dvec3){0, 1, 0} : (orr_dvec3){0, -1, 0};
    if (d.type == ORR_LIGHT_SPOT && d.angle <= 0) d.angle = 3.14159265358979323846 / 2;
    if (d.type == ORR_LIGHT_SPOT && d.exponent == 0) d.exponent = 1;
    d.label = NULL;
    return d;
}

static bool finite_color(orr_color3 c) { return isfinite(c.r) && isfinite(c.g) && isfinite(c.b); }

/* Every number of a light must be finite (range may be +infinity: no
 * falloff); one NaN would reach every lit pixel. */
static bool desc_ok(orr_scene *s, const orr_light_desc *d, const char *what) {
    if (!d) return true;
    if (orr_dvec3_is_finite(d->position) && orr_dvec3_is_finite(d->direction) && finite_color(d->diffuse.value) &&
        finite_color(d->specular.value) && finite_color(d->ground_color) && isfinite(d->intensity.value) &&
        !isnan(d->range) && d->range != -INFINITY && isfinite(d->angle) && isfinite(d->exponent))
        return true;
    orri_misuse(s->ctx, ORR_MSG_NOT_FINITE,
                "%s: a position, direction, colour, intensity, range, angle or exponent is not finite", what);
    return false;
}

orr_light orr_light_create(orr_scene *s, const orr_light_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_light_create: scene is NULL");
        return (orr_light){0};
    }
    if (desc && (unsigned)desc->type > ORR_LIGHT_SPOT) {
        orri_misuse(s->ctx, ORR_MSG_UNKNOWN_ENUM, "orr_light_create: unknown light type %d", (int)desc->type);
        return (orr_light){0};
    }
    if (!desc_ok(s, desc, "orr_light_create")) return (orr_light){0};
    orri_node *n;
    orr_node_desc nd = {.position = desc ? desc->position : (orr_dvec3){0},
                        .label = desc && desc->label ? desc->label : "light"};
    uint32_t id = orri_node_alloc(s, ORRI_NODE_LIGHT, &nd, &n);
    if (!id) return (orr_light){0};
    n->u.light.desc = orr_light_desc_defaults(desc);
    n->u.light.enabled = true;
    n->u.light.version = orri_scene_next_version(s);
    return (orr_light){id};
}

orr_node orr_light_node(orr_light light) { return (orr_node){light.id}; }

void orr_light_destroy(orr_scene *s, orr_light light) {
    if (!s || !light.id) return;
    if (orri_node_get_kind(s, light.id, ORRI_NODE_LIGHT, "orr_light_destroy"))
        orr_node_destroy(s, orr_light_node(light));
}

void orr_light_set(orr_scene *s, orr_light light, const orr_light_desc *desc) {
    orri_node *n = orri_node_get_kind(s, light.id, ORRI_NODE_LIGHT, "orr_light_set");
    if (!n || !desc_ok(s, desc, "orr_light_set")) return;
    orr_light_type type = n->u.light.desc.type;
    n->u.light.desc = orr_light_desc_defaults(desc);
    n->u.light.desc.type = type; /* the type is fixed at creation, as in Babylon.js */
    n->position = desc ? desc->position : (orr_dvec3){0};
    orri_node_touch(s, n);
    n->u.light.version = orri_scene_next_version(s);
}

orr_light_desc orr_light_get(const orr_scene *s, orr_light light) {
    orri_node *n = orri_node_get_kind(s, light.id, ORRI_NODE_LIGHT, "orr_light_get");
    if (!n) return (orr_light_desc){0};
    orr_light_desc d = n->u.light.desc;
    d.position = n->position;
    return d;
}

void orr_light_set_enabled(orr_scene *s, orr_light light, bool enabled) {
    orri_node *n = orri_node_get_kind(s, light.id, ORRI_NODE_LIGHT, "orr_light_set_enabled");
    if (!n) return;
    n->u.light.enabled = enabled;
    n->u.light.version = orri_scene_next_version(s);
}
