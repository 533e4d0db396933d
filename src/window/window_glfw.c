/* window_glfw.c — orrery/window.h on GLFW (X11): a surface, a swapchain, and
 * a blit of the engine's last frame into it.
 *
 * Invariants:
 * - The engine's instance already has the surface extensions (device.c
 *   enables VK_KHR_surface and both X11 surface extensions when the loader
 *   offers them, because it is created before any window exists); creation
 *   checks that what GLFW asks for is among them. Debian's GLFW 3.3 is X11
 *   only; Wayland is left out on purpose (enabling VK_KHR_wayland_surface
 *   makes Mesa try to reach a Wayland compositor and print errors headless).
 * - GLFW is initialised while at least one window lives (glfwInit is
 *   idempotent; glfwTerminate after the last window). GLFW itself is
 *   process-global and main-thread only, so the count is one static.
 * - The window has its own frame slots (command buffer, fence, "acquired"
 *   semaphore); the "blit done" semaphore that a present waits on is per
 *   swapchain image, since a present gives no signal of when it is done with
 *   it (the usual rule; see the Vulkan guide's "swapchain semaphore reuse").
 * - Presents go on the engine's one queue, after its render submissions: the
 *   first barrier (src ALL_COMMANDS) orders the blit after the render that
 *   wrote the target; the next render's own barrier (src ALL_COMMANDS, from
 *   UNDEFINED) orders its writes after this blit's reads. e->final_layout is
 *   TRANSFER_SRC_OPTIMAL after a submitted present, as after a readback.
 * - Swapchain recreation waits for the queue to go idle first (resize is
 *   rare; simple beats clever here).
 */
#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <string.h>

#include "orrery/window.h"
#include "render/render_int.h"

#define WIN_FRAMES 2
#define WIN_EVENTS 1024

typedef struct win_frame {
    VkCommandBuffer cmd;
    VkFence fence;
    VkSemaphore acquired;
    bool submitted;
} win_frame;

struct orr_window {
    orr_engine *engine;
    GLFWwindow *glfw;
    VkSurfaceKHR surface;
    VkSwapchainKHR swapchain;
    VkSurfaceFormatKHR format;
    VkPresentModeKHR present_mode;
    VkExtent2D extent;
    VkImage *images;
    VkSemaphore *blitted; /* per swapchain image: the present waits on it */
    uint32_t image_count;
    VkCommandPool pool;
    win_frame frames[WIN_FRAMES];
    uint32_t frame;
    bool stale;    /* resized or out of date: recreate before the next acquire */
    bool glfw_ref; /* counted in glfw_users */
    char label[64];
    /* Input (see orrery/window.h): the queue of the last poll and the polled state. */
    orr_window_resize resize;
    orr_input_state input;
    orr_event events[WIN_EVENTS];
    uint32_t event_count, event_next, dropped;
    bool have_cursor; /* mouse_x/y hold a position: motion deltas are meaningful */
    uint32_t fb_width, fb_height;
};

static int glfw_users; /* windows alive; see the invariants */

/* Must match the surface extensions device.c's create_instance enables. */
static const char *const SURFACE_EXTS[] = {"VK_KHR_surface", "VK_KHR_xcb_surface", "VK_KHR_xlib_surface"};

static orri_ctx *ctx_of(orr_window *w) { return &w->engine->host.ctx; }

static const char *glfw_error(void) {
    const char *text = NULL;
    glfwGetError(&text);
    return text ? text : "unknown GLFW error";
}

static bool instance_has(const char *name) {
    uint32_t n = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &n, NULL);
    VkExtensionProperties props[256];
    if (n > 256) n = 256;
    vkEnumerateInstanceExtensionProperties(NULL, &n, props);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(props[i].extensionName, name) == 0) return true;
    return false;
}

static bool device_has(VkPhysicalDevice pd, const char *name) {
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    VkExtensionProperties props[512];
    if (n > 512) n = 512;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(props[i].extensionName, name) == 0) return true;
    return false;
}

