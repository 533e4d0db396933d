/* The light matrices of Babylon.js shadow generators (src/shadow/light_matrix.c)
 * against the numbers Babylon.js 9.35 computed for the issue 12 scenes
 * (tests/data/parity/shadow-dir-pcf.json and shadow-spot.json, "computed"
 * block: float32 arrays, hence the 1e-6 tolerances). CPU only. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "shadow/shadow_int.h"

static const double PI = 3.14159265358979323846;

/* shadowGenerator.view / projection of shadow-dir-pcf (Babylon's flat arrays:
 * the same order as orr_dmat4.m). */
static const double DIR_VIEW[16] = {-0.8320503234863281,
                                    -0.4120209515094757,
                                    -0.3713906705379486,
                                    0,
                                    0,
                                    0.6695340871810913,
                                    -0.7427813410758972,
                                    0,
                                    0.5547001957893372,
                                    -0.6180314421653748,
                                    -0.5570859909057617,
                                    0,
                                    1.7763568394002505e-15,
                                    -1.7763568394002505e-15,
                                    26.925823211669922,
                                    1};
static const double DIR_PROJ[16] = {0.1834886074066162,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0.33885666728019714,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0.01002506259828806,
                                    0,
                                    -0.10814249515533447,
                                    -0.4842931926250458,
                                    -1.0050125122070312,
                                    1};
static const double SPOT_VIEW[16] = {0.8320503234863281,
                                     -0.432887464761734,
                                     -0.34684398770332336,
                                     0,
                                     0,
                                     0.6252818703651428,
                                     -0.780398964881897,
                                     0,
                                     0.5547001957893372,
                                     0.6493312120437622,
                                     0.5202659964561462,
                                     0,
                                     3.1086244689504383e-15,
                                     4.884981308350689e-15,
                                     11.532562255859375,
                                     1};
static const double SPOT_PROJ[16] = {
    1.3763818740844727,  0, 0, 0, 0, 1.3763818740844727, 0, 0, 0, 0, 1.0050125122070312, 1, 0, 0,
    -1.0025062561035156, 0};

static void check_mat(orr_dmat4 m, const double *want) {
    for (int i = 0; i < 16; i++) CHECK_NEAR(m.m[i], want[i], 1e-6 * (1 + fabs(want[i])));
}

/* The casters' world boxes of SHADOW_SET: box (0,1,0) size 2, sphere
 * (−3.5,2.5,1.5) diameter 2, pillar (3,2.5,−2) 0.5×5×0.5. */
static void caster_extents(const orr_dmat4 *view, orri_shadow_extents *x) {
    const orr_dvec3 c[3] = {{0, 1, 0}, {-3.5, 2.5, 1.5}, {3, 2.5, -2}};
    const orr_dvec3 h[3] = {{1, 1, 1}, {1, 1, 1}, {0.25, 2.5, 0.25}};
    for (int m = 0; m < 3; m++)
        for (int k = 0; k < 8; k++) {
            orr_dvec3 p = {c[m].x + (k & 1 ? h[m].x : -h[m].x), c[m].y + (k & 2 ? h[m].y : -h[m].y),
                           c[m].z + (k & 4 ? h[m].z : -h[m].z)};
            orri_shadow_extend(x, view, p);
        }
}

TEST(directional_view_is_babylons_lookat_lh) {
    check_mat(orri_shadow_light_view((orr_dvec3){10, 20, 15}, (orr_dvec3){-1, -2, -1.5}), DIR_VIEW);
}

