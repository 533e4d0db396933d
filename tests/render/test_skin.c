/* GPU skinning and morph targets (the deform pre-pass, src/render/skin_gpu.c)
 * against pixel expectations computed by hand. Unlit red on black, culling
 * off, so a pixel is either the bar's colour or the clear colour.
 *
 * The bar: two quads in the XY plane, x ∈ [−0.2, 0.2], the lower one y ∈
 * [0, 1] on joint 0 (a root node at the origin), the upper one y ∈ [1, 2] on
 * joint 1 (a child of joint 0 at (0, 1, 0), inverse bind T(0, −1, 0)). The
 * mesh's own node is at (1.5, 0, 0): glTF ignores it for a skinned mesh
 * (J = inverse(mesh world) · joint world · inverse bind, then the mesh world
 * again), so the bar is drawn where the joints are; an implementation that
 * dropped the inverse mesh world would draw it 1.5 m to the right. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "render/render_int.h" /* reading the pre-pass's outputs back */
#include "support/test_support.h"

#define W 256
#define H 256
static orr_engine *engine;
static const double PI = 3.14159265358979323846;

typedef struct bar_scene {
    orr_scene *s;
    orr_camera cam;
    orr_node j0, j1;
    orr_mesh mesh;
    orr_skin skin;
} bar_scene;

static orr_material red(orr_scene *s) {
    return orr_standard_material_create(
        s,
        &(orr_standard_material_desc){.emissive = {1, 0, 0}, .disable_lighting = true, .back_face_culling = ORR_OFF});
}

static orr_scene *new_scene_on(orr_engine *e, orr_camera *cam) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0, 0, 0, 1), .label = "skin"}, &s) == ORR_OK);
    *cam = orr_camera_create_free(
        s, &(orr_free_camera_desc){.position = {0, 1, -5}, .target = ORR_DVEC3(0, 1, 0), .near = 0.1, .far = 100});
    return s;
}

static orr_scene *new_scene(orr_camera *cam) { return new_scene_on(engine, cam); }

/* Quad k (0 lower, 1 upper): 4 vertices from index 4k, on joint k. */
static void bar_quad(orr_geometry *g, uint32_t k) {
    const float xs[4] = {-0.2f, 0.2f, 0.2f, -0.2f}, ys[4] = {0, 0, 1, 1};
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t v = 4 * k + i;
        g->positions[v * 3] = xs[i], g->positions[v * 3 + 1] = ys[i] + (float)k;
        g->normals[v * 3 + 2] = -1;
        g->joints[v * 4] = (uint16_t)k;
        g->weights[v * 4] = 1;
    }
    const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
    for (uint32_t i = 0; i < 6; i++) g->indices[6 * k + i] = 4 * k + tri[i];
}

/* The bar scene on engine `e`, its root nodes (camera, joint 0, mesh) in `cell`. */
enum { BAR_MORPH = 1, BAR_TANGENTS = 2 };

