/* text_int.h — the text module's internals: fonts (font.c, ttf_check.c) and
 * overlays (overlay.c, overlay_gpu.c). */
#ifndef ORRI_TEXT_INT_H
#define ORRI_TEXT_INT_H

#include "orrery/text.h"
#include "render/gpu_types_text.h"
#include "render/render_int.h"

#define ORRI_FONT_FIRST_ASCII 32
#define ORRI_FONT_ASCII_COUNT 95 /* 32..126 */
#define ORRI_FONT_FIRST_LATIN1 160
#define ORRI_FONT_LATIN1_COUNT 96 /* 160..255 */
#define ORRI_FONT_GLYPHS (ORRI_FONT_ASCII_COUNT + ORRI_FONT_LATIN1_COUNT)

/* One baked glyph: its quad relative to the pen on the baseline (pixels at
 * scale 1, y down), its atlas rectangle (0..1) and the pen advance. */
typedef struct orri_glyph {
    float x0, y0, x1, y1;
    float u0, v0, u1, v1;
    float advance;
} orri_glyph;

struct orr_font {
    orr_engine *engine;
    orr_texture atlas;
    uint32_t atlas_size;
    float pixel_height, ascent, line_height; /* pixels at scale 1 */
    orri_glyph glyphs[ORRI_FONT_GLYPHS];
    uint32_t overlays; /* overlays using it */
    char label[64];
};

/* Checks that stb_truetype may read `data` (ttf_check.c): the table
 * directory, the tables stb reads and, for every code point in `cps`, the
 * cmap lookup and the glyph outline (components included). On failure writes
 * a message naming the table to `why` and returns ORR_ERROR_MALFORMED or
 * ORR_ERROR_UNSUPPORTED. */
orr_result orri_ttf_check(const uint8_t *data, size_t size, const int *cps, int count, char *why, size_t why_size);

/* An overlay: the queue (CPU) and its render plugin's state (GPU, per frame
 * slot: the quads, the indirect draw whose instance count the update writes,
 * the descriptor set). */
struct orr_text_overlay {
    orr_engine *engine;
    orr_scene *scene;
    orr_font *font;
    orri_gpu_text_quad *quads;
    uint32_t count, capacity;
    uint64_t version; /* bumped by every change of the queue */
    char label[64];
    orri_render_plugin *plugin; /* NULL once the scene released it */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    struct {
        VkDescriptorSet set;
        orri_buffer quads, indirect;
        uint32_t capacity;
        uint64_t version;       /* queue version copied in */
        VkImageView atlas;      /* atlas view the set was written for */
        uint32_t width, height; /* target size recorded (push constants) */
    } slots[ORRI_MAX_FRAMES];
};

/* overlay_gpu.c: the plugin's objects (installed on o->scene) and their release. */
orr_result orri_text_gpu_create(orr_text_overlay *o);
void orri_text_gpu_release(orr_engine *e, orr_text_overlay *o);

/* The glyph drawn for code point `cp` ('?' for one outside the atlas). */
const orri_glyph *orri_font_glyph(const orr_font *f, uint32_t cp);

#endif