TEST(directional_auto_extends_and_ortho) {
    orr_dmat4 view = orri_shadow_light_view((orr_dvec3){10, 20, 15}, (orr_dvec3){-1, -2, -1.5});
    orri_shadow_extents x = {0};
    caster_extents(&view, &x);
    /* Babylon's orthoLeft/Right/Top/Bottom (before the 0.1 widening). */
    CHECK_NEAR(x.left, -3.9522389918565732, 1e-6);
    CHECK_NEAR(x.right, 5.130976945161821, 1e-6);
    CHECK_NEAR(x.top, 3.888447865843771, 1e-6);
    CHECK_NEAR(x.bottom, -1.0300523936748522, 1e-6);
    /* shadowMinZ/MaxZ undefined: the camera's 0.5 and 200. */
    check_mat(orri_shadow_directional_projection(&x, 0.1, 0.5, 200), DIR_PROJ);
    /* Control: a wrong widening (Babylon's old 0.5) does not match. */
    orr_dmat4 wrong = orri_shadow_directional_projection(&x, 0.5, 0.5, 200);
    CHECK(fabs(wrong.m[0] - DIR_PROJ[0]) > 1e-3);
}

TEST(spot_view_and_perspective) {
    check_mat(orri_shadow_light_view((orr_dvec3){4, 9, -6}, (orr_dvec3){-4, -9, 6}), SPOT_VIEW);
    check_mat(orri_shadow_perspective_gl(PI / 2.5, 1.0, 0.5, 200), SPOT_PROJ);
}

TEST(depth_values_and_metric) {
    double dv[2];
    orri_shadow_depth_values(ORR_LIGHT_DIRECTIONAL, 0.5, 200, dv);
    CHECK(dv[0] == 1 && dv[1] == 2);
    orri_shadow_depth_values(ORR_LIGHT_SPOT, 0.5, 200, dv);
    CHECK(dv[0] == 0.5 && dv[1] == 200.5);
    /* Spot metric (clip z + minZ) / (minZ + maxZ) is linear view depth: 0 at near, 1 at far, ½ midway. */
    orr_dmat4 p = orri_shadow_perspective_gl(1.0, 1.0, 0.5, 200);
    double zs[3] = {0.5, 200, 100.25}, want[3] = {0, 1, 0.5};
    for (int i = 0; i < 3; i++) {
        double clip_z = p.m[10] * zs[i] + p.m[14];
        CHECK_NEAR((clip_z + dv[0]) / dv[1], want[i], 1e-12);
    }
}

TEST(vertical_light_is_nudged) {
    orr_dmat4 v = orri_shadow_light_view((orr_dvec3){0, 10, 0}, (orr_dvec3){0, -1, 0});
    for (int i = 0; i < 16; i++) CHECK(isfinite(v.m[i]));
    orr_dvec3 p = orr_dmat4_transform_point(v, (orr_dvec3){0, 0, 0});
    CHECK_NEAR(p.z, 10, 1e-9); /* the origin is 10 in front of the light */
}

TEST(kernel_blur_taps) {
    /* Babylon's KernelBlurPostProcess._nearestBestKernel. */
    CHECK(orri_shadow_kernel_taps(32) == 33);
    CHECK(orri_shadow_kernel_taps(1) == 3);
    CHECK(orri_shadow_kernel_taps(8) == 9);
    CHECK(orri_shadow_kernel_taps(16) == 17);
    CHECK(orri_shadow_kernel_taps(64) == 65);
}

TEST(desc_defaults) {
    orr_shadow_desc d = orr_shadow_desc_defaults(NULL);
    CHECK(d.map_size == 1024);
    CHECK(d.bias.set && d.bias.value == 0.00005);
    CHECK(d.normal_bias.value == 0 && d.darkness.value == 0);
    CHECK(d.depth_scale.value == 50 && d.blur_scale.value == 2 && d.blur_kernel == 1);
    CHECK(d.ortho_scale.value == 0.1 && d.auto_update_extends.value);
    CHECK(d.filter == ORR_SHADOW_FILTER_PCF && d.quality == ORR_SHADOW_QUALITY_HIGH);
    d = orr_shadow_desc_defaults(&(orr_shadow_desc){.bias = ORR_F64(0), .map_size = 512});
    CHECK(d.bias.value == 0 && d.map_size == 512); /* an explicit 0 stays */
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
