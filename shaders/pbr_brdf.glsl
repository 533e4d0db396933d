// pbr_brdf.glsl — the BRDF pieces of Babylon.js PBRMaterial (pbrBRDFFunctions,
// pbrDirectLightingFunctions, pbrDirectLightingFalloffFunctions), written
// from their formulas:
//   alphaG = roughness² + 0.0005 (convertRoughnessToAverageSlope)
//   D = a² / (π ((N·H)² (a² − 1) + 1)²) (Trowbridge-Reitz GGX)
//   V = 0.5 / (N·L √((N·V)² (1 − a²) + a²) + N·V √((N·L)² (1 − a²) + a²)) (height-correlated Smith)
//   F = F0 + (F90 − F0)(1 − V·H)⁵ (Schlick)
//   diffuse = 1/π · N·L (Lambert: Babylon.js 9's default diffuse model with
//   zero diffuse roughness), hemispheric = mix(ground, sky, N·L·0.5 + 0.5)
//   physical falloff: 1 / max(d², ε); spot: exp2(−κ (1 + L·dir)), κ = −log2(0.01) / (1 − cos(angle/2))
#ifndef ORR_PBR_BRDF_GLSL
#define ORR_PBR_BRDF_GLSL

const float ORR_PI = 3.14159265359;
const float ORR_EPS = 1e-7;

float pbr_alpha_g(float roughness) { return roughness * roughness + 0.0005; }

float pbr_ggx(float n_h, float a) {
    float a2 = a * a;
    float d = n_h * n_h * (a2 - 1.0) + 1.0;
    return a2 / (ORR_PI * d * d);
}

float pbr_visibility(float n_l, float n_v, float a) {
    float a2 = a * a;
    float gv = n_l * sqrt(n_v * (n_v - a2 * n_v) + a2);
    float gl = n_v * sqrt(n_l * (n_l - a2 * n_l) + a2);
    return 0.5 / (gv + gl);
}

vec3 pbr_fresnel(float v_h, vec3 f0, vec3 f90) { return f0 + (f90 - f0) * pow(1.0 - v_h, 5.0); }

struct PbrLit { vec3 diffuse; vec3 specular; };

// One Babylon.js light on a surface (n, v unit; n_v = |N·V| + ε).
PbrLit pbr_light(OrriLight l, vec3 pos, vec3 n, vec3 v, float n_v, float roughness, vec3 f0, vec3 f90) {
    PbrLit r = PbrLit(vec3(0.0), vec3(0.0));
    uint type = l.info.x;
    vec3 lv;
    float att = 1.0, n_l;
    if (type == ORRI_LIGHT_HEMI) {
        lv = normalize(l.position.xyz);
        n_l = clamp(dot(n, lv) * 0.5 + 0.5, ORR_EPS, 1.0);
        r.diffuse = mix(l.ground.rgb, l.diffuse.rgb, n_l);
    } else {
        if (type == ORRI_LIGHT_DIR) {
            lv = normalize(-l.position.xyz);
        } else {
            vec3 d = l.position.xyz - pos;
            float d2 = dot(d, d);
            lv = d * inversesqrt(max(d2, ORR_EPS));
            att = 1.0 / max(d2, ORR_EPS);
            if (type == ORRI_LIGHT_SPOT) {
                float kappa = 6.64385618977 / max(1.0 - l.direction.w, ORR_EPS);
                att *= exp2(-kappa * (1.0 + dot(lv, l.direction.xyz)));
            }
        }
        n_l = clamp(dot(n, lv), ORR_EPS, 1.0);
        r.diffuse = (att * n_l / ORR_PI) * l.diffuse.rgb;
    }
    vec3 h = normalize(v + lv);
    float n_h = clamp(dot(n, h), ORR_EPS, 1.0);
    float v_h = clamp(dot(v, h), 0.0, 1.0);
    float a = pbr_alpha_g(roughness);
    vec3 spec = pbr_fresnel(v_h, f0, f90) * pbr_ggx(n_h, a) * pbr_visibility(n_l, n_v, a);
    r.specular = spec * att * n_l * l.diffuse.rgb; // PBR lights use their diffuse colour for specular
    return r;
}

// Babylon.js computeEnvironmentIrradiance with pre-scaled harmonics.
vec3 pbr_irradiance(vec4 sh[9], vec3 n) {
    return sh[0].rgb + sh[1].rgb * n.y + sh[2].rgb * n.z + sh[3].rgb * n.x + sh[4].rgb * (n.y * n.x) +
           sh[5].rgb * (n.y * n.z) + sh[6].rgb * (3.0 * n.z * n.z - 1.0) + sh[7].rgb * (n.z * n.x) +
           sh[8].rgb * (n.x * n.x - n.y * n.y);
}

#endif
