/* test_support.c — see test_support.h. */
#include "support/test_support.h"

#include <dlfcn.h>
#include <stb_image.h>
#include <stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "orrery/handedness.h"
#include "scene/scene_int.h"

static uint32_t validation_count;

static void on_validation(const char *message, void *user) {
    (void)user;
    validation_count++;
    fprintf(stderr, "VALIDATION: %s\n", message);
}

/* Keep the driver and the validation layer mapped after vkDestroyInstance, so
 * that LeakSanitizer can name their modules (tests/lsan.supp suppresses their
 * own one-time allocations, never ours). */
static void pin_vulkan_modules(void) {
    dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
    dlopen("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_NODELETE);
}

orr_engine *orr_test_engine(uint32_t width, uint32_t height, uint32_t msaa) {
    pin_vulkan_modules();
    orr_engine *e;
    orr_result r = orr_engine_create(&(orr_engine_desc){.width = width,
                                                        .height = height,
                                                        .msaa = msaa,
                                                        .validation = ORR_VALIDATION_ON,
                                                        .on_validation_message = on_validation},
                                     &e);
    if (r != ORR_OK) {
        fprintf(stderr, "cannot create a test engine: %s\n", orr_engine_last_error(NULL));
        exit(1);
    }
    if (!orr_engine_device_info(e).validation) {
        fprintf(stderr, "the validation layer is required for tests (install vulkan-validationlayers)\n");
        exit(1);
    }
    return e;
}

void orr_test_validation_hook(orr_engine_desc *d) {
    pin_vulkan_modules();
    d->validation = ORR_VALIDATION_ON;
    d->on_validation_message = on_validation;
}

uint32_t orr_test_validation_messages(void) {
    uint32_t n = validation_count;
    validation_count = 0;
    return n;
}

bool orr_test_load_png(const char *path, orr_image8 *out) {
    int w, h, c;
    memset(out, 0, sizeof *out);
    uint8_t *p = stbi_load(path, &w, &h, &c, 3);
    if (!p) {
        fprintf(stderr, "cannot load %s: %s\n", path, stbi_failure_reason());
        return false;
    }
    out->width = (uint32_t)w, out->height = (uint32_t)h, out->rgb = p;
    return true;
}

void orr_test_image_free(orr_image8 *img) {
    free(img->rgb);
    memset(img, 0, sizeof *img);
}

bool orr_test_mirror_disabled;

/* seeds/001 pairs: a right-handed engine renders scene S as a left-handed one
 * renders S mirrored in Z, so the right-handed build rendering the mirrored S
 * must give the left-handed image of S. Every root node (cameras and lights
 * included) goes under a node scaled (1, 1, −1): one per cell, placed in the
 * mirrored cell (cx, cy, −cz), so a root at (c, p) ends at (Sz·c, Sz·p). Nodes
 * added later join at the next render. */
#define MIRROR_LABEL "orr_test_mirror_z"
static uint32_t mirror_node(orr_scene *s, orr_cell3 c) {
    orr_cell3 m = {c.x, c.y, -c.z};
    for (uint32_t i = 0; i < s->nodes.capacity; i++) {
        orri_node *n = s->nodes.live[i] ? orri_pool_at(&s->nodes, i) : NULL;
        if (n && !n->parent && strcmp(n->label, MIRROR_LABEL) == 0 && n->cell.x == m.x && n->cell.y == m.y &&
            n->cell.z == m.z)
            return orri_pool_id_at(&s->nodes, i);
    }
    orr_node node = orr_node_create(s, &(orr_node_desc){.scaling = {1, 1, -1}, .label = MIRROR_LABEL});
    if (m.x || m.y || m.z) orr_node_set_cell(s, node, m);
    return node.id;
}

void orr_test_mirror_z(orr_scene *s) {
    for (uint32_t i = 0; i < s->nodes.capacity; i++) {
        if (!s->nodes.live[i]) continue;
        orri_node *n = orri_pool_at(&s->nodes, i);
        if (n->parent || strcmp(n->label, MIRROR_LABEL) == 0) continue;
        uint32_t id = orri_pool_id_at(&s->nodes, i);
        orr_cell3 c = n->cell;
        uint32_t m = mirror_node(s, c);
        n = orri_pool_at(&s->nodes, i); /* the pool may have grown */
        n->cell = (orr_cell3){0, 0, 0};
        orr_node_set_parent(s, (orr_node){id}, (orr_node){m});
    }
}

bool orr_test_render(orr_engine *e, orr_scene *s, int frames, orr_image8 *out) {
    memset(out, 0, sizeof *out);
#if ORR_RIGHT_HANDED
    static bool said;
    if (!orr_test_mirror_disabled && frames > 0) {
        if (!said)
            printf("right-handed run: scenes are mirrored in Z before rendering and compared with the "
                   "left-handed expectations (seeds/001 pairs; docs/handedness.md)\n");
        said = true;
        orr_test_mirror_z(s);
    }
#endif
    for (int i = 0; i < frames; i++)
        if (orr_engine_render(e, s) != ORR_OK) {
            fprintf(stderr, "render failed: %s\n", orr_engine_last_error(e));
            return false;
        }
    orr_device_info info = orr_engine_device_info(e);
    size_t n = (size_t)info.width * info.height;
    uint8_t *rgba = malloc(n * 4);
    if (!rgba || orr_engine_read_pixels(e, rgba, n * 4) != ORR_OK) {
        free(rgba);
        return false;
    }
    for (size_t i = 0; i < n; i++) memmove(rgba + 3 * i, rgba + 4 * i, 3);
    out->width = info.width, out->height = info.height, out->rgb = rgba;
    return true;
}

bool orr_test_save_png(const char *path, const orr_image8 *img) {
    return stbi_write_png(path, (int)img->width, (int)img->height, 3, img->rgb, (int)img->width * 3) != 0;
}

orr_diff orr_test_compare(const orr_image8 *a, const orr_image8 *b) {
    orr_diff d = {.mad = 1e9, .max = 255};
    if (a->width != b->width || a->height != b->height) return d;
    size_t n = (size_t)a->width * a->height, w1 = 0, w3 = 0, w5 = 0;
    double sum = 0;
    int mx = 0;
    for (size_t i = 0; i < n; i++) {
        int s = 0;
        for (int c = 0; c < 3; c++) {
            int v = abs((int)a->rgb[3 * i + c] - (int)b->rgb[3 * i + c]);
            s += v;
            if (v > mx) mx = v;
        }
        double px = s / 3.0;
        sum += px;
        w1 += px <= 1, w3 += px <= 3, w5 += px <= 5;
    }
    d.mad = sum / (double)n, d.max = mx;
    d.within1 = (double)w1 / n, d.within3 = (double)w3 / n, d.within5 = (double)w5 / n;
    return d;
}

static char path_buf[4][1024];
static int path_i;

/* The build defines where the checkout's folders are, so a test run outside
 * ctest finds them too; the environment overrides (ctest sets it). */
#ifndef ORR_TEST_DATA_DIR
#define ORR_TEST_DATA_DIR "tests/data"
#endif
#ifndef ORR_TEST_ASSET_DIR
#define ORR_TEST_ASSET_DIR "assets"
#endif

const char *orr_test_data_path(const char *rel) {
    const char *root = getenv("ORR_TEST_DATA");
    char *b = path_buf[path_i++ & 3];
    snprintf(b, 1024, "%s/%s", root ? root : ORR_TEST_DATA_DIR, rel);
    return b;
}

const char *orr_test_asset_path(const char *rel) {
    const char *root = getenv("ORR_ASSETS");
    char *b = path_buf[path_i++ & 3];
    snprintf(b, 1024, "%s/%s", root ? root : ORR_TEST_ASSET_DIR, rel);
    return b;
}

void orr_test_require_assets(void) {
    static const char *probes[] = {"dds/backgroundSkybox.dds", "bjs/backgroundGround.png",
                                   "bjs/environmentSpecular.env", "hdr/venice_sunset_1k.hdr", "cube/ryfjallet_px.png"};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        FILE *f = fopen(orr_test_asset_path(probes[i]), "rb");
        if (f) {
            fclose(f);
            continue;
        }
        fprintf(stderr,
                "test data missing: %s cannot be opened. The images live in the repository's assets/ folder "
                "(assets/SOURCES.md); set ORR_ASSETS to that folder when running a test outside ctest.\n",
                orr_test_asset_path(probes[i]));
        printf("0 passed, 1 failed\n");
        exit(1);
    }
}

const char *orr_test_out_path(const char *name) {
    const char *root = getenv("ORR_TEST_OUT");
    if (!root) root = "test-out";
    mkdir(root, 0755);
    char *b = path_buf[path_i++ & 3];
    snprintf(b, 1024, "%s/%s", root, name);
    return b;
}

void orr_test_mean_rgb(const orr_image8 *img, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, double rgb[3]) {
    double s[3] = {0, 0, 0};
    size_t n = 0;
    for (uint32_t y = y0; y < y1 && y < img->height; y++)
        for (uint32_t x = x0; x < x1 && x < img->width; x++, n++)
            for (int c = 0; c < 3; c++) s[c] += img->rgb[3 * ((size_t)y * img->width + x) + c];
    for (int c = 0; c < 3; c++) rgb[c] = n ? s[c] / n : 0;
}
