/* sizing.c — default options and scene sizing of Babylon.js's
 * EnvironmentHelper (_GetDefaultOptions, _getSceneSize with sizeAuto = true;
 * seeds/004 "Scene Size Computation"). CPU only.
 *
 * The scene box is Babylon's scene.getWorldExtends over every mesh (visible
 * or not, as Babylon): orr_scene_get_world_extends (src/scene/framing.c).
 */
#include <math.h>

#include "background/background_int.h"
#include "orrery/instances.h"
#include "scene/thin_int.h"

orr_environment_desc orri_environment_resolve(const orr_environment_desc *desc) {
    orr_environment_desc d = desc ? *desc : (orr_environment_desc){0};
    if (!(d.ground_size > 0)) d.ground_size = ORRI_BG_GROUND_SIZE;
    if (!(d.skybox_size > 0)) d.skybox_size = ORRI_BG_SKYBOX_SIZE;
    if (!d.ground_y_bias.set) d.ground_y_bias = ORR_F64(ORRI_BG_Y_BIAS);
    if (!d.skybox.set) d.skybox = ORR_ON;
    if (!d.ground.set) d.ground = ORR_ON;
    if (!d.size_auto.set) d.size_auto = ORR_ON;
    if (!d.noise.set) d.noise = ORR_ON;
    /* Color3(0.2, 0.2, 0.3).toLinearSpace().scale(3): pow 2.2 (Babylon's approximate conversion). */
    orr_opt_color3 def = ORR_RGB(3 * pow(0.2, 2.2), 3 * pow(0.2, 2.2), 3 * pow(0.3, 2.2));
    if (!d.ground_color.set) d.ground_color = def;
    if (!d.skybox_color.set) d.skybox_color = def;
    if (!d.ground_opacity.set) d.ground_opacity = ORR_F64(0.9);
    d.image_processing = orri_image_processing_resolve(&d.image_processing);
    if (!d.label) d.label = "environment";
    return d;
}

orr_environment_desc orr_environment_desc_defaults(const orr_environment_desc *desc) {
    return orri_environment_resolve(desc);
}

orr_environment_sizes orri_environment_sizes(orr_scene *s, const orr_environment_desc *d) {
    orr_environment_sizes z = {d->ground_size, d->skybox_size, d->root_position};
    orr_dbox box = orr_scene_get_world_extends(s, false);
    if (orr_dbox_is_empty(box) || !d->size_auto.value) return z; /* Babylon: only the helper's root mesh */
    orri_node *cam = orri_scene_active_camera(s);
    const orri_camera *c = cam ? orri_node_camera(cam) : NULL;
    if (c && c->kind == ORRI_CAMERA_ARC && c->limits.upper_radius_limit > 0)
        z.ground_size = z.skybox_size = 2 * c->limits.upper_radius_limit;
    orr_dvec3 ext = orr_dvec3_sub(box.max, box.min);
    double diagonal = sqrt(ext.x * ext.x + ext.y * ext.y + ext.z * ext.z);
    if (diagonal > z.ground_size) z.ground_size = z.skybox_size = 2 * diagonal;
    z.ground_size *= 1.1;
    z.skybox_size *= 1.5;
    z.root_position = orr_dvec3_add(box.min, orr_dvec3_scale(ext, 0.5));
    z.root_position.y = box.min.y - d->ground_y_bias.value;
    return z;
}

orr_environment_sizes orr_environment_compute_sizes(orr_scene *s, const orr_environment_desc *desc) {
    if (!s) return (orr_environment_sizes){0};
    orr_environment_desc d = orri_environment_resolve(desc);
    return orri_environment_sizes(s, &d);
}
