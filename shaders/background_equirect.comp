#version 450
// Equirectangular panorama → cube map, level 0. One thread per texel and face.
// Face directions follow the Vulkan/GL cube table (sc, tc, ma); the panorama is
// read as Babylon.js's HDRCubeTexture shows it: u = atan2(x, z)/2π + 0.5,
// v = acos(y)/π with row 0 the zenith. (PanoramaToCubeMapTools computes its
// "right" face from the z = +1 directions and HDRCubeTexture uploads that face
// as +X, "front" (x = +1) as +Z: the cube it draws, and the harmonics it
// computes from the same faces, are the panorama at atan2(z, x) mirrored
// across x = z. test_ibl checks our harmonics against Babylon.js's.)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D panorama;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2DArray cube;

const float PI = 3.14159265358979323846;

void main() {
    ivec3 id = ivec3(gl_GlobalInvocationID);
    ivec2 size = imageSize(cube).xy;
    if (id.x >= size.x || id.y >= size.y) return;
    float s = 2.0 * (float(id.x) + 0.5) / float(size.x) - 1.0;
    float t = 2.0 * (float(id.y) + 0.5) / float(size.y) - 1.0;
    vec3 d;
    switch (id.z) {
    case 0: d = vec3(1.0, -t, -s); break;
    case 1: d = vec3(-1.0, -t, s); break;
    case 2: d = vec3(s, 1.0, t); break;
    case 3: d = vec3(s, -1.0, -t); break;
    case 4: d = vec3(s, -t, 1.0); break;
    default: d = vec3(-s, -t, -1.0); break;
    }
    d = normalize(d);
    vec2 uv = vec2(atan(d.x, d.z) / (2.0 * PI) + 0.5, acos(clamp(d.y, -1.0, 1.0)) / PI);
    float half_texel = 0.5 / float(textureSize(panorama, 0).y);
    uv.y = clamp(uv.y, half_texel, 1.0 - half_texel); // no wrap across the poles
    imageStore(cube, id, vec4(textureLod(panorama, uv, 0.0).rgb, 1.0));
}
