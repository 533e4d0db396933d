// Shadow caster fragment stages: the push block (as shadow_depth_vert.glsl's,
// plus `soft`) and Babylon.js's soft transparent shadows
// (enableSoftTransparentShadow): a blended caster keeps a fraction of its
// fragments equal to its alpha, by an 8×8 ordered (Bayer) dither over the
// map's texels — discarded where bayer8(texel mod 8) / 64 ≥ alpha — so the
// receivers' filter turns the pattern into a lighter shadow. ORR_SOFT is a
// specialisation constant: only the pipelines of such casters have it on, so
// the others keep a fragment stage without discard (early depth).
layout(push_constant) uniform Push {
    mat4 light;
    vec4 light_data;
    vec4 bias;
    vec4 extra; // x: ESM depth scale
    uint object;
    float cutoff; // alpha-tested casters: texture alpha below it is discarded
    float soft;   // soft transparent casters: the material's alpha
} pc;

layout(constant_id = 0) const bool ORR_SOFT = false;

// The 2×2 Bayer step (0..3) and the 8×8 matrix built from three of them (0..63).
float orri_bayer2(vec2 p) { return mod(2.0 * p.y + p.x + 1.0, 4.0); }
float orri_bayer8(vec2 p) {
    vec2 p1 = mod(p, 2.0), p2 = floor(0.5 * mod(p, 4.0)), p4 = floor(0.25 * mod(p, 8.0));
    return 16.0 * orri_bayer2(p1) + 4.0 * orri_bayer2(p2) + orri_bayer2(p4);
}

void orri_soft_transparent(float alpha) {
    if (ORR_SOFT && orri_bayer8(floor(mod(gl_FragCoord.xy, 8.0))) / 64.0 >= alpha) discard;
}
