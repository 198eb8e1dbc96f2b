# `make check-framework`: chapter 10's block against PyTorch (claim T1).
# Runs the chapter with --dump into $(BUILD)/framework and recomputes the
# block from those files with scripts/check_framework.py. Needs a python3
# that can import numpy and torch (Debian: apt-get install python3-numpy
# python3-torch, which installs for /usr/bin/python3); without one it says
# that it skipped and succeeds. Not part of `make test`.

FRAMEWORK_DIR    := $(BUILD)/framework
FRAMEWORK_PYTHON ?= /usr/bin/python3 python3

# Shell code that sets $py to the first interpreter of FRAMEWORK_PYTHON that
# can import numpy and torch, or to nothing (also used by bench-framework).
find_torch_python = py=; for c in $(FRAMEWORK_PYTHON); do \
	    if command -v "$$c" >/dev/null 2>&1 && "$$c" -c 'import numpy, torch' 2>/dev/null; then py=$$c; break; fi; \
	done

check-framework: $(BUILD)/ch10_transformer ## compare chapter 10's block with PyTorch (skips when torch is missing)
	$(Q)$(find_torch_python); \
	if [ -z "$$py" ]; then \
	    echo "check-framework: SKIPPED: no python3 with numpy and torch (apt-get install python3-numpy python3-torch)"; \
	    exit 0; \
	fi; \
	rm -rf $(FRAMEWORK_DIR) && \
	$(BUILD)/ch10_transformer --quiet --no-plot --dump $(FRAMEWORK_DIR) && \
	"$$py" scripts/check_framework.py $(FRAMEWORK_DIR)

.PHONY: check-framework