static bar_scene bar_in(orr_engine *e, orr_cell3 cell, int opts) {
    bar_scene b = {0};
    b.s = new_scene_on(e, &b.cam);
    orr_geometry g;
    uint32_t with = ORR_GEOMETRY_NORMALS | ORR_GEOMETRY_SKIN | (opts & BAR_TANGENTS ? ORR_GEOMETRY_TANGENTS : 0);
    CHECK(orr_geometry_alloc(8, 12, with, NULL, &g) == ORR_OK);
    bar_quad(&g, 0), bar_quad(&g, 1);
    for (int v = 0; g.tangents && v < 8; v++) g.tangents[v * 4] = 1, g.tangents[v * 4 + 3] = -1;
    if ((opts & BAR_MORPH) &&
        orr_geometry_alloc_morph(&g, 1, false) == ORR_OK) /* lengthens the upper quad to y = 2.6 */
        g.morph_positions[6 * 3 + 1] = g.morph_positions[7 * 3 + 1] = 0.6f;
    b.mesh = orr_mesh_create(
        b.s, &(orr_mesh_desc){.geometry = &g, .material = red(b.s), .position = {1.5, 0, 0}, .label = "bar"});
    orr_geometry_free(&g);
    b.j0 = orr_node_create(b.s, &(orr_node_desc){.label = "joint 0"});
    b.j1 = orr_node_create(b.s, &(orr_node_desc){.position = {0, 1, 0}, .parent = b.j0, .label = "joint 1"});
    const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,  /* joint 0: identity */
                           1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}; /* joint 1: T(0, −1, 0) */
    orr_node joints[2] = {b.j0, b.j1};
    orr_skin skin = orr_skin_create(
        b.s, &(orr_skin_desc){.joints = joints, .joint_count = 2, .inverse_bind_matrices = ibm, .label = "bar skin"});
    CHECK(skin.id != 0);
    orr_mesh_set_skin(b.s, b.mesh, skin);
    b.skin = skin;
    if (cell.x || cell.y || cell.z) {
        orr_node roots[3] = {orr_camera_node(b.cam), b.j0, orr_mesh_node(b.mesh)};
        for (int i = 0; i < 3; i++) orr_node_set_cell(b.s, roots[i], cell);
    }
    return b;
}

static bar_scene bar(void) { return bar_in(engine, (orr_cell3){0, 0, 0}, 0); }

/* Whether the pixel of world point p is the bar's red (else the black clear). */
static int is_red(const orr_image8 *img, orr_scene *s, orr_camera c, orr_dvec3 p) {
#if ORR_RIGHT_HANDED
    p.z = -p.z; /* the right-handed run renders the scene mirrored in Z (z = 0 here anyway) */
#endif
    orr_dmat4 vp =
        orr_dmat4_mul(orr_camera_get_projection_matrix(s, c, (double)W / H), orr_camera_get_view_matrix(s, c));
    orr_dvec4 clip = orr_dmat4_transform_vec4(vp, (orr_dvec4){p.x, p.y, p.z, 1});
    int x = (int)((clip.x / clip.w * 0.5 + 0.5) * W), y = (int)((0.5 - clip.y / clip.w * 0.5) * H);
    if (x < 2 || y < 2 || x >= W - 2 || y >= H - 2) return -1;
    double rgb[3];
    orr_test_mean_rgb(img, (uint32_t)(x - 2), (uint32_t)(y - 2), (uint32_t)(x + 3), (uint32_t)(y + 3), rgb);
    if (rgb[0] > 250 && rgb[1] < 5 && rgb[2] < 5) return 1;
    if (rgb[0] < 5 && rgb[1] < 5 && rgb[2] < 5) return 0;
    fprintf(stderr, "  pixel (%d, %d) of (%.2f, %.2f): (%.0f, %.0f, %.0f), neither red nor black\n", x, y, p.x, p.y,
            rgb[0], rgb[1], rgb[2]);
    return -1;
}

static void render(bar_scene *b, const char *name, orr_image8 *img) {
    CHECK(orr_test_render(engine, b->s, 2, img));
    orr_test_save_png(orr_test_out_path(name), img);
}

/* Joint 1 turned −90° about Z: the upper quad lies along +X from (0, 1):
 * x ∈ [0, 1], y ∈ [0.8, 1.2]. Bind pose first (straight bar) as control. */
TEST(two_bone_bar_bent_90_degrees) {
    bar_scene b = bar();
    orr_image8 img;
    render(&b, "skin-bar-bind.png", &img);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0, 1.7, 0}) == 1); /* straight: the upper quad */
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.7, 1.0, 0}) == 0);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){1.5, 0.5, 0}) == 0); /* not at the mesh node */
    orr_test_image_free(&img);
    orr_node_set_rotation_quaternion(b.s, b.j1, orr_dquat_from_axis_angle((orr_dvec3){0, 0, 1}, -PI / 2));
    render(&b, "skin-bar-bent.png", &img);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0, 0.5, 0}) == 1);   /* lower quad, unmoved */
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.7, 1.0, 0}) == 1); /* upper quad, bent */
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.85, 1.1, 0}) == 1);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0, 1.7, 0}) == 0);    /* where it was */
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){-0.7, 1.0, 0}) == 0); /* not bent the other way */
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){1.5, 1.0, 0}) == 0);
    orr_test_image_free(&img);
    orr_scene_destroy(b.s);
}