/* Every instance extension GLFW needs must be one device.c enabled. */
static orr_result check_instance_exts(orr_window *w) {
    uint32_t n = 0;
    const char **need = glfwGetRequiredInstanceExtensions(&n);
    if (!need)
        return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED,
                         "orr_window_create: no Vulkan surface support for "
                         "this display (%s)",
                         glfw_error());
    for (uint32_t i = 0; i < n; i++) {
        bool known = false;
        for (size_t k = 0; k < sizeof SURFACE_EXTS / sizeof *SURFACE_EXTS; k++)
            known |= strcmp(need[i], SURFACE_EXTS[k]) == 0;
        if (!known || !instance_has(need[i]))
            return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED,
                             "orr_window_create: the display needs instance "
                             "extension %s, which the engine's Vulkan instance does not have",
                             need[i]);
    }
    return ORR_OK;
}

static void on_framebuffer_size(GLFWwindow *glfw, int width, int height) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (w) w->stale = true;
}

/* ---- input ---------------------------------------------------------------------------- */

static void push(orr_window *w, orr_event ev) {
    if (w->event_count < WIN_EVENTS)
        w->events[w->event_count++] = ev;
    else
        w->dropped++;
}

static uint32_t mods_of(int m) {
    return (m & GLFW_MOD_SHIFT ? ORR_MOD_SHIFT : 0) | (m & GLFW_MOD_CONTROL ? ORR_MOD_CONTROL : 0) |
           (m & GLFW_MOD_ALT ? ORR_MOD_ALT : 0) | (m & GLFW_MOD_SUPER ? ORR_MOD_SUPER : 0);
}

static void on_key(GLFWwindow *glfw, int key, int scancode, int action, int mods) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (!w) return;
    orr_input_state *in = &w->input;
    in->mods = mods_of(mods);
    bool known = key > 0 && key < ORR_KEY_COUNT;
    if (action == GLFW_PRESS && known) {
        in->keys[key] = true;
        if (in->pressed[key] < 255) in->pressed[key]++;
    } else if (action == GLFW_RELEASE && known) {
        in->keys[key] = false;
        if (in->released[key] < 255) in->released[key]++;
    }
    push(w, (orr_event){.type = action == GLFW_RELEASE ? ORR_EVENT_KEY_UP : ORR_EVENT_KEY_DOWN,
                        .key = known ? key : ORR_KEY_UNKNOWN,
                        .mods = in->mods,
                        .repeat = action == GLFW_REPEAT});
}

static void on_char(GLFWwindow *glfw, unsigned int codepoint) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (w) push(w, (orr_event){.type = ORR_EVENT_TEXT, .codepoint = codepoint});
}

static void on_button(GLFWwindow *glfw, int button, int action, int mods) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (!w || button < 0 || button >= ORR_MOUSE_BUTTON_COUNT) return;
    orr_input_state *in = &w->input;
    in->mods = mods_of(mods);
    in->buttons[button] = action == GLFW_PRESS;
    if (action == GLFW_PRESS && in->buttons_pressed[button] < 255) in->buttons_pressed[button]++;
    push(w, (orr_event){.type = action == GLFW_PRESS ? ORR_EVENT_MOUSE_DOWN : ORR_EVENT_MOUSE_UP,
                        .button = button,
                        .mods = in->mods,
                        .x = in->mouse_x,
                        .y = in->mouse_y});
}

static void on_cursor(GLFWwindow *glfw, double x, double y) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (!w) return;
    orr_input_state *in = &w->input;
    double dx = w->have_cursor ? x - in->mouse_x : 0, dy = w->have_cursor ? y - in->mouse_y : 0;
    in->mouse_x = x, in->mouse_y = y, w->have_cursor = true;
    in->mouse_dx += dx, in->mouse_dy += dy;
    push(w, (orr_event){.type = ORR_EVENT_MOUSE_MOVE, .x = x, .y = y, .dx = dx, .dy = dy});
}

static void on_enter(GLFWwindow *glfw, int entered) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (w && !entered && !w->input.mouse_captured) w->have_cursor = false; /* no jump when it comes back */
}

static void on_scroll(GLFWwindow *glfw, double dx, double dy) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (!w) return;
    w->input.wheel_x += dx, w->input.wheel_y += dy;
    push(w, (orr_event){.type = ORR_EVENT_WHEEL, .dx = dx, .dy = dy, .x = w->input.mouse_x, .y = w->input.mouse_y});
}

