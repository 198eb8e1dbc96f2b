# The library's layers, read from lib/layers.txt (the one place the graph is
# written; scripts/check-layers.sh reads it too). Files outside lib/ see every
# layer; a layer's own objects are compiled with -I for itself and the layers
# it may include only, so the compiler refuses any other include.
comma       := ,
# "learn: core runtime model" -> "learn:core,runtime,model", one word a layer
LAYER_GRAPH := $(shell sed -e 's/\#.*//' -e '/^[[:space:]]*$$/d' -e 's/:[[:space:]]*/:/' \
                   -e 's/[[:space:]]\{1,\}/,/g' -e 's/,$$//' lib/layers.txt)
LAYERS      := $(foreach e,$(LAYER_GRAPH),$(firstword $(subst :, ,$(e))))
# layer -> the -I flags of its folder and of the layers it may include
layer_includes = $(addprefix -Ilib/,$(1) $(subst $(comma), ,$(patsubst $(1):%,%,$(filter $(1):%,$(LAYER_GRAPH)))))
INCLUDES    := -Ilib $(addprefix -Ilib/,$(LAYERS))
$(foreach l,$(LAYERS),$(eval $$(BUILD)/lib/$(l)/%.o: INCLUDES := $(call layer_includes,$(l))))

# the includes follow the graph, and the near misses are refused by the
# check and by the compiler with each layer's flags
layers-check:
	$(Q)scripts/check-layers.sh
	$(Q)scripts/check-layers.sh --controls "$(CC) -std=gnu11" \
	    $(foreach l,$(LAYERS),"$(l)=$(call layer_includes,$(l))")

# issue 11's measure of the chapters' allocation ceremony: at most 8% of
# their code lines (scripts/ceremony.sh exits 1 above it), and its control
ceremony-check:
	$(Q)scripts/ceremony.sh --total
	$(Q)scripts/ceremony.sh --control

.PHONY: layers-check ceremony-check