/* End to end: an animation group turns joint 1 from 0 to −90° over 1 s;
 * at 0.5 s (slerp: −45°) the upper quad's axis runs from (0, 1) towards
 * (sin 45°, cos 45°): its middle (0.35, 1.35) is red, (0, 1.7) is 0.49 off
 * the axis (more than the half-width 0.2) and black. */
TEST(animated_joint_at_half_time) {
    bar_scene b = bar();
    double h = sin(-PI / 4);
    const float t[] = {0, 1}, v[] = {0, 0, 0, 1, 0, 0, (float)h, (float)cos(-PI / 4)};
    orr_animation_group *g = NULL;
    orr_anim_channel_desc ch = {
        .target = b.j1, .path = ORR_ANIM_ROTATION, .key_count = 2, .times = t, .values = v, .components = 4};
    CHECK(orr_animation_group_create(b.s, &(orr_animation_group_desc){.channels = &ch, .channel_count = 1}, &g) ==
          ORR_OK);
    orr_animation_group_play(g, false);
    orr_scene_animate(b.s, 0.5);
    orr_image8 img;
    render(&b, "skin-bar-45.png", &img);
    double r = sqrt(0.5);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.5 * r, 1 + 0.5 * r, 0}) == 1);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.9 * r, 1 + 0.9 * r, 0}) == 1);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0, 1.7, 0}) == 0);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.8, 1.0, 0}) == 0); /* not yet at 90° */
    orr_test_image_free(&img);
    orr_scene_destroy(b.s);
}

/* A quad x ∈ [−0.5, 0.5], y ∈ [0.5, 1.5] with one morph target that lifts
 * its top edge by 1: at weight 0 the top is at 1.5, at 0.5 it is at 2.0.
 * (0, 1.75) is black, then red; (0, 2.2) stays black. */
TEST(morph_target_quad) {
    orr_camera cam;
    orr_scene *s = new_scene(&cam);
    orr_geometry g;
    REQUIRE(orr_geometry_alloc(4, 6, ORR_GEOMETRY_NORMALS, NULL, &g) == ORR_OK);
    REQUIRE(orr_geometry_alloc_morph(&g, 1, true) == ORR_OK);
    const float xs[4] = {-0.5f, 0.5f, 0.5f, -0.5f}, ys[4] = {-0.5f, -0.5f, 0.5f, 0.5f};
    for (int i = 0; i < 4; i++) {
        g.positions[i * 3] = xs[i], g.positions[i * 3 + 1] = ys[i] + 1; /* centred on the camera's y = 1 */
        g.normals[i * 3 + 2] = -1;
        if (i >= 2) g.morph_positions[i * 3 + 1] = 1;
    }
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(g.indices, idx, sizeof idx);
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = red(s), .label = "morph quad"});
    orr_geometry_free(&g);
    REQUIRE(m.id);
    orr_image8 img;
    bar_scene b = {.s = s, .cam = cam};
    render(&b, "skin-morph-0.png", &img);
    CHECK(is_red(&img, s, cam, (orr_dvec3){0, 1.0, 0}) == 1);
    CHECK(is_red(&img, s, cam, (orr_dvec3){0, 1.75, 0}) == 0);
    orr_test_image_free(&img);
    orr_mesh_set_morph_weights(s, m, (const float[]){0.5f}, 1);
    render(&b, "skin-morph-half.png", &img);
    CHECK(is_red(&img, s, cam, (orr_dvec3){0, 1.75, 0}) == 1);
    CHECK(is_red(&img, s, cam, (orr_dvec3){0, 2.2, 0}) == 0);
    CHECK(is_red(&img, s, cam, (orr_dvec3){0.4, 1.9, 0}) == 1);
    orr_test_image_free(&img);
    orr_scene_destroy(s);
}

