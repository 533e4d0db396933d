/* pipeline.c — the Vulkan toolkit for passes (gpu_int.h): modules, layouts,
 * compute pipelines and the one graphics-pipeline builder.
 *
 * Invariant: what every graphics pipeline shares (dynamic rendering, dynamic
 * viewport and scissor, reverse-Z depth test, triangle lists, one colour
 * attachment) is decided here and nowhere else; a pass describes only how it
 * differs. */
#include "gpu/gpu_int.h"

orr_result orri_shader_module(orri_gpu *gpu, const uint32_t *code, size_t size, const char *label,
                              VkShaderModule *out) {
    VkShaderModuleCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    orr_result r = orri_vk_check(gpu, vkCreateShaderModule(gpu->device, &ci, NULL, out), "vkCreateShaderModule");
    if (r == ORR_OK) orri_gpu_name(gpu, VK_OBJECT_TYPE_SHADER_MODULE, (uint64_t)*out, "%s", label);
    return r;
}

orr_result orri_set_layout(orri_gpu *gpu, const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
                           const char *label, VkDescriptorSetLayout *out) {
    VkDescriptorSetLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = count, .pBindings = bindings};
    orr_result r =
        orri_vk_check(gpu, vkCreateDescriptorSetLayout(gpu->device, &ci, NULL, out), "descriptor set layout");
    if (r == ORR_OK) orri_gpu_name(gpu, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)*out, "%s", label);
    return r;
}

orr_result orri_pipeline_layout(orri_gpu *gpu, const VkDescriptorSetLayout *sets, uint32_t count,
                                const VkPushConstantRange *push, const char *label, VkPipelineLayout *out) {
    VkPipelineLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = count,
                                     .pSetLayouts = sets,
                                     .pushConstantRangeCount = push ? 1 : 0,
                                     .pPushConstantRanges = push};
    orr_result r = orri_vk_check(gpu, vkCreatePipelineLayout(gpu->device, &ci, NULL, out), "pipeline layout");
    if (r == ORR_OK) orri_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)*out, "%s", label);
    return r;
}

orr_result orri_compute_pipeline(orri_gpu *gpu, VkPipelineLayout layout, const uint32_t *code, size_t size,
                                 const char *label, VkPipeline *out) {
    VkShaderModule mod = VK_NULL_HANDLE;
    orr_result r = orri_shader_module(gpu, code, size, label, &mod);
    if (r == ORR_OK) {
        VkComputePipelineCreateInfo ci = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                      .module = mod,
                      .pName = "main"},
            .layout = layout,
        };
        r = orri_vk_check(gpu, vkCreateComputePipelines(gpu->device, gpu->pipeline_cache, 1, &ci, NULL, out),
                          "compute pipeline");
        if (r == ORR_OK) orri_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE, (uint64_t)*out, "%s", label);
    }
    if (mod) vkDestroyShaderModule(gpu->device, mod, NULL);
    return r;
}

static VkPipelineColorBlendAttachmentState blend_state(orri_blend b) {
    VkPipelineColorBlendAttachmentState s = {.colorWriteMask = 0xf};
    if (b == ORRI_BLEND_NONE) return s;
    s.blendEnable = VK_TRUE;
    s.colorBlendOp = s.alphaBlendOp = VK_BLEND_OP_ADD;
    s.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    s.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    if (b == ORRI_BLEND_ALPHA) {
        s.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        s.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    } else {
        s.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
        s.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    }
    return s;
}

orr_result orri_graphics_pipeline(orri_gpu *gpu, const orri_graphics_desc *d, VkPipeline *out) {
    VkPipelineShaderStageCreateInfo stages[] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = d->vert,
         .pName = "main",
         .pSpecializationInfo = d->vert_spec},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = d->frag,
         .pName = "main",
         .pSpecializationInfo = d->frag_spec},
    };
    VkPipelineColorBlendAttachmentState blend = blend_state(d->blend);
    if (d->no_color_write) blend.colorWriteMask = 0;
    VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_FRONT_FACE};
    VkGraphicsPipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext =
            &(VkPipelineRenderingCreateInfo){
                .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                .colorAttachmentCount = 1,
                .pColorAttachmentFormats = &d->target.color,
                .depthAttachmentFormat = d->target.depth,
            },
        .stageCount = 2,
        .pStages = stages,
        .pVertexInputState =
            &(VkPipelineVertexInputStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                                    .vertexBindingDescriptionCount = d->binding_count,
                                                    .pVertexBindingDescriptions = d->bindings,
                                                    .vertexAttributeDescriptionCount = d->attribute_count,
                                                    .pVertexAttributeDescriptions = d->attributes},
        .pInputAssemblyState =
            &(VkPipelineInputAssemblyStateCreateInfo){.sType =
                                                          VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                      .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST},
        .pViewportState =
            &(VkPipelineViewportStateCreateInfo){
                .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, .viewportCount = 1, .scissorCount = 1},
        .pRasterizationState = &(
            VkPipelineRasterizationStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                    .polygonMode = VK_POLYGON_MODE_FILL,
                                                    .cullMode = d->cull,
                                                    .frontFace = d->front_face,
                                                    .lineWidth = 1.0f},
        .pMultisampleState =
            &(VkPipelineMultisampleStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                    .rasterizationSamples = d->target.samples},
        .pDepthStencilState = &(
            VkPipelineDepthStencilStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                                                   .depthTestEnable = VK_TRUE,
                                                   .depthWriteEnable = !d->no_depth_write,
                                                   .depthCompareOp = VK_COMPARE_OP_GREATER_OR_EQUAL},
        .pColorBlendState =
            &(VkPipelineColorBlendStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                   .attachmentCount = 1,
                                                   .pAttachments = &blend},
        .pDynamicState =
            &(VkPipelineDynamicStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                                .dynamicStateCount = d->dynamic_front_face ? 3 : 2,
                                                .pDynamicStates = dyn},
        .layout = d->layout,
    };
    orr_result r = orri_vk_check(gpu, vkCreateGraphicsPipelines(gpu->device, gpu->pipeline_cache, 1, &ci, NULL, out),
                                 "vkCreateGraphicsPipelines");
    if (r == ORR_OK) orri_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE, (uint64_t)*out, "%s", d->label);
    return r;
}
