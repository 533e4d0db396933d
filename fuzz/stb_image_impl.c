/* stb_image_impl.c — stb_image compiled into the fuzz binaries, so that
 * libFuzzer's coverage and ASan see inside the decoder (the system libstb is
 * uninstrumented). The library build links Debian's libstb instead. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#include <stb_image.h>
