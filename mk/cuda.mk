# Optional CUDA kernels (lib/kernels/cuda/) and their tests (tests/cuda/), built only
# where nvcc exists; on a machine without a GPU the tests skip with a message.
ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
endif
CUDA_HOME   := $(patsubst %/bin/nvcc,%,$(NVCC))
CUDA_OBJ    := $(BUILD)/cuda/attn_cuda.o
CUDA_TEST   := $(BUILD)/cuda/test-cuda
CUDA_LDLIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lstdc++

$(CUDA_OBJ): lib/kernels/cuda/attn_cuda.cu lib/kernels/cuda/attn_cuda.h lib/kernels/attn_kernels.h | deps-auto
	$(call say,NVCC,$<)
	@mkdir -p $(@D)
	$(Q)$(NVCC) -O2 $(call layer_includes,kernels) -Ilib/kernels/cuda -Xcompiler -Wall,-Wextra,-Werror -c $< -o $@

$(BUILD)/cuda/test_cuda.o: tests/cuda/test_cuda.c | deps-auto
	$(call say,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -Ilib/kernels/cuda $(CFLAGS) -c $< -o $@

$(CUDA_TEST): $(BUILD)/cuda/test_cuda.o $(CUDA_OBJ) $(LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -lcriterion $(LDLIBS) $(CUDA_LDLIBS) -o $@

cuda-tests: $(if $(NVCC),$(CUDA_TEST)) ## build the CUDA kernels (where nvcc exists) and compare them with the CPU on a GPU
ifneq ($(NVCC),)
	$(Q)$(CUDA_TEST) --verbose=1
else
	@echo "cuda-tests: nvcc not found: CUDA kernels not built, their tests skipped"
endif

.PHONY: cuda-tests
