# Attention kernels (lib/kernels/attn_kernels.h): flags for their objects only.
# The vector code is always inlined, so GCC's note about the AVX vector
# calling convention (-Wpsabi) does not apply to it.
KERNEL_VEC_OBJ := $(addprefix $(BUILD)/lib/kernels/,vexp.o kernel_blas.o kernel_tiled.o)
$(KERNEL_VEC_OBJ): CFLAGS += -Wno-psabi
$(BUILD)/tests/test_kernels.o: CFLAGS += -Wno-psabi
