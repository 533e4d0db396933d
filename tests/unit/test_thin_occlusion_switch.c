/* test_thin_occlusion_switch.c — the occlusion-culling setup switch of thin
 * instances (orr_instances_enable_occlusion_culling, docs/decisions.md 55):
 * it turns GPU culling on, turning it off leaves GPU culling as it was, and
 * after the first render it is misuse, reported by name, changing nothing. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "orrery/instances.h"
#include "scene/scene_int.h"
#include "scene/thin_int.h"
#include "support/cpu_scene.h"

static int log_errors;
static char log_last[1024];
static void t_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)id, (void)user;
    if (level != ORR_LOG_ERROR) return;
    log_errors++;
    snprintf(log_last, sizeof log_last, "%s", message);
}

TEST(occlusion_switch_turns_gpu_culling_on_and_freezes_at_registration) {
    static orr_cpu_host host;
    orr_scene *s = orr_cpu_scene(&host, NULL, &(orr_logger){t_log, NULL}, "scene");
    REQUIRE(s != NULL);
    orr_geometry g;
    REQUIRE(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .label = "box"});
    orr_geometry_free(&g);
    orr_instances_enable_occlusion_culling(s, mesh, true); /* no thin instances yet: misuse */
    CHECK(log_errors == 1 && strstr(log_last, "orr_instances_enable_occlusion_culling"));
    REQUIRE(orr_instances_add(s, mesh, orr_dmat4_to_f32(orr_dmat4_identity()), NULL) == ORR_OK);
    orri_thin_instances *t = orri_thin_of(orri_scene_node(s, mesh.id));
    CHECK(!t->gpu_culling && !t->occlusion_culling);
    orr_instances_enable_occlusion_culling(s, mesh, true);
    CHECK(t->gpu_culling && t->occlusion_culling && log_errors == 1);
    orr_instances_enable_occlusion_culling(s, mesh, false); /* back to frustum culling only */
    CHECK(t->gpu_culling && !t->occlusion_culling);
    orr_instances_enable_occlusion_culling(s, mesh, true);
    t->registered = true; /* what the renderer does at the first render */
    orr_instances_enable_occlusion_culling(s, mesh, false);
    CHECK(log_errors == 2 && strstr(log_last, "IN_USE") && strstr(log_last, "orr_instances_enable_occlusion_culling"));
    CHECK(t->occlusion_culling);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
