/* Handedness pairs (seeds/001 "Model"; docs/handedness.md): built twice.
 *
 * Left-handed build (test_handedness_pairs_lh): builds the Z-mirrored twin of
 * each scene (Sz = diag(1, 1, −1) applied to every position, rotation, scale,
 * light, instance and camera) and writes its images and matrices to
 * $ORR_PAIRS_DIR/lh-*.
 * Right-handed build (test_handedness_pairs, ctest fixture after the first):
 * builds the scenes as written, writes rh-*, and checks the relations:
 *   images            RH(S) = LH(Sz S): MAD ≤ 0.01 (measured 0, bit-identical);
 *   engine view       V_rh = V_lh·Sz (= Sz·V_RH, Babylon.js's LookAtRH with the
 *                     third row negated); projection equal (left-handed);
 *   camera world      W_rh = Sz·W_lh·Sz; the RH camera looks down its local −Z;
 *   eye               e_rh = Sz·e_lh, after the same arc-rotate input (α, β, r
 *                     steps; the twin's α is −α);
 *   shader uniforms   view_rh = Sz·view_lh·Sz, projection_rh = projection_lh·Sz,
 *                     viewProjection_rh = viewProjection_lh·Sz,
 *                     worldView_rh = Sz·worldView_lh, worldViewProjection equal;
 * all within 1e-12 (relative). A control checks that the image comparison
 * sees an unmirrored twin (MAD ≥ 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/handedness.h"
#include "render/render_int.h"
#include "support/test_support.h"

static orr_engine *engine;
#if ORR_RIGHT_HANDED
static const char *SIDE = "rh";
static const double ZS = 1; /* the scene as written */
#else
static const char *SIDE = "lh";
static const double ZS = -1; /* its Z-mirrored twin */
#endif

static const char *pairs_path(const char *side, const char *name) {
    static char buf[1024];
    const char *dir = getenv("ORR_PAIRS_DIR");
    snprintf(buf, sizeof buf, "%s/%s-%s", dir ? dir : ".", side, name);
    return buf;
}

static orr_dvec3 mz(orr_dvec3 v) { return (orr_dvec3){v.x, v.y, ZS * v.z}; }

/* A mesh at p, yaw θ, scale s; mirrored: Sz·T·Ry(θ)·S = T(Sz p)·Ry(−θ)·S(Sz s)·…
 * the geometry's own Sz lands on the scale: (sx, sy, −sz). */
static orr_mesh mesh(orr_scene *s, orr_geometry *g, orr_material m, orr_dvec3 p, double yaw, orr_dvec3 scale) {
    orr_mesh me = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .position = mz(p)});
    orr_node_set_rotation(s, orr_mesh_node(me), (orr_dvec3){0, ZS * yaw, 0});
    orr_node_set_scaling(s, orr_mesh_node(me), mz(scale));
    orr_geometry_free(g);
    return me;
}

static orr_material std_mat(orr_scene *s, double r, double g, double b) {
    return orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = ORR_RGB(r, g, b), .specular = ORR_RGB(0.5, 0.5, 0.5)});
}

/* Instance matrices live in the mesh's local space: the twin's mirror is the
 * mesh's (Sz·W), so they are the same numbers in both builds. */
static orr_mat4f instance(orr_dvec3 p, double yaw, orr_dvec3 scale) {
    return orr_dmat4_to_f32(orr_dmat4_compose(scale, orr_dquat_from_euler((orr_dvec3){0, yaw, 0}), p));
}

static orr_camera arc(orr_scene *s, double alpha, double beta, double radius, orr_dvec3 target) {
    return orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = ZS * alpha, .beta = beta, .radius = radius, .target = mz(target), .near = 0.5, .far = 200});
}