/* Morph targets apply before skinning (glTF): the upper quad lengthened by
 * 0.6 in the bind pose and then bent −90° reaches x = 1.6 along +X. Skinning
 * first and morphing after (the control) would push its tip up instead:
 * (1.4, 1.0) would stay black. */
TEST(morph_then_skin) {
    bar_scene b = bar_in(engine, (orr_cell3){0, 0, 0}, BAR_MORPH);
    orr_node_set_rotation_quaternion(b.s, b.j1, orr_dquat_from_axis_angle((orr_dvec3){0, 0, 1}, -PI / 2));
    orr_image8 img;
    render(&b, "skin-bar-morph-0.png", &img);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.85, 1.0, 0}) == 1);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){1.4, 1.0, 0}) == 0);
    orr_test_image_free(&img);
    orr_mesh_set_morph_weights(b.s, b.mesh, (const float[]){1}, 1);
    render(&b, "skin-bar-morph-1.png", &img);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){1.4, 1.0, 0}) == 1);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){1.0, 1.5, 0}) == 0);
    orr_test_image_free(&img);
    orr_scene_destroy(b.s);
}

/* Destroying the skin draws the mesh unskinned (its bind pose: the straight
 * bar), releasing the pre-pass state while frames may be in flight; a
 * morphed mesh destroyed between frames goes too (validation stays quiet). */
TEST(skin_destroyed_mid_animation) {
    bar_scene b = bar();
    orr_node_set_rotation_quaternion(b.s, b.j1, orr_dquat_from_axis_angle((orr_dvec3){0, 0, 1}, -PI / 2));
    orr_image8 img;
    render(&b, "skin-bar-before-destroy.png", &img);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.7, 1.0, 0}) == 1);
    orr_test_image_free(&img);
    orr_node joints[1] = {b.j0};
    orr_skin other = orr_skin_create(b.s, &(orr_skin_desc){.joints = joints, .joint_count = 1});
    orr_mesh_set_skin(b.s, b.mesh, other); /* names joint 1, which `other` lacks: refused, still bent */
    render(&b, "skin-bar-refused.png", &img);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.7, 1.0, 0}) == 1);
    orr_test_image_free(&img);
    orr_skin_destroy(b.s, b.skin); /* unskinned: the bind pose, placed by the mesh node (x = 1.5) */
    render(&b, "skin-bar-unskinned.png", &img);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0.7, 1.0, 0}) == 0);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){1.5, 1.7, 0}) == 1);
    orr_test_image_free(&img);
    orr_mesh_destroy(b.s, b.mesh);
    render(&b, "skin-bar-gone.png", &img);
    CHECK(is_red(&img, b.s, b.cam, (orr_dvec3){0, 0.5, 0}) == 0);
    orr_test_image_free(&img);
    orr_scene_destroy(b.s);
}

/* Copies `size` bytes of a device buffer of engine `e` to `out` (after every
 * submitted frame). */
static bool read_back(orr_engine *e, VkBuffer src, size_t size, void *out) {
    orri_buffer host;
    if (orri_buffer_create(&e->gpu, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, ORRI_MEM_READBACK, "test readback",
                           &host) != ORR_OK)
        return false;
    VkCommandBuffer cmd;
    bool ok = orri_immediate_begin(&e->gpu, &cmd) == ORR_OK;
    if (ok) {
        orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        vkCmdCopyBuffer(cmd, src, host.buffer, 1, &(VkBufferCopy){0, 0, size});
        orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        ok = orri_immediate_end(&e->gpu, cmd) == ORR_OK;
    }
    if (ok) {
        VkMappedMemoryRange range = {
            .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = host.mem.block->memory, .size = VK_WHOLE_SIZE};
        vkInvalidateMappedMemoryRanges(e->gpu.device, 1, &range);
        memcpy(out, host.mapped, size);
    }
    orri_buffer_destroy_now(&e->gpu, &host);
    return ok;
}