static void on_scale(GLFWwindow *glfw, float x, float y) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (w) push(w, (orr_event){.type = ORR_EVENT_CONTENT_SCALE, .scale_x = x, .scale_y = y});
}

static void on_focus(GLFWwindow *glfw, int focused) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (!w) return;
    if (!focused) { /* keys released while elsewhere never come: let go of everything */
        memset(w->input.keys, 0, sizeof w->input.keys);
        memset(w->input.buttons, 0, sizeof w->input.buttons);
        w->input.mods = 0;
    }
    push(w, (orr_event){.type = ORR_EVENT_FOCUS, .focused = focused != 0});
}

static void on_close(GLFWwindow *glfw) {
    orr_window *w = glfwGetWindowUserPointer(glfw);
    if (w) push(w, (orr_event){.type = ORR_EVENT_CLOSE});
}

static orr_result open_glfw(orr_window *w, const orr_window_desc *d) {
    if (!glfwInit())
        return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED,
                         "orr_window_create: no display to open a window on "
                         "(GLFW: %s)",
                         glfw_error());
    glfw_users++, w->glfw_ref = true;
    if (!glfwVulkanSupported())
        return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED, "orr_window_create: GLFW found no Vulkan loader");
    orr_result r = check_instance_exts(w);
    if (r != ORR_OK) return r;
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API); /* Vulkan presents; no GL context */
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    uint32_t width = d->width ? d->width : w->engine->width, height = d->height ? d->height : w->engine->height;
    w->glfw = glfwCreateWindow((int)width, (int)height, d->title ? d->title : "Orrery", NULL, NULL);
    if (!w->glfw)
        return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED, "orr_window_create: cannot open a window (GLFW: %s)",
                         glfw_error());
    glfwSetWindowUserPointer(w->glfw, w);
    glfwSetFramebufferSizeCallback(w->glfw, on_framebuffer_size);
    glfwSetKeyCallback(w->glfw, on_key);
    glfwSetCharCallback(w->glfw, on_char);
    glfwSetMouseButtonCallback(w->glfw, on_button);
    glfwSetCursorPosCallback(w->glfw, on_cursor);
    glfwSetCursorEnterCallback(w->glfw, on_enter);
    glfwSetScrollCallback(w->glfw, on_scroll);
    glfwSetWindowContentScaleCallback(w->glfw, on_scale);
    glfwSetWindowFocusCallback(w->glfw, on_focus);
    glfwSetWindowCloseCallback(w->glfw, on_close);
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(w->glfw, &fw, &fh);
    w->fb_width = (uint32_t)fw, w->fb_height = (uint32_t)fh;
    return ORR_OK;
}

static orr_result create_surface(orr_window *w) {
    orri_gpu *gpu = &w->engine->gpu;
    if (!device_has(gpu->physical, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
        return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED, "orr_window_create: %s has no VK_KHR_swapchain",
                         gpu->props.deviceName);
    VkResult vr = glfwCreateWindowSurface(gpu->instance, w->glfw, NULL, &w->surface);
    if (vr != VK_SUCCESS)
        return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED,
                         "orr_window_create: cannot create a Vulkan surface "
                         "(VkResult %d, GLFW: %s)",
                         (int)vr, glfw_error());
    VkBool32 ok = VK_FALSE;
    orr_result r =
        orri_vk_check(gpu, vkGetPhysicalDeviceSurfaceSupportKHR(gpu->physical, gpu->queue_family, w->surface, &ok),
                      "surface support");
    if (r == ORR_OK && !ok)
        r = orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED,
                      "orr_window_create: %s cannot present to this window "
                      "from its graphics queue",
                      gpu->props.deviceName);
    return r;
}