/* Standard material, four light kinds, fog, a mirrored mesh, culling, thin instances (one mirrored). */
static orr_scene *scene_standard(void) {
    orr_scene *s;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &s);
    arc(s, 0.9, 1.0, 14, (orr_dvec3){1, 0.5, 2});
    orr_scene_set_fog(s, &(orr_fog){.mode = ORR_FOG_EXP, .density = ORR_F64(0.02), .color = ORR_RGB(0.8, 0.8, 0.85)});
    orr_light_create(
        s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}, .intensity = ORR_F64(0.3)});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = mz((orr_dvec3){-0.4, -1, 0.6})});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_POINT,
                                          .position = mz((orr_dvec3){3, 2, -3}),
                                          .diffuse = ORR_RGB(1, 0.3, 0.2)});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_SPOT,
                                          .position = mz((orr_dvec3){-2, 4, 3}),
                                          .direction = mz((orr_dvec3){0.3, -1, -0.4}),
                                          .angle = 1.2,
                                          .exponent = 4,
                                          .diffuse = ORR_RGB(0.2, 1, 0.3)});
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 16, .height = 16, .subdivisions = 4}, NULL, &g);
    mesh(s, &g, std_mat(s, 0.6, 0.6, 0.65), (orr_dvec3){0, 0, 0}, 0, (orr_dvec3){1, 1, 1});
    orr_geometry_build_box(NULL, NULL, &g);
    mesh(s, &g, std_mat(s, 0.9, 0.3, 0.2), (orr_dvec3){-2, 1, 1}, 0.5, (orr_dvec3){1, 2, 1.5});
    orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 16, .diameter = 2}, NULL, &g);
    mesh(s, &g, std_mat(s, 0.2, 0.5, 0.9), (orr_dvec3){2, 1, -1}, 0.2, (orr_dvec3){1, 1, 1});
    /* A mirrored mesh (negative determinant): the mirrored-mesh rule, inverted in the RH build. */
    orr_geometry_build_box(NULL, NULL, &g);
    mesh(s, &g, std_mat(s, 0.9, 0.8, 0.2), (orr_dvec3){0, 1, 4}, -0.7, (orr_dvec3){-1, 1, 1});
    /* Thin instances (standard_instanced.vert): the cofactor normal of a mirrored instance. */
    orr_geometry_build_box(&(orr_box_desc){.size = 0.6}, NULL, &g);
    orr_mesh inst = mesh(s, &g, std_mat(s, 0.9, 0.9, 0.9), (orr_dvec3){4, 0.5, 3}, 0.3, (orr_dvec3){1, 1, 1});
    for (int i = 0; i < 4; i++) {
        orr_dvec3 sc = {i == 3 ? -1 : 1, 1 + 0.3 * i, 1};
        CHECK(orr_instances_add(s, inst, instance((orr_dvec3){0, 0.4 * i, -1.2 * i}, 0.4 * i, sc), NULL) == ORR_OK);
    }
    return s;
}

/* A shader material whose gl_Position goes through projection·view·world and
 * whose colour depends on UVs and the view-space distance only (both
 * mirror-invariant), so the images pair while the uniforms differ by Sz. */
static orr_scene *scene_shader(void) {
    orr_scene *s;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.1, 0.1, 0.1, 1)}, &s);
    arc(s, -1.0, 1.1, 7, (orr_dvec3){0, 0, 0});
    orr_material m = orr_shader_material_create(
        s, &(orr_shader_material_desc){.vertex_source =
                                           "layout(location = 0) out vec3 vColor;\n"
                                           "void main() {\n"
                                           "    vec4 wv = worldView * vec4(position, 1.0);\n"
                                           "    gl_Position = projection * view * world * vec4(position, 1.0);\n"
                                           "    vColor = vec3(uv, clamp(length(wv.xyz) / 10.0, 0.0, 1.0));\n"
                                           "}\n",
                                       .fragment_source = "layout(location = 0) in vec3 vColor;\n"
                                                          "layout(location = 0) out vec4 fragColor;\n"
                                                          "void main() { fragColor = vec4(vColor, 1.0); }\n",
                                       .label = "pairs shader"});
    CHECK(m.id != 0);
    orr_geometry g;
    orr_geometry_build_box(&(orr_box_desc){.size = 1.5}, NULL, &g);
    mesh(s, &g, m, (orr_dvec3){1.2, 0, 0.5}, 0.5, (orr_dvec3){1, 1, 1});
    orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 24, .diameter = 2}, NULL, &g);
    mesh(s, &g, m, (orr_dvec3){-1.2, 0, -0.5}, 0, (orr_dvec3){1, 1, 1});
    return s;
}

static void write_png(const char *name, orr_scene *s) {
    orr_image8 img;
    CHECK(orr_test_render(engine, s, 2, &img));
    CHECK(orr_test_save_png(pairs_path(SIDE, name), &img));
    orr_test_image_free(&img);
}

