/* sprite_test_util.h — what the sprite render tests share: an engine of a
 * size (floating origin on or off, validation hook installed; exits when
 * none can be made) and the sprite sheet loaded as Babylon.js loads sprite
 * textures (no sRGB decode, no mips, rows as stored, clamped). Header-only. */
#ifndef ORR_SPRITE_TEST_UTIL_H
#define ORR_SPRITE_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include <orrery/large_world.h>
#include <orrery/orrery.h>

#include "harness.h"
#include "support/test_support.h"

__attribute__((unused)) static orr_engine *sprite_test_engine(bool fo, uint32_t width, uint32_t height) {
    orr_engine *e = NULL;
    orr_engine_desc d = {
        .width = width, .height = height, .msaa = 4, .floating_origin = fo ? &orr_floating_origin : NULL};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(NULL));
        exit(1);
    }
    return e;
}

__attribute__((unused)) static orr_texture sprite_test_sheet(orr_engine *e) {
    orr_texture t = {0};
    orr_texture_desc d = {.srgb = ORR_OFF,
                          .mips = ORR_OFF,
                          .invert_y = ORR_OFF,
                          .sampler = {.wrap_u = ORR_WRAP_CLAMP, .wrap_v = ORR_WRAP_CLAMP}};
    CHECK(orr_texture_load_file(e, orr_test_asset_path("sprites/sheet.png"), &d, &t) == ORR_OK);
    return t;
}

#endif