static orr_result create_frames(orr_window *w) {
    orri_gpu *gpu = &w->engine->gpu;
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = gpu->queue_family};
    orr_result r = orri_vk_check(gpu, vkCreateCommandPool(gpu->device, &pci, NULL, &w->pool), "window command pool");
    for (uint32_t i = 0; r == ORR_OK && i < WIN_FRAMES; i++) {
        win_frame *f = &w->frames[i];
        VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = w->pool,
                                          .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1};
        r = orri_vk_check(gpu, vkAllocateCommandBuffers(gpu->device, &ai, &f->cmd), "window command buffer");
        VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        if (r == ORR_OK) r = orri_vk_check(gpu, vkCreateFence(gpu->device, &fci, NULL, &f->fence), "window fence");
        VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        if (r == ORR_OK)
            r = orri_vk_check(gpu, vkCreateSemaphore(gpu->device, &sci, NULL, &f->acquired), "window semaphore");
        if (r != ORR_OK) break;
        orri_gpu_name(gpu, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)f->cmd, "%s present %u", w->label, i);
        orri_gpu_name(gpu, VK_OBJECT_TYPE_FENCE, (uint64_t)f->fence, "%s present %u fence", w->label, i);
        orri_gpu_name(gpu, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)f->acquired, "%s acquired %u", w->label, i);
    }
    orri_gpu_name(gpu, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)w->pool, "%s pool", w->label);
    return r;
}

/* ---- swapchain ------------------------------------------------------------------------ */

static bool blit_dst_ok(orri_gpu *gpu, VkFormat format) {
    VkFormatProperties p;
    vkGetPhysicalDeviceFormatProperties(gpu->physical, format, &p);
    return (p.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT) != 0;
}

/* 8-bit UNORM first (the window then shows the PNG's values), then any blit-able one. */
static orr_result choose_format(orr_window *w) {
    orri_gpu *gpu = &w->engine->gpu;
    uint32_t n = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(gpu->physical, w->surface, &n, NULL);
    VkSurfaceFormatKHR formats[64];
    if (n > 64) n = 64;
    orr_result r = orri_vk_check(gpu, vkGetPhysicalDeviceSurfaceFormatsKHR(gpu->physical, w->surface, &n, formats),
                                 "surface formats");
    if (r != ORR_OK) return r;
    int best = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (!blit_dst_ok(gpu, formats[i].format)) continue;
        bool unorm = formats[i].format == VK_FORMAT_B8G8R8A8_UNORM || formats[i].format == VK_FORMAT_R8G8B8A8_UNORM;
        if (unorm && formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
            best = (int)i;
            break;
        }
        if (best < 0) best = (int)i;
    }
    if (best < 0)
        return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED,
                         "orr_window_create: the surface offers no format "
                         "that %s can blit to",
                         gpu->props.deviceName);
    w->format = formats[best];
    return ORR_OK;
}

static VkPresentModeKHR choose_present_mode(orr_window *w, orr_vsync vsync) {
    if (vsync != ORR_VSYNC_OFF) return VK_PRESENT_MODE_FIFO_KHR; /* always available */
    orri_gpu *gpu = &w->engine->gpu;
    uint32_t n = 0;
    vkGetPhysicalDeviceSurfacePresentModesKHR(gpu->physical, w->surface, &n, NULL);
    VkPresentModeKHR modes[16];
    if (n > 16) n = 16;
    vkGetPhysicalDeviceSurfacePresentModesKHR(gpu->physical, w->surface, &n, modes);
    bool mailbox = false, immediate = false;
    for (uint32_t i = 0; i < n; i++) {
        mailbox |= modes[i] == VK_PRESENT_MODE_MAILBOX_KHR;
        immediate |= modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR;
    }
    return mailbox ? VK_PRESENT_MODE_MAILBOX_KHR : immediate ? VK_PRESENT_MODE_IMMEDIATE_KHR : VK_PRESENT_MODE_FIFO_KHR;
}

static void destroy_images(orr_window *w) {
    VkDevice dev = w->engine->gpu.device;
    for (uint32_t i = 0; i < w->image_count; i++)
        if (w->blitted[i]) vkDestroySemaphore(dev, w->blitted[i], NULL);
    orri_free(&ctx_of(w)->allocator, w->blitted);
    orri_free(&ctx_of(w)->allocator, w->images);
    w->blitted = NULL, w->images = NULL, w->image_count = 0;
}