static void put_mat(FILE *f, const char *label, orr_dmat4 m) {
    fprintf(f, "%s", label);
    for (int i = 0; i < 16; i++) fprintf(f, " %.17g", m.m[i]);
    fprintf(f, "\n");
}

/* Camera path after the same input: arc-rotate steps (the twin's α is −α),
 * then a free camera; views, worlds, eyes and shader uniforms per step. */
static void write_matrices(void) {
    FILE *f = fopen(pairs_path(SIDE, "matrices.txt"), "w");
    CHECK(f != NULL);
    if (!f) return;
    orr_scene *s;
    orr_scene_create(engine, NULL, &s);
    orr_dvec3 t = {1, 2, 3};
    orr_camera c = arc(s, 0.3, 1.2, 10, t);
    orr_dmat4 world = orr_dmat4_compose((orr_dvec3){1, 2, ZS * 0.5}, orr_dquat_from_euler((orr_dvec3){0, ZS * 0.4, 0}),
                                        mz((orr_dvec3){2, 1, -3}));
    const double steps[][3] = {{0, 0, 0}, {0.25, 0, 0}, {0.5, -0.3, 2}, {-1.3, 0.4, -4}, {2.9, 0.2, 1}};
    for (int k = 0; k < 5; k++) {
        double a, b, r;
        orr_camera_get_arc(s, c, &a, &b, &r);
        orr_camera_set_arc(s, c, a + ZS * steps[k][0], b + steps[k][1], r + steps[k][2]);
        orr_dmat4 v = orr_camera_get_view_matrix(s, c), p = orr_camera_get_projection_matrix(s, c, 16.0 / 9.0);
        orr_dmat4 vp = orr_dmat4_mul(p, v), sys[6];
        orri_shader_system_matrices(&world, &v, &p, &vp, sys);
        orr_dvec3 e = orr_camera_get_position(s, c);
        fprintf(f, "eye %.17g %.17g %.17g\n", e.x, e.y, e.z);
        put_mat(f, "view", v);
        put_mat(f, "proj", p);
        put_mat(f, "camworld", orr_camera_get_world_matrix(s, c));
        const char *names[6] = {"u_world",          "u_view",      "u_projection",
                                "u_viewProjection", "u_worldView", "u_worldViewProjection"};
        for (int i = 0; i < 6; i++) put_mat(f, names[i], sys[i]);
    }
    orr_camera fc = orr_camera_create_free(
        s, &(orr_free_camera_desc){.position = mz((orr_dvec3){-3, 1, 5}), .target = {true, mz((orr_dvec3){2, 0, -1})}});
    put_mat(f, "freeview", orr_camera_get_view_matrix(s, fc));
    put_mat(f, "freeworld", orr_camera_get_world_matrix(s, fc));
    orr_scene_destroy(s);
    fclose(f);
}

TEST(pairs_write) {
    orr_scene *s = scene_standard();
    write_png("standard.png", s);
    orr_scene_destroy(s);
    s = scene_shader();
    write_png("shader.png", s);
    orr_scene_destroy(s);
    write_matrices();
}

#if ORR_RIGHT_HANDED
typedef struct entry {
    char label[32];
    double v[16];
    int n;
} entry;

static int read_entries(const char *side, entry *out, int max) {
    FILE *f = fopen(pairs_path(side, "matrices.txt"), "r");
    if (!f) return 0;
    int n = 0;
    char line[2048];
    while (n < max && fgets(line, sizeof line, f)) {
        char *p = line, *end;
        int k = 0;
        sscanf(p, "%31s", out[n].label);
        p += strlen(out[n].label);
        while (k < 16) {
            double x = strtod(p, &end);
            if (end == p) break;
            out[n].v[k++] = x, p = end;
        }
        out[n++].n = k;
    }
    fclose(f);
    return n;
}

static orr_dmat4 as_mat(const entry *e) {
    orr_dmat4 m;
    memcpy(m.m, e->v, sizeof m.m);
    return m;
}

static const orr_dmat4 SZ = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1}};

static double rel_diff(orr_dmat4 a, orr_dmat4 b) {
    double d = 0;
    for (int i = 0; i < 16; i++) d = fmax(d, fabs(a.m[i] - b.m[i]) / fmax(1.0, fabs(b.m[i])));
    return d;
}

