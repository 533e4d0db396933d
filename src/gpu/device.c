/* device.c — Vulkan instance, validation messenger, device choice, queue.
 *
 * Device preference: discrete > integrated > virtual > CPU, unless a name or
 * index is given (desc or ORR_DEVICE). Requires Vulkan 1.3 with
 * dynamicRendering and synchronization2, and a queue with graphics + compute.
 *
 * One VkInstance per process and configuration (validation or not), shared by
 * every engine and kept until the process ends: NVIDIA's driver (580 on an
 * H200) refuses the 31st vkCreateInstance of a process with
 * VK_ERROR_INCOMPATIBLE_DRIVER even when each earlier instance was destroyed,
 * so an application that recreates its engine (a level reload, a test suite)
 * would lose the GPU. Devices, messengers and everything below stay per
 * engine. docs/decisions.md has the measurements.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_int.h"

static const char *VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";

orr_result orri_vk_check(orri_gpu *gpu, VkResult r, const char *what) {
    if (r == VK_SUCCESS) return ORR_OK;
    switch (r) {
    case VK_ERROR_DEVICE_LOST:
        gpu->device_lost = true;
        return orri_fail(gpu->ctx, ORR_ERROR_DEVICE_LOST, "%s: device lost", what);
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", what);
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_DEVICE_MEMORY, "%s: out of device memory", what);
    default: return orri_fail(gpu->ctx, ORR_ERROR_VULKAN, "%s: VkResult %d", what, (int)r);
    }
}

static VKAPI_ATTR VkBool32 VKAPI_CALL debug_cb(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                               VkDebugUtilsMessageTypeFlagsEXT type,
                                               const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
    orri_gpu *gpu = user;
    if (!(sev & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)))
        return VK_FALSE;
    if (!(type & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)))
        return VK_FALSE;
    /* Performance hints are not errors; only validation counts. */
    if (!(type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT)) return VK_FALSE;
    gpu->validation_messages++;
    orri_log_id(gpu->ctx, ORR_LOG_ERROR, ORR_MSG_VALIDATION, "validation: %s", data->pMessage);
    if (gpu->on_validation) gpu->on_validation(data->pMessage, gpu->validation_user);
    return VK_FALSE;
}

static bool has_layer(const char *name) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties props[64];
    if (n > 64) n = 64;
    vkEnumerateInstanceLayerProperties(&n, props);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(props[i].layerName, name) == 0) return true;
    return false;
}

static bool has_instance_ext(const char *name) {
    uint32_t n = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &n, NULL);
    VkExtensionProperties props[256];
    if (n > 256) n = 256;
    vkEnumerateInstanceExtensionProperties(NULL, &n, props);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(props[i].extensionName, name) == 0) return true;
    return false;
}

static const VkDebugUtilsMessengerCreateInfoEXT *messenger_info(orri_gpu *gpu, VkDebugUtilsMessengerCreateInfoEXT *ci) {
    *ci = (VkDebugUtilsMessengerCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
        .pfnUserCallback = debug_cb,
        .pUserData = gpu,
    };
    return ci;
}

/* The process-wide instances, one per configuration: [0] without validation,
 * [1] with it requested (it may still lack the layer; .validation says). */
typedef struct {
    VkInstance instance;
    bool debug_utils;
    bool validation;
    uint32_t users;
} shared_instance;
static shared_instance shared_instances[2];
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