static orr_result get_images(orr_window *w) {
    orri_gpu *gpu = &w->engine->gpu;
    uint32_t n = 0;
    orr_result r = orri_vk_check(gpu, vkGetSwapchainImagesKHR(gpu->device, w->swapchain, &n, NULL), "swapchain images");
    if (r != ORR_OK) return r;
    w->images = orri_alloc(&ctx_of(w)->allocator, n * sizeof *w->images);
    w->blitted = orri_alloc(&ctx_of(w)->allocator, n * sizeof *w->blitted);
    if (!w->images || !w->blitted) return orri_fail(ctx_of(w), ORR_ERROR_OUT_OF_HOST_MEMORY, "swapchain images");
    w->image_count = n;
    r = orri_vk_check(gpu, vkGetSwapchainImagesKHR(gpu->device, w->swapchain, &n, w->images), "swapchain images");
    VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    for (uint32_t i = 0; r == ORR_OK && i < n; i++) {
        r = orri_vk_check(gpu, vkCreateSemaphore(gpu->device, &sci, NULL, &w->blitted[i]), "window semaphore");
        orri_gpu_name(gpu, VK_OBJECT_TYPE_IMAGE, (uint64_t)w->images[i], "%s image %u", w->label, i);
        orri_gpu_name(gpu, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)w->blitted[i], "%s blitted %u", w->label, i);
    }
    return r;
}

static VkExtent2D surface_extent(orr_window *w, const VkSurfaceCapabilitiesKHR *caps) {
    if (caps->currentExtent.width != UINT32_MAX) return caps->currentExtent;
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(w->glfw, &fw, &fh);
    VkExtent2D e = {(uint32_t)fw, (uint32_t)fh};
    if (e.width < caps->minImageExtent.width) e.width = caps->minImageExtent.width;
    if (e.width > caps->maxImageExtent.width) e.width = caps->maxImageExtent.width;
    if (e.height < caps->minImageExtent.height) e.height = caps->minImageExtent.height;
    if (e.height > caps->maxImageExtent.height) e.height = caps->maxImageExtent.height;
    return e;
}

/* (Re)creates the swapchain at the surface's current size. A zero-size
 * (minimised) window keeps the old one and stays stale. */
static orr_result create_swapchain(orr_window *w) {
    orri_gpu *gpu = &w->engine->gpu;
    VkSurfaceCapabilitiesKHR caps;
    orr_result r = orri_vk_check(gpu, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(gpu->physical, w->surface, &caps),
                                 "surface capabilities");
    if (r != ORR_OK) return r;
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
        return orri_fail(ctx_of(w), ORR_ERROR_UNSUPPORTED, "window: swapchain images cannot be blit targets here");
    VkExtent2D extent = surface_extent(w, &caps);
    if (extent.width == 0 || extent.height == 0) return ORR_OK;
    uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount && count > caps.maxImageCount) count = caps.maxImageCount;
    VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if (!(caps.supportedCompositeAlpha & alpha))
        alpha = (VkCompositeAlphaFlagBitsKHR)(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha);
    VkSwapchainKHR old = w->swapchain;
    if (old) vkQueueWaitIdle(gpu->queue); /* nothing may still use the old images or semaphores */
    VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = w->surface,
        .minImageCount = count,
        .imageFormat = w->format.format,
        .imageColorSpace = w->format.colorSpace,
        .imageExtent = extent,
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = alpha,
        .presentMode = w->present_mode,
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    r = orri_vk_check(gpu, vkCreateSwapchainKHR(gpu->device, &ci, NULL, &w->swapchain), "vkCreateSwapchainKHR");
    if (old) {
        destroy_images(w);
        vkDestroySwapchainKHR(gpu->device, old, NULL);
    }
    if (r != ORR_OK) {
        w->swapchain = VK_NULL_HANDLE;
        return r;
    }
    orri_gpu_name(gpu, VK_OBJECT_TYPE_SWAPCHAIN_KHR, (uint64_t)w->swapchain, "%s swapchain", w->label);
    w->extent = extent;
    r = get_images(w);
    w->stale = r != ORR_OK; /* retried at the next present */
    return r;
}

/* ---- lifetime ------------------------------------------------------------------------- */

