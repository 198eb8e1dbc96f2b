# Attention kernels (lib/kernels/): flags for their objects only.
# Each vector path is one file built with its own instruction set; the
# library picks one at run time (lib/kernels/simd.h), so the rest of the
# project stays buildable and runnable on any x86-64 or other CPU.
ifneq ($(filter x86_64 i%86 amd64,$(shell uname -m)),)
$(BUILD)/lib/kernels/vec_avx512.o: CFLAGS += -mavx512f -mavx512bw -mavx512dq -mavx512vl -mfma
$(BUILD)/lib/kernels/vec_avx2.o: CFLAGS += -mavx2 -mfma
endif
# The vector code is always inlined, so GCC's note about the vector calling
# convention (-Wpsabi) does not apply to it.
KERNEL_VEC_OBJ := $(addprefix $(BUILD)/lib/kernels/,vexp.o additive32.o kernel_blas.o vec_avx512.o vec_avx2.o vec_portable.o)
$(KERNEL_VEC_OBJ): CFLAGS += -Wno-psabi
$(BUILD)/tests/test_kernels.o: CFLAGS += -Wno-psabi