static VkResult make_instance(orri_gpu *gpu, const orri_gpu_desc *desc, shared_instance *si) {
    const char *exts[8];
    uint32_t ext_count = 0;
    si->debug_utils = has_instance_ext(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (si->debug_utils) exts[ext_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
#ifdef ORR_HAVE_GLFW
    /* Surface extensions for the optional window (src/window), enabled here
     * because the instance exists before any window; harmless when unused.
     * Both X11 ones when offered: GLFW asks for xcb when libX11-xcb loads and
     * for xlib otherwise, and it is not initialised yet to ask (that would
     * need a display). Not Wayland: Debian's GLFW 3.3 is X11 only, and with
     * VK_KHR_wayland_surface Mesa prints XDG_RUNTIME_DIR errors headless.
     * window_glfw.c's SURFACE_EXTS lists the same names. */
    static const char *const surface_exts[] = {"VK_KHR_surface", "VK_KHR_xcb_surface", "VK_KHR_xlib_surface"};
    if (has_instance_ext(surface_exts[0]))
        for (size_t i = 0; i < sizeof surface_exts / sizeof *surface_exts; i++)
            if (has_instance_ext(surface_exts[i])) exts[ext_count++] = surface_exts[i];
#endif
    si->validation = desc->validation && has_layer(VALIDATION_LAYER);
    /* The chained messenger reports what vkCreateInstance itself finds to the
     * engine creating it (the spec uses it only inside vkCreateInstance and
     * vkDestroyInstance, and a shared instance is never destroyed). */
    VkDebugUtilsMessengerCreateInfoEXT mci;
    VkInstanceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = (si->validation && si->debug_utils) ? messenger_info(gpu, &mci) : NULL,
        .pApplicationInfo =
            &(VkApplicationInfo){
                .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                .pApplicationName = "orrery",
                .pEngineName = "orrery",
                .apiVersion = VK_API_VERSION_1_3,
            },
        .enabledLayerCount = si->validation ? 1 : 0,
        .ppEnabledLayerNames = &VALIDATION_LAYER,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    return vkCreateInstance(&ci, NULL, &si->instance);
}

/* Takes a reference on the configuration's shared instance, creating it on
 * first use. A failed creation is not kept: the next engine tries again. */
static VkResult acquire_instance(orri_gpu *gpu, const orri_gpu_desc *desc) {
    pthread_mutex_lock(&shared_lock);
    shared_instance *si = &shared_instances[desc->validation ? 1 : 0];
    VkResult r = VK_SUCCESS;
    if (!si->instance) {
        r = make_instance(gpu, desc, si);
        if (r != VK_SUCCESS) si->instance = VK_NULL_HANDLE;
    }
    if (r == VK_SUCCESS) {
        si->users++;
        gpu->instance = si->instance;
        gpu->debug_utils = si->debug_utils;
        gpu->validation = si->validation;
    }
    pthread_mutex_unlock(&shared_lock);
    return r;
}

static void release_instance(orri_gpu *gpu) {
    pthread_mutex_lock(&shared_lock);
    for (size_t i = 0; i < sizeof shared_instances / sizeof *shared_instances; i++)
        if (shared_instances[i].instance == gpu->instance && shared_instances[i].users) shared_instances[i].users--;
    pthread_mutex_unlock(&shared_lock);
    gpu->instance = VK_NULL_HANDLE;
}

uint32_t orri_gpu_instance_users(void) {
    pthread_mutex_lock(&shared_lock);
    uint32_t n = shared_instances[0].users + shared_instances[1].users;
    pthread_mutex_unlock(&shared_lock);
    return n;
}

static orr_result create_instance(orri_gpu *gpu, const orri_gpu_desc *desc) {
    VkResult r = acquire_instance(gpu, desc);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return orri_fail(gpu->ctx, ORR_ERROR_NO_DEVICE, "no Vulkan 1.3 driver found (install mesa-vulkan-drivers)");
    if (r != VK_SUCCESS) return orri_vk_check(gpu, r, "vkCreateInstance");
    if (desc->validation && !gpu->validation)
        orri_log(gpu->ctx, ORR_LOG_WARNING, "validation requested but %s is not installed", VALIDATION_LAYER);
    /* Each engine's own messenger: messages about its objects reach it. On a
     * shared instance every live engine's messenger sees every message of
     * that instance, so with two engines alive at once a validation error
     * counts in both (docs/decisions.md). */
    if (gpu->validation && gpu->debug_utils) {
        VkDebugUtilsMessengerCreateInfoEXT mci;
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(gpu->instance, "vkCreateDebugUtilsMessengerEXT");
        if (create) create(gpu->instance, messenger_info(gpu, &mci), NULL, &gpu->messenger);
    }
    if (gpu->debug_utils) {
        gpu->set_name =
            (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(gpu->instance, "vkSetDebugUtilsObjectNameEXT");
        gpu->begin_label =
            (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(gpu->instance, "vkCmdBeginDebugUtilsLabelEXT");
        gpu->end_label =
            (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(gpu->instance, "vkCmdEndDebugUtilsLabelEXT");
    }
    return ORR_OK;
}

static int type_rank(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
    }
}

/* Queue family with graphics + compute, or UINT32_MAX. */
static uint32_t find_queue(VkPhysicalDevice pd) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties q[32];
    if (n > 32) n = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
    for (uint32_t i = 0; i < n; i++)
        if ((q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) return i;
    return UINT32_MAX;
}

static bool suitable(VkPhysicalDevice pd) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pd, &p);
    if (p.apiVersion < VK_API_VERSION_1_3) return false;
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    vkGetPhysicalDeviceFeatures2(pd, &f);
    return f13.dynamicRendering && f13.synchronization2 && f13.maintenance4 && find_queue(pd) != UINT32_MAX;
}

static orr_result pick_device(orri_gpu *gpu, const char *want) {
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(gpu->instance, &n, NULL);
    VkPhysicalDevice pds[16];
    if (n > 16) n = 16;
    vkEnumeratePhysicalDevices(gpu->instance, &n, pds);
    int best = -1, best_rank = -1;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (!suitable(pds[i])) continue;
        if (want && *want) {
            char *end;
            long idx = strtol(want, &end, 10);
            bool match = (*end == 0) ? (idx == (long)i) : (strstr(p.deviceName, want) != NULL);
            if (match) {
                best = (int)i;
                break;
            }
            continue;
        }
        int rank = type_rank(p.deviceType);
        if (rank > best_rank) best = (int)i, best_rank = rank;
    }
    if (best < 0) {
        /* Name what exists, so a wrong ORR_DEVICE / device_name is a one-look fix. */
        char list[640] = "";
        size_t len = 0;
        for (uint32_t i = 0; i < n && len < sizeof list; i++) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(pds[i], &p);
            int w = snprintf(list + len, sizeof list - len, "%s%u: %s%s", i ? "; " : "", i, p.deviceName,
                             suitable(pds[i]) ? "" : " (unsuitable: no Vulkan 1.3 with what Orrery needs)");
            if (w > 0) len += (size_t)w;
        }
        return orri_fail(gpu->ctx, ORR_ERROR_NO_DEVICE,
                         "no Vulkan 1.3 device with dynamic rendering and synchronization2%s%s%s; devices: %s",
                         want && *want ? " matching '" : "", want && *want ? want : "", want && *want ? "'" : "",
                         n ? list : "none");
    }
    gpu->physical = pds[best];
    vkGetPhysicalDeviceProperties(gpu->physical, &gpu->props);
    vkGetPhysicalDeviceMemoryProperties(gpu->physical, &gpu->mem_props);
    gpu->queue_family = find_queue(gpu->physical);
    return ORR_OK;
}

