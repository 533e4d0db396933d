/* pack.c — the named packers: the only places where float64 becomes float32
 * on its way to the GPU (DESIGN.md §2). Each is one call to the math
 * module's element-wise rounding, named for what it carries, so that the
 * large-world module can replace a packer (eye-relative world, view without
 * translation) at exactly these sites. */
#include "render/render_int.h"

orr_mat4f orri_pack_world(orr_dmat4 world) { return orr_dmat4_to_f32(world); }
orr_mat4f orri_pack_view(orr_dmat4 view) { return orr_dmat4_to_f32(view); }
orr_mat4f orri_pack_projection(orr_dmat4 proj) { return orr_dmat4_to_f32(proj); }
orr_vec4f orri_pack_position(orr_dvec3 p, double w) { return orr_dvec4_to_f32((orr_dvec4){p.x, p.y, p.z, w}); }
orr_vec4f orri_pack_color(orr_color3 c, double a) { return orr_dvec4_to_f32((orr_dvec4){c.r, c.g, c.b, a}); }
