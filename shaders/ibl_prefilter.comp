#version 450
// GGX prefiltering of a cube's radiance into one mip of one face of the
// output (src/texture/ibl_prefilter.c), as Babylon.js's HDRFiltering makes
// its mips: alpha = 0 copies the source; otherwise the GGX lobe around the
// texel's direction (N = V = R) is integrated by importance sampling with
// Hammersley points, each sample weighted by N·L and read from the source
// mip its PDF calls for (Krivanek and Colbert, "Real-time Shading with
// Filtered Importance Sampling": lod = log4(K Ωs / Ωp), K = 4).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform samplerCube source;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2DArray dst;
layout(push_constant) uniform Params {
    uint face;
    uint samples;
    float alpha;       // GGX alpha of this mip; 0: the source itself
    float source_size; // face size of the source's mip 0
    float max_level;   // the source's mip count (Babylon.js's filteringInfo.y)
} pc;

const float PI = 3.14159265358979323846;

vec3 texel_direction(ivec2 id, int size, uint face) {
    float s = 2.0 * (float(id.x) + 0.5) / float(size) - 1.0;
    float t = 2.0 * (float(id.y) + 0.5) / float(size) - 1.0;
    switch (face) { // the Vulkan/GL cube-face table
    case 0: return normalize(vec3(1.0, -t, -s));
    case 1: return normalize(vec3(-1.0, -t, s));
    case 2: return normalize(vec3(s, 1.0, t));
    case 3: return normalize(vec3(s, -1.0, -t));
    case 4: return normalize(vec3(s, -t, 1.0));
    default: return normalize(vec3(-s, -t, -1.0));
    }
}

vec2 hammersley(uint i, uint n) { return vec2(float(i) / float(n), float(bitfieldReverse(i)) * 2.3283064365386963e-10); }

// Half vector of the GGX distribution (pdf D(h) n·h), tangent space.
vec3 sample_ggx(vec2 u, float a) {
    float phi = 2.0 * PI * u.x;
    float a2 = a * a, den = 1.0 + (a2 - 1.0) * u.y;
    // cos²θ = (1 − u) / (1 + (α² − 1) u); sin²θ from its own closed form, not
    // 1 − cos²θ, which cancels to a few float ulps' tilt for a small α.
    float c = sqrt((1.0 - u.y) / den), s = sqrt(a2 * u.y / den);
    return vec3(s * cos(phi), s * sin(phi), c);
}

float d_ggx(float n_h, float a) {
    float a2 = a * a, d = n_h * n_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

vec3 radiance(vec3 n) {
    vec3 t = abs(n.z) < 0.999 ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0);
    t = normalize(cross(t, n));
    mat3 tbn = mat3(t, cross(n, t), n);
    float omega_p = 4.0 * PI / (6.0 * pc.source_size * pc.source_size);
    vec3 sum = vec3(0.0);
    float weight = 0.0;
    for (uint i = 0u; i < pc.samples; i++) {
        vec3 h = sample_ggx(hammersley(i, pc.samples), pc.alpha);
        float n_l = 2.0 * h.z * h.z - 1.0;
        if (n_l <= 0.0) continue;
        vec3 l = normalize(vec3(2.0 * h.z * h.x, 2.0 * h.z * h.y, n_l));
        float omega_s = 4.0 / (d_ggx(h.z, pc.alpha) * float(pc.samples)); // 1 / (N pdf(l)), pdf = D / 4 (v = n)
        float lod = clamp(0.5 * log2(omega_s / omega_p) + 1.0, 0.0, pc.max_level);
        sum += textureLod(source, tbn * l, lod).rgb * n_l;
        weight += n_l;
    }
    return weight > 0.0 ? sum / weight : textureLod(source, n, 0.0).rgb;
}

void main() {
    ivec2 id = ivec2(gl_GlobalInvocationID.xy);
    int size = imageSize(dst).x;
    if (id.x >= size || id.y >= size) return;
    vec3 n = texel_direction(id, size, pc.face);
    vec3 c = pc.alpha == 0.0 ? textureLod(source, n, 0.0).rgb : radiance(n);
    imageStore(dst, ivec3(id, int(pc.face)), vec4(c, 1.0));
}
