/* orrery/text.h — screen-space text and rectangles over a scene (a HUD).
 *
 *     orr_font *font = NULL;
 *     orr_font_create(engine, &(orr_font_desc){ .path = "assets/fonts/DejaVuSans.ttf",
 *                                               .pixel_height = 16 }, &font);
 *     orr_text_overlay *hud = NULL;
 *     orr_text_overlay_create(scene, &(orr_text_overlay_desc){ .font = font }, &hud);
 *     // every frame:
 *     orr_text_clear(hud);
 *     orr_text_rect(hud, 4, 4, 180, 44, (orr_color4){0, 0, 0, 0.5});
 *     orr_text_printf(hud, 8, 8, (orr_color4){1, 1, 1, 1}, 1.0f, "frame %.2f ms", ms);
 *     orr_engine_render(engine, scene);
 *     ...
 *     orr_text_overlay_destroy(hud);   // before its scene
 *     orr_font_destroy(font);          // after every overlay using it
 *
 * A font is a TrueType file (glyf outlines) baked once by stb_truetype
 * (Debian's libstb-dev) into an atlas texture of the engine: printable ASCII
 * (32..126) and Latin-1 (160..255) at one pixel height, oversampled 2 × 2 by
 * default so that text placed at fractional pixels and scaled a little stays
 * smooth. Other code points draw as '?'. The bytes are validated before stb
 * sees them (see orr_font_create): stb_truetype trusts its input.
 *
 * An overlay draws after everything else of its scene (after transparent
 * meshes and every other plugin of the AFTER_TRANSPARENT stage that was
 * installed before it), into the same target before the MSAA resolve,
 * alpha blended (straight alpha), with no depth test: pixel coordinates,
 * origin at the top-left corner of the render target, x right, y down, in
 * render-target pixels. The camera, the floating origin and the scene's image processing do not touch it: colours
 * are written as given (the target is 8-bit UNORM).
 *
 * Items (strings and rectangles) stay queued until orr_text_clear: clear and
 * queue again each frame for changing text, or queue once for fixed labels.
 * They are drawn in queue order (later items over earlier ones). */
#ifndef ORRERY_TEXT_H
#define ORRERY_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "orrery/engine.h"
#include "orrery/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_font orr_font;
typedef struct orr_text_overlay orr_text_overlay;

typedef struct orr_font_desc {
    /* The font: data + size (TrueType bytes, read only during the call), or
     * path (a .ttf file). Exactly one of them. */
    const void *data;
    size_t size;
    const char *path;
    float pixel_height; /* ascender − descender in pixels at scale 1 (stb's ScaleForPixelHeight); default 16, ≤ 256 */
    uint32_t oversample; /* 1..4 in x and y; default 2 */
    const char *label;   /* debug name; default the path, or "font" */
} orr_font_desc;

/* Validates and bakes the font (see the header comment). Malformed bytes
 * (bad table directory, a table outside the file, missing cmap/glyf/head/
 * hhea/hmtx/loca/maxp, an outline, cmap subtable or composite glyph that
 * reads outside its table or nests deeper than 8): ORR_ERROR_MALFORMED
 * naming the table; CFF outlines (OTTO) and collections:
 * ORR_ERROR_UNSUPPORTED; a file that cannot be read: ORR_ERROR_IO. The
 * engine's last error names the font. On failure *out is NULL and nothing is
 * left behind. */
orr_result orr_font_create(orr_engine *engine, const orr_font_desc *desc, orr_font **out);
/* Frees the atlas (deferred past frames in flight). Destroy overlays using
 * the font first. NULL is ignored. */
void orr_font_destroy(orr_font *font);
/* Width in pixels of `text` (UTF-8) at `scale`, and the line height (the
 * font's ascent − descent + line gap at scale 1). */
float orr_font_text_width(const orr_font *font, const char *text, float scale);
float orr_font_line_height(const orr_font *font);

typedef struct orr_text_overlay_desc {
    orr_font *font;    /* required */
    uint32_t capacity; /* quads (glyphs + rectangles) before the first growth; default 1024 */
    const char *label; /* default "text overlay" */
} orr_text_overlay_desc;

/* Installs the overlay on `scene` (one of the scene's four render plugins).
 * ORR_ERROR_LIMIT_REACHED when the scene has four already. */
orr_result orr_text_overlay_create(orr_scene *scene, const orr_text_overlay_desc *desc, orr_text_overlay **out);
void orr_text_overlay_destroy(orr_text_overlay *overlay);
/* Drops every queued item. */
void orr_text_clear(orr_text_overlay *overlay);
/* Queues `text` (UTF-8; '\n' starts a new line) with the top of its first
 * line's em box at (x, y) pixels, `scale` times the font's pixel height
 * (0: 1). Returns ORR_ERROR_OUT_OF_HOST_MEMORY when the queue cannot grow. */
orr_result orr_text_draw(orr_text_overlay *overlay, float x, float y, orr_color4 color, float scale, const char *text);
orr_result orr_text_printf(orr_text_overlay *overlay, float x, float y, orr_color4 color, float scale, const char *fmt,
                           ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* Queues a filled rectangle (x, y top-left, w × h pixels). */
orr_result orr_text_rect(orr_text_overlay *overlay, float x, float y, float w, float h, orr_color4 color);
/* Quads queued (glyphs drawn + rectangles; spaces draw nothing). */
uint32_t orr_text_quad_count(const orr_text_overlay *overlay);

#ifdef __cplusplus
}
#endif
#endif