orr_result orr_window_create(orr_engine *e, const orr_window_desc *desc, orr_window **out) {
    if (!out || !e) {
        orri_misuse(e ? &e->host.ctx : NULL, ORR_MSG_NULL_CONTEXT, "orr_window_create: engine or out is NULL");
        return ORR_ERROR_INVALID_HANDLE;
    }
    *out = NULL;
    orr_window_desc d = desc ? *desc : (orr_window_desc){0};
    if (d.width > 16384 || d.height > 16384)
        return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "orr_window_create: size %ux%u is larger than "
                         "16384",
                         d.width, d.height);
    orr_window *w = orri_alloc(&e->host.ctx.allocator, sizeof *w);
    if (!w) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_window_create");
    w->engine = e;
    w->resize = d.resize;
    snprintf(w->label, sizeof w->label, "%s", d.label ? d.label : "window");
    orr_result r = open_glfw(w, &d);
    if (r == ORR_OK) r = create_surface(w);
    if (r == ORR_OK) r = choose_format(w);
    if (r == ORR_OK) w->present_mode = choose_present_mode(w, d.vsync);
    if (r == ORR_OK) r = create_frames(w);
    if (r == ORR_OK) r = create_swapchain(w);
    /* The framebuffer may differ from the size asked for (content scale,
     * window manager): the engine follows it from the start. Last, so a
     * failed create leaves the engine's size as it was. */
    if (r == ORR_OK && w->resize == ORR_WINDOW_RESIZE_ENGINE && w->fb_width && w->fb_height)
        r = orr_engine_resize(e, w->fb_width, w->fb_height);
    if (r != ORR_OK) {
        orr_window_destroy(w);
        return r;
    }
    *out = w;
    return ORR_OK;
}

void orr_window_destroy(orr_window *w) {
    if (!w) return;
    orri_gpu *gpu = &w->engine->gpu;
    if (gpu->device) vkQueueWaitIdle(gpu->queue);
    for (uint32_t i = 0; i < WIN_FRAMES; i++) {
        if (w->frames[i].fence) vkDestroyFence(gpu->device, w->frames[i].fence, NULL);
        if (w->frames[i].acquired) vkDestroySemaphore(gpu->device, w->frames[i].acquired, NULL);
    }
    if (w->pool) vkDestroyCommandPool(gpu->device, w->pool, NULL);
    destroy_images(w);
    if (w->swapchain) vkDestroySwapchainKHR(gpu->device, w->swapchain, NULL);
    if (w->surface) vkDestroySurfaceKHR(gpu->instance, w->surface, NULL);
    if (w->glfw) glfwDestroyWindow(w->glfw);
    if (w->glfw_ref && --glfw_users == 0) glfwTerminate();
    orri_free(&ctx_of(w)->allocator, w);
}

bool orr_window_should_close(const orr_window *w) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_window_should_close: window is NULL");
        return true;
    }
    return glfwWindowShouldClose(w->glfw) != 0;
}

void orr_window_poll(orr_window *w) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_window_poll: window is NULL");
        return;
    }
    orr_input_begin_frame(&w->input);
    w->event_count = w->event_next = 0;
    glfwPollEvents();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(w->glfw, &fw, &fh);
    if (fw > 0 && fh > 0 && ((uint32_t)fw != w->fb_width || (uint32_t)fh != w->fb_height)) {
        w->fb_width = (uint32_t)fw, w->fb_height = (uint32_t)fh, w->stale = true;
        /* On failure the engine keeps its size (the message is logged) and
         * the frame is scaled into the window as under RESIZE_FIT. */
        if (w->resize == ORR_WINDOW_RESIZE_ENGINE) orr_engine_resize(w->engine, w->fb_width, w->fb_height);
        push(w, (orr_event){.type = ORR_EVENT_RESIZE, .width = w->fb_width, .height = w->fb_height});
    }
}

bool orr_window_next_event(orr_window *w, orr_event *out) {
    if (!w || !out) return false;
    if (w->event_next >= w->event_count) return false;
    *out = w->events[w->event_next++];
    return true;
}

uint32_t orr_window_dropped_events(const orr_window *w) { return w ? w->dropped : 0; }
const orr_input_state *orr_window_input(const orr_window *w) { return w ? &w->input : NULL; }
bool orr_window_key_down(const orr_window *w, int key) { return w && orr_input_key_down(&w->input, key); }
bool orr_window_key_pressed(const orr_window *w, int key) { return w && orr_input_key_pressed(&w->input, key); }
bool orr_window_mouse_down(const orr_window *w, int button) { return w && orr_input_button_down(&w->input, button); }