/* The relation each label must satisfy: rh = L·lh·R with L, R ∈ {I, Sz}. */
static double related(const char *label, orr_dmat4 rh, orr_dmat4 lh) {
    orr_dmat4 I = orr_dmat4_identity(), want = lh;
    struct {
        const char *label;
        const orr_dmat4 *l, *r;
    } rel[] = {
        {"view", &I, &SZ},
        {"proj", &I, &I},
        {"camworld", &SZ, &SZ},
        {"u_world", &SZ, &I},
        {"u_view", &SZ, &SZ},
        {"u_projection", &I, &SZ},
        {"u_viewProjection", &I, &SZ},
        {"u_worldView", &SZ, &I},
        {"u_worldViewProjection", &I, &I},
        {"freeview", &I, &SZ},
        {"freeworld", &SZ, &SZ},
    };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++)
        if (strcmp(rel[i].label, label) == 0) want = orr_dmat4_mul(*rel[i].l, orr_dmat4_mul(lh, *rel[i].r));
    return rel_diff(rh, want);
}

TEST(pairs_matrices_related_as_documented) {
    static entry rh[128], lh[128];
    int n = read_entries("rh", rh, 128), m = read_entries("lh", lh, 128);
    CHECK(n > 0 && n == m);
    if (n == 0 || n != m) {
        printf("pairs: run test_handedness_pairs_lh first (ctest fixture)\n");
        return;
    }
    double worst = 0;
    for (int i = 0; i < n; i++) {
        CHECK(strcmp(rh[i].label, lh[i].label) == 0);
        double d;
        if (strcmp(rh[i].label, "eye") == 0)
            d = fmax(fmax(fabs(rh[i].v[0] - lh[i].v[0]), fabs(rh[i].v[1] - lh[i].v[1])), fabs(rh[i].v[2] + lh[i].v[2]));
        else
            d = related(rh[i].label, as_mat(&rh[i]), as_mat(&lh[i]));
        if (d > 1e-12) printf("pairs: %s (entry %d) off by %.3g\n", rh[i].label, i, d);
        CHECK(d <= 1e-12);
        worst = fmax(worst, d);
        /* The right-handed camera looks down its local −Z: world forward = −column 2. */
        if (strcmp(rh[i].label, "camworld") == 0) {
            const entry *eye = &rh[i - 3];
            orr_dvec3 fwd = orr_dvec3_normalize((orr_dvec3){1 - eye->v[0], 2 - eye->v[1], 3 - eye->v[2]});
            orr_dvec3 col2 = {rh[i].v[8], rh[i].v[9], rh[i].v[10]};
            CHECK(orr_dvec3_dot(fwd, col2) < -0.999999);
        }
    }
    printf("pairs: %d matrices and eyes related as documented, worst relative difference %.3g\n", n, worst);
}

static void compare_images(const char *name) {
    orr_image8 a, b;
    CHECK(orr_test_load_png(pairs_path("rh", name), &a));
    CHECK(orr_test_load_png(pairs_path("lh", name), &b));
    orr_diff d = orr_test_compare(&a, &b);
    printf("pairs: %-13s RH scene vs LH Z-mirrored twin: MAD %.4f (threshold 0.01) max %d\n", name, d.mad, d.max);
    CHECK(d.mad <= 0.01);
    orr_test_image_free(&a);
    orr_test_image_free(&b);
}

TEST(pairs_images_match) {
    compare_images("standard.png");
    compare_images("shader.png");
}

/* Control: the right-handed build rendering the LH twin's construction
 * (ZS = −1 numbers) must not match, or the image test could not fail. */
TEST(pairs_control_unmirrored_twin_differs) {
    orr_scene *s = scene_standard();
    orr_test_mirror_z(s);
    orr_test_mirror_disabled = true;
    orr_image8 a, b;
    CHECK(orr_test_render(engine, s, 2, &a));
    CHECK(orr_test_load_png(pairs_path("lh", "standard.png"), &b));
    orr_diff d = orr_test_compare(&a, &b);
    printf("pairs: control (RH renders the mirrored scene, vs the LH twin) MAD %.4f (must be >= 1)\n", d.mad);
    CHECK(d.mad >= 1);
    orr_test_image_free(&a);
    orr_test_image_free(&b);
    orr_scene_destroy(s);
}
#endif

int main(int argc, char **argv) {
    engine = orr_test_engine(320, 180, 4);
    orr_test_fail_on_validation();
    orr_test_mirror_disabled = true; /* the twins are built explicitly here */
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
