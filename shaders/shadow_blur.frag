#version 450
// Blurred ESM (Babylon.js useBlurExponentialShadowMap), at map size / blur
// scale, reading the ESM map bilinearly:
//   kernel blur (useKernelBlur, KernelBlurPostProcess): one direction per
//     pass, N taps at integer texel offsets −(N−1)/2..(N−1)/2 of the output,
//     weights gaussian(2i/(N−1) − 1) with σ = 1/3, normalised (Babylon packs
//     pairs of taps into bilinear reads; the sum is the same up to that);
//   box blur (depthBoxBlur): the (2·offset + 1)² texels around, averaged.
layout(set = 0, binding = 0) uniform sampler2DArray src;
layout(push_constant) uniform Push {
    vec4 p; // xy: one output texel along the pass direction (kernel) or 1 / size (box); z: taps; w: box offset (0: kernel)
} pc;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_value;

float gaussian(float x) {
    const float sigma = 1.0 / 3.0;
    return exp(-(x * x) / (2.0 * sigma * sigma)) / (sqrt(2.0 * 3.14159265358979) * sigma);
}

void main() {
    float sum = 0.0;
    if (pc.p.w > 0.0) {
        int o = int(pc.p.w + 0.5);
        for (int y = -o; y <= o; y++)
            for (int x = -o; x <= o; x++) sum += texture(src, vec3(v_uv + vec2(x, y) * pc.p.xy, 0.0)).x;
        out_value = vec4(sum / float((2 * o + 1) * (2 * o + 1)), 0.0, 0.0, 1.0);
        return;
    }
    int n = int(pc.p.z + 0.5);
    float total = 0.0, c = float(n - 1) * 0.5;
    for (int i = 0; i < n; i++) {
        float w = n > 1 ? gaussian(float(i) / float(n - 1) * 2.0 - 1.0) : 1.0;
        sum += w * texture(src, vec3(v_uv + (float(i) - c) * pc.p.xy, 0.0)).x;
        total += w;
    }
    out_value = vec4(sum / total, 0.0, 0.0, 1.0);
}