static orr_result create_device(orri_gpu *gpu) {
    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(gpu->physical, &supported);
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .dynamicRendering = VK_TRUE,
        .synchronization2 = VK_TRUE,
        .maintenance4 = VK_TRUE, /* glslc's vulkan1.3 compute shaders use LocalSizeId */
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &f13,
        .timelineSemaphore = VK_TRUE,
    };
    VkPhysicalDeviceVulkan11Features f11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .pNext = &f12,
        .shaderDrawParameters = VK_TRUE, /* the standard shaders read gl_DrawID (record.c's multi-draw runs) */
    };
    VkPhysicalDeviceFeatures2 f = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &f11,
        .features =
            {
                .samplerAnisotropy = supported.samplerAnisotropy,
                .multiDrawIndirect = supported.multiDrawIndirect,
                .drawIndirectFirstInstance = supported.drawIndirectFirstInstance,
                .fillModeNonSolid = supported.fillModeNonSolid,
                .shaderFloat64 = supported.shaderFloat64,
            },
    };
    const char *knob = getenv("ORR_MULTIDRAW"); /* "0": one indirect draw per mesh (comparisons) */
    gpu->first_instance = supported.drawIndirectFirstInstance;
    gpu->multi_draw = supported.multiDrawIndirect && !(knob && strcmp(knob, "0") == 0);
    const char *arena = getenv("ORR_GEOMETRY_ARENA"); /* "0": every geometry in its own buffers (comparisons) */
    gpu->geometry_arena = !(arena && strcmp(arena, "0") == 0);
    const char *buckets = getenv("ORR_LOD_BUCKETS"); /* "full" or "shared" (comparisons, tests) */
    gpu->lod_buckets = !buckets ? 0 : strcmp(buckets, "full") == 0 ? 1 : strcmp(buckets, "shared") == 0 ? 2 : 0;
    const char *exts[1];
    uint32_t ext_count = 0;
#ifdef ORR_HAVE_GLFW
    exts[ext_count++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(gpu->physical, NULL, &n, NULL);
    VkExtensionProperties props[512];
    if (n > 512) n = 512;
    vkEnumerateDeviceExtensionProperties(gpu->physical, NULL, &n, props);
    bool has_swapchain = false;
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(props[i].extensionName, VK_KHR_SWAPCHAIN_EXTENSION_NAME) == 0) has_swapchain = true;
    if (!has_swapchain) ext_count = 0;
#endif
    VkDeviceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos =
            &(VkDeviceQueueCreateInfo){
                .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                .queueFamilyIndex = gpu->queue_family,
                .queueCount = 1,
                .pQueuePriorities = &(float){1.0f},
            },
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    orr_result r = orri_vk_check(gpu, vkCreateDevice(gpu->physical, &ci, NULL, &gpu->device), "vkCreateDevice");
    if (r != ORR_OK) return r;
    vkGetDeviceQueue(gpu->device, gpu->queue_family, 0, &gpu->queue);
    VkPipelineCacheCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    r = orri_vk_check(gpu, vkCreatePipelineCache(gpu->device, &pci, NULL, &gpu->pipeline_cache), "pipeline cache");
    if (r == ORR_OK)
        orri_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE_CACHE, (uint64_t)gpu->pipeline_cache, "orrery pipeline cache");
    return r;
}

