// Alpha-tested shadow casters (Babylon.js shadowMap.fragment with
// ALPHATEXTURE and ALPHATESTVALUE): the material's alpha-test texture (the
// standard material's diffuse texture, PBR's base colour texture) at set 1,
// its alpha alone compared with the material's cutoff; below it the fragment
// casts nothing. A soft transparent caster's dither takes the material's
// alpha × this texture alpha. Included by the *_alpha.frag caster stages,
// after shadow_soft.glsl.
layout(set = 1, binding = 0) uniform sampler2D alpha_tex;
layout(location = 1) in vec2 v_uv;
void orri_alpha_test(float cutoff) {
    float a = texture(alpha_tex, v_uv).a;
    if (a < cutoff) discard;
    orri_soft_transparent(pc.soft * a);
}