/* Tangents are skinned for the draws that read them (PBR normal maps): the
 * bar with tangent (1, 0, 0, −1) everywhere, joint 1 turned −90° about Z:
 * the upper quad's tangents become (0, −1, 0) with the sign kept, the lower
 * quad's stay. A bar without tangents has no skinned tangent stream. */
TEST(skinned_tangents) {
    bar_scene b = bar_in(engine, (orr_cell3){0, 0, 0}, BAR_TANGENTS), plain = bar();
    orr_node_set_rotation_quaternion(b.s, b.j1, orr_dquat_from_axis_angle((orr_dvec3){0, 0, 1}, -PI / 2));
    orr_image8 img;
    render(&b, "skin-bar-tangents.png", &img);
    orr_test_image_free(&img);
    render(&plain, "skin-bar-plain.png", &img);
    orr_test_image_free(&img);
    orri_scene_gpu *sg = b.s->render_state, *psg = plain.s->render_state;
    REQUIRE(sg && psg);
    CHECK(orri_deform_tangents(&psg->meshes[orri_scene_slot(plain.mesh.id)]) == VK_NULL_HANDLE);
    VkBuffer t = orri_deform_tangents(&sg->meshes[orri_scene_slot(b.mesh.id)]);
    REQUIRE(t != VK_NULL_HANDLE);
    float out[8 * 4];
    REQUIRE(read_back(engine, t, sizeof out, out));
    for (int v = 0; v < 8; v++) {
        const float *q = &out[v * 4];
        CHECK_NEAR(q[0], v < 4 ? 1 : 0, 1e-6);
        CHECK_NEAR(q[1], v < 4 ? 0 : -1, 1e-6);
        CHECK_NEAR(q[2], 0, 1e-6);
        CHECK_NEAR(q[3], -1, 0);
    }
    orr_scene_destroy(plain.s);
    orr_scene_destroy(b.s);
}

/* The bent bar at the origin and 10¹² m away (cell 953 674 × 2²⁰ m), both
 * under the floating origin: the same image. Joint matrices are local to
 * the mesh (float64, then float32) and the mesh world is eye-relative, so
 * nothing of the distance reaches float32; absolute float32 positions at
 * 10¹² m would be 2⁴⁰ ≈ 65 536 m apart (the control is the MAD bound). */
TEST(far_away_under_floating_origin_same_image) {
    orr_engine *fo = NULL;
    orr_engine_desc d = {
        .width = W, .height = H, .msaa = 4, .validation = ORR_VALIDATION_ON, .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    REQUIRE(orr_engine_create(&d, &fo) == ORR_OK);
    orr_image8 img[2];
    const orr_cell3 cells[2] = {{0, 0, 0}, {953674, 0, 0}};
    for (int k = 0; k < 2; k++) {
        bar_scene b = bar_in(fo, cells[k], 0);
        orr_node_set_rotation_quaternion(b.s, b.j1, orr_dquat_from_axis_angle((orr_dvec3){0, 0, 1}, -PI / 2));
        CHECK(orr_test_render(fo, b.s, 2, &img[k]));
        orr_test_save_png(orr_test_out_path(k ? "skin-bar-far.png" : "skin-bar-near-fo.png"), &img[k]);
        orr_scene_destroy(b.s);
    }
    orr_diff diff = orr_test_compare(&img[0], &img[1]);
    printf("bent bar near vs 1e12 m: MAD %.4f, max %d\n", diff.mad, diff.max);
    CHECK(diff.mad <= 0.01);
    double rgb[3]; /* not an empty image compared with another: the bar is there */
    orr_test_mean_rgb(&img[1], 0, 0, W, H, rgb);
    printf("far image mean red %.2f\n", rgb[0]);
    CHECK(rgb[0] > 5); /* the bar covers about 4 % of the image: mean red ≈ 10 */
    orr_test_image_free(&img[0]), orr_test_image_free(&img[1]);
    orr_engine_destroy(fo);
}

int main(int argc, char **argv) {
    engine = orr_test_engine(W, H, 4);
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