static orr_result create_frames(orri_gpu *gpu) {
    for (uint32_t i = 0; i < gpu->frame_count; i++) {
        orri_frame *f = &gpu->frames[i];
        VkCommandPoolCreateInfo pci = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
            .queueFamilyIndex = gpu->queue_family,
        };
        orr_result r = orri_vk_check(gpu, vkCreateCommandPool(gpu->device, &pci, NULL, &f->cmd_pool), "command pool");
        if (r != ORR_OK) return r;
        VkCommandBufferAllocateInfo ai = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = f->cmd_pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        r = orri_vk_check(gpu, vkAllocateCommandBuffers(gpu->device, &ai, &f->cmd), "command buffer");
        if (r != ORR_OK) return r;
        VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        r = orri_vk_check(gpu, vkCreateFence(gpu->device, &fci, NULL, &f->fence), "fence");
        if (r != ORR_OK) return r;
        orri_gpu_name(gpu, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)f->cmd_pool, "frame %u pool", i);
        orri_gpu_name(gpu, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)f->cmd, "frame %u primary", i);
        orri_gpu_name(gpu, VK_OBJECT_TYPE_FENCE, (uint64_t)f->fence, "frame %u fence", i);
        r = orri_buffer_create(gpu, 4u << 20, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               ORRI_MEM_HOST, "staging", &f->staging); /* storage: the instance scatter reads it */
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

orr_result orri_gpu_init(orri_gpu *gpu, orri_ctx *ctx, const orri_gpu_desc *desc) {
    memset(gpu, 0, sizeof *gpu);
    gpu->ctx = ctx;
    gpu->on_validation = desc->on_validation;
    gpu->validation_user = desc->validation_user;
    gpu->frame_count = desc->frames_in_flight ? desc->frames_in_flight : 2;
    gpu->inject_oom_after = -1;
    if (gpu->frame_count > ORRI_MAX_FRAMES) gpu->frame_count = ORRI_MAX_FRAMES;
    orr_result r = create_instance(gpu, desc);
    if (r == ORR_OK) r = pick_device(gpu, desc->device_name ? desc->device_name : getenv("ORR_DEVICE"));
    if (r == ORR_OK) r = create_device(gpu);
    if (r == ORR_OK) r = create_frames(gpu);
    if (r != ORR_OK) orri_gpu_deinit(gpu);
    return r;
}

void orri_gpu_deinit(orri_gpu *gpu) {
    if (gpu->device) {
        vkDeviceWaitIdle(gpu->device);
        for (uint32_t i = 0; i < gpu->frame_count; i++) {
            orri_frame *f = &gpu->frames[i];
            orri_delete_run(gpu, f);
            orri_free(&gpu->ctx->allocator, f->deletes);
            orri_buffer_destroy_now(gpu, &f->staging);
            if (f->timing) vkDestroyQueryPool(gpu->device, f->timing, NULL);
            if (f->fence) vkDestroyFence(gpu->device, f->fence, NULL);
            if (f->cmd_pool) vkDestroyCommandPool(gpu->device, f->cmd_pool, NULL);
        }
        orri_samplers_deinit(gpu);
        orri_mem_deinit(gpu);
        if (gpu->pipeline_cache) vkDestroyPipelineCache(gpu->device, gpu->pipeline_cache, NULL);
        vkDestroyDevice(gpu->device, NULL);
    }
    if (gpu->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            gpu->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy) destroy(gpu->instance, gpu->messenger, NULL);
    }
    if (gpu->instance) release_instance(gpu);
    orri_ctx *ctx = gpu->ctx;
    memset(gpu, 0, sizeof *gpu);
    gpu->ctx = ctx;
}

void orri_gpu_name(orri_gpu *gpu, VkObjectType type, uint64_t handle, const char *fmt, ...) {
    if (!gpu->set_name || !handle) return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    VkDebugUtilsObjectNameInfoEXT ni = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = buf,
    };
    gpu->set_name(gpu->device, &ni);
}

void orri_cmd_label_begin(orri_gpu *gpu, VkCommandBuffer cmd, const char *name) {
    if (!gpu->begin_label) return;
    VkDebugUtilsLabelEXT l = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = name};
    gpu->begin_label(cmd, &l);
}

void orri_cmd_label_end(orri_gpu *gpu, VkCommandBuffer cmd) {
    if (gpu->end_label) gpu->end_label(cmd);
}