void orr_window_set_mouse_capture(orr_window *w, bool captured) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_window_set_mouse_capture: window is NULL");
        return;
    }
    glfwSetInputMode(w->glfw, GLFW_CURSOR, captured ? GLFW_CURSOR_DISABLED : GLFW_CURSOR_NORMAL);
    if (glfwRawMouseMotionSupported())
        glfwSetInputMode(w->glfw, GLFW_RAW_MOUSE_MOTION, captured ? GLFW_TRUE : GLFW_FALSE);
    w->input.mouse_captured = captured;
    w->have_cursor = false; /* the cursor jumps: no delta from the switch */
}

void orr_window_set_should_close(orr_window *w, bool close) {
    if (w) glfwSetWindowShouldClose(w->glfw, close ? GLFW_TRUE : GLFW_FALSE);
}

void orr_window_framebuffer_size(const orr_window *w, uint32_t *width, uint32_t *height) {
    int fw = 0, fh = 0;
    if (w) glfwGetFramebufferSize(w->glfw, &fw, &fh);
    if (width) *width = (uint32_t)fw;
    if (height) *height = (uint32_t)fh;
}

void orr_window_content_scale(const orr_window *w, float *x, float *y) {
    float sx = 1, sy = 1;
    if (w) glfwGetWindowContentScale(w->glfw, &sx, &sy);
    if (x) *x = sx;
    if (y) *y = sy;
}

/* ---- present -------------------------------------------------------------------------- */

static orr_result wait_frame(orr_window *w, win_frame *f) {
    if (!f->submitted) return ORR_OK;
    orri_gpu *gpu = &w->engine->gpu;
    orr_result r = orri_vk_check(gpu, vkWaitForFences(gpu->device, 1, &f->fence, VK_TRUE, UINT64_MAX), "window fence");
    if (r != ORR_OK) return r;
    f->submitted = false;
    return orri_vk_check(gpu, vkResetFences(gpu->device, 1, &f->fence), "window fence");
}

/* Acquires an image into *index, or leaves UINT32_MAX when there is nothing
 * to present to now (minimised, or still out of date after a recreation). */
static orr_result acquire(orr_window *w, win_frame *f, uint32_t *index) {
    orri_gpu *gpu = &w->engine->gpu;
    *index = UINT32_MAX;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (w->stale || !w->swapchain) {
            orr_result r = create_swapchain(w);
            if (r != ORR_OK) return r;
            if (w->stale || !w->swapchain) return ORR_OK;
        }
        VkResult vr = vkAcquireNextImageKHR(gpu->device, w->swapchain, UINT64_MAX, f->acquired, VK_NULL_HANDLE, index);
        if (vr == VK_SUCCESS) return ORR_OK;
        if (vr == VK_SUBOPTIMAL_KHR) { /* usable; the semaphore will signal */
            w->stale = true;
            return ORR_OK;
        }
        *index = UINT32_MAX;
        if (vr != VK_ERROR_OUT_OF_DATE_KHR) return orri_vk_check(gpu, vr, "vkAcquireNextImageKHR");
        w->stale = true;
    }
    return ORR_OK;
}

/* The largest rectangle of the source's aspect that fits the window, centred. */
static void fit(uint32_t sw, uint32_t sh, VkExtent2D dst, VkOffset3D *lo, VkOffset3D *hi) {
    double scale = (double)dst.width / sw < (double)dst.height / sh ? (double)dst.width / sw : (double)dst.height / sh;
    int32_t w = (int32_t)(sw * scale + 0.5), h = (int32_t)(sh * scale + 0.5);
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    *lo = (VkOffset3D){((int32_t)dst.width - w) / 2, ((int32_t)dst.height - h) / 2, 0};
    *hi = (VkOffset3D){lo->x + w, lo->y + h, 1};
}

