/* orrery/handedness.h — the one place that decides the build's handedness.
 *
 * ORR_RIGHT_HANDED is 0 (left-handed, the default: +X right, +Y up, +Z
 * forward, like Babylon.js) or 1 (right-handed build variant, docs/handedness.md).
 * It is set by the build (the orrery-rh library variant defines it to 1 for
 * the library and for its users through pkg-config / CMake); every file with
 * handedness-dependent code includes this header and nothing else decides.
 */
#ifndef ORRERY_HANDEDNESS_H
#define ORRERY_HANDEDNESS_H

#ifndef ORR_RIGHT_HANDED
#define ORR_RIGHT_HANDED 0
#endif

#endif
