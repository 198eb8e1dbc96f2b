# `make test` checks that the library's includes point down its layers
# (scripts/check-layers.sh), and that the check can fail: a copy of one
# layer pair with a core file that includes a model header must be refused.
layers-check:
	$(Q)scripts/check-layers.sh
	$(Q)t=$$(mktemp -d) && mkdir -p $$t/lib && cp -r lib/core lib/runtime lib/model lib/learn lib/kernels $$t/lib/ && \
	    echo '#include "heads.h"' >> $$t/lib/core/mat.c && \
	    if scripts/check-layers.sh $$t/lib 2>/dev/null; then \
	        echo "layers: the check passed a core file that includes a model header" >&2; rm -rf $$t; exit 1; \
	    else rm -rf $$t; echo "layers: control (core includes a model header) refused as it should"; fi

TEST_STEPS := layers-check $(TEST_STEPS)
.PHONY: layers-check

# issue 11's measure of the chapters' allocation ceremony: at most 8% of
# their code lines (scripts/ceremony.sh exits 1 above it)
ceremony-check:
	$(Q)scripts/ceremony.sh | tail -n 1

TEST_STEPS := ceremony-check $(TEST_STEPS)
.PHONY: ceremony-check
