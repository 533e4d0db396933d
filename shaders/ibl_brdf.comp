#version 450
// The split-sum environment BRDF table (src/texture/ibl_brdf.c): texel (i, j)
// holds, for N·V = i / (width − 1) and perceptual roughness
// r = j / (height − 1) (GGX alpha = r²; both at least 1e-3), the integrals over the GGX lobe
//   x = ∫ (1 − V·H)^5 · D · Vis · N·L dL,   y = ∫ D · Vis · N·L dL
// with Smith height-correlated visibility Vis (Heitz 2014, the form of
// Babylon.js's smithVisibility_GGXCorrelated), so that the reflectance is
// mix(x, y, F0) (Babylon.js getReflectanceFromBRDFLookup,
// BRDF_V_HEIGHT_CORRELATED). Estimated with GGX importance sampling of the
// half vector (pdf(L) = D · N·H / (4 V·H)) over Hammersley points. z holds
// the sheen integral of Babylon.js's table (below).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba16f) uniform writeonly image2D lut;
layout(push_constant) uniform Params { uint samples; } pc;

const float PI = 3.14159265358979323846;

vec2 hammersley(uint i, uint n) { return vec2(float(i) / float(n), float(bitfieldReverse(i)) * 2.3283064365386963e-10); }

vec3 sample_ggx(vec2 u, float a) {
    float phi = 2.0 * PI * u.x;
    float a2 = a * a, den = 1.0 + (a2 - 1.0) * u.y;
    // cos²θ = (1 − u) / (1 + (α² − 1) u); sin²θ from its own closed form, not
    // 1 − cos²θ, which cancels to a few float ulps' tilt for a small α.
    float c = sqrt((1.0 - u.y) / den), s = sqrt(a2 * u.y / den);
    return vec3(s * cos(phi), s * sin(phi), c);
}

float visibility(float n_l, float n_v, float a) {
    float a2 = a * a;
    float v = n_l * sqrt(n_v * (n_v - a2 * n_v) + a2);
    float l = n_v * sqrt(n_l * (n_l - a2 * n_l) + a2);
    return 0.5 / (v + l);
}

// Babylon.js's blue channel: ∫ D_Charlie · V_Ashikhmin · N·L dL (the sheen
// lobe of Estevez and Kulla, "Production Friendly Microfacet Sheen BRDF",
// with Neubelt and Pettineo's visibility), alpha = roughness², estimated by
// uniform hemisphere sampling (pdf 1 / 2π): the lobe is broad.
float sheen(vec3 v, float n_v, float a) {
    float sum = 0.0;
    for (uint i = 0u; i < pc.samples; i++) {
        vec2 u = hammersley(i, pc.samples);
        float z = u.y, r = sqrt(max(1.0 - z * z, 0.0)), phi = 2.0 * PI * u.x;
        vec3 l = vec3(r * cos(phi), r * sin(phi), z);
        vec3 h = normalize(v + l);
        float d = (2.0 + 1.0 / a) * pow(max(1.0 - h.z * h.z, 0.0), 0.5 / a) / (2.0 * PI);
        float vis = 1.0 / (4.0 * (z + n_v - z * n_v));
        sum += d * vis * z;
    }
    return sum * 2.0 * PI / float(pc.samples);
}

void main() {
    ivec2 id = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(lut);
    if (id.x >= size.x || id.y >= size.y) return;
    // The edge texels hold the edges of the range (0 and 1), as Babylon.js's
    // table does: a lookup at uv = 1 (rough or facing surfaces; clamp to
    // edge) reads the value at 1, not at 1 − 0.5 / size (decision 79).
    float n_v = max(float(id.x) / float(size.x - 1), 1e-3);
    float rough = max(float(id.y) / float(size.y - 1), 1e-3);
    float a = rough * rough;
    vec3 v = vec3(sqrt(1.0 - n_v * n_v), 0.0, n_v);
    vec2 sum = vec2(0.0);
    for (uint i = 0u; i < pc.samples; i++) {
        vec3 h = sample_ggx(hammersley(i, pc.samples), a);
        float v_h = dot(v, h);
        vec3 l = 2.0 * v_h * h - v;
        if (l.z <= 0.0 || v_h <= 0.0) continue;
        // f · N·L / pdf with f = D · Vis (F apart): D cancels.
        float g = 4.0 * visibility(l.z, n_v, a) * l.z * v_h / h.z;
        float fc = pow(1.0 - v_h, 5.0);
        sum += vec2(fc * g, g);
    }
    sum /= float(pc.samples);
    imageStore(lut, id, vec4(sum, sheen(v, n_v, a), 1.0));
}