static void record_blit(orr_window *w, VkCommandBuffer cmd, VkImage dst) {
    orr_engine *e = w->engine;
    const orri_image *src = e->msaa > 1 ? &e->resolve : &e->color;
    orri_barriers b = {.cmd = cmd};
    orri_barriers_image(&b, orri_barrier_image(src->image, VK_IMAGE_ASPECT_COLOR_BIT, e->final_layout,
                                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                                               VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT));
    /* src stage = the acquire semaphore's wait stage, so the transition waits for it. */
    orri_barriers_image(&b,
                        orri_barrier_image(dst, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                                           0, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT));
    orri_barriers_flush(&b);
    VkOffset3D lo, hi;
    fit(e->width, e->height, w->extent, &lo, &hi);
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (lo.x > 0 || lo.y > 0 || hi.x < (int32_t)w->extent.width || hi.y < (int32_t)w->extent.height) {
        vkCmdClearColorImage(cmd, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &(VkClearColorValue){{0, 0, 0, 1}}, 1,
                             &all);
        orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    }
    VkImageBlit region = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .srcOffsets = {{0, 0, 0}, {(int32_t)e->width, (int32_t)e->height, 1}},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstOffsets = {lo, hi},
    };
    bool same = hi.x - lo.x == (int32_t)e->width && hi.y - lo.y == (int32_t)e->height;
    vkCmdBlitImage(cmd, src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                   &region, same ? VK_FILTER_NEAREST : VK_FILTER_LINEAR);
    /* The present waits on the semaphore signalled after ALL_COMMANDS. */
    orri_image_barrier(cmd, dst, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0);
}

static orr_result submit(orr_window *w, win_frame *f, uint32_t index) {
    orri_gpu *gpu = &w->engine->gpu;
    orr_result r = orri_vk_check(gpu, vkResetCommandBuffer(f->cmd, 0), "window command buffer");
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    if (r == ORR_OK) r = orri_vk_check(gpu, vkBeginCommandBuffer(f->cmd, &bi), "window command buffer");
    if (r != ORR_OK) return r;
    orri_cmd_label_begin(gpu, f->cmd, w->label);
    record_blit(w, f->cmd, w->images[index]);
    orri_cmd_label_end(gpu, f->cmd);
    r = orri_vk_check(gpu, vkEndCommandBuffer(f->cmd), "window command buffer");
    if (r != ORR_OK) return r;
    VkSubmitInfo2 si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = 1,
        .pWaitSemaphoreInfos = &(VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                                        .semaphore = f->acquired,
                                                        .stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT},
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &(VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                            .commandBuffer = f->cmd},
        .signalSemaphoreInfoCount = 1,
        .pSignalSemaphoreInfos = &(VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                                          .semaphore = w->blitted[index],
                                                          .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT},
    };
    r = orri_vk_check(gpu, vkQueueSubmit2(gpu->queue, 1, &si, f->fence), "window vkQueueSubmit2");
    if (r != ORR_OK) return r;
    f->submitted = true;
    w->engine->final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    return ORR_OK;
}

orr_result orr_window_present(orr_window *w) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_window_present: window is NULL");
        return ORR_ERROR_INVALID_HANDLE;
    }
    orr_engine *e = w->engine;
    if (e->gpu.device_lost) return orri_fail(ctx_of(w), ORR_ERROR_DEVICE_LOST, "the device was lost earlier");
    if (!e->frame_valid)
        return orri_fail(ctx_of(w), ORR_ERROR_INVALID_ARGUMENT, "orr_window_present: nothing rendered yet");
    win_frame *f = &w->frames[w->frame];
    orr_result r = wait_frame(w, f);
    uint32_t index = UINT32_MAX;
    if (r == ORR_OK) r = acquire(w, f, &index);
    if (r != ORR_OK || index == UINT32_MAX) return r;
    r = submit(w, f, index);
    if (r != ORR_OK) return r;
    w->frame = (w->frame + 1) % WIN_FRAMES;
    VkPresentInfoKHR pi = {
        .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &w->blitted[index],
        .swapchainCount = 1,
        .pSwapchains = &w->swapchain,
        .pImageIndices = &index,
    };
    VkResult vr = vkQueuePresentKHR(e->gpu.queue, &pi);
    if (vr == VK_ERROR_OUT_OF_DATE_KHR || vr == VK_SUBOPTIMAL_KHR) {
        w->stale = true;
        return ORR_OK;
    }
    return orri_vk_check(&e->gpu, vr, "vkQueuePresentKHR");
}
