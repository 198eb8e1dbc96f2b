# make bench: times the attention kernels (bench/bench.c) and writes
# $(BUILD)/bench.csv and the figures bench_time, bench_memory.
BENCH := $(BUILD)/bench-kernels

$(BENCH): $(BUILD)/bench/bench.o $(LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

bench: deps-auto $(BENCH) ## time the attention kernels for T = 256..4096: a table, bench.csv in the build directory, figures
	$(Q)$(BENCH) --dump $(BUILD) --plot-dir $(PLOT_DIR)
	@echo "table above; CSV in $(BUILD)/bench.csv; figures in $(PLOT_DIR)/bench_*"

$(BUILD)/bench.csv:
	$(Q)$(MAKE) --no-print-directory bench

bench-framework: ## add a framework's CPU attention (python3 + torch) to the bench table
	$(Q)$(find_torch_python); \
	if [ -n "$$py" ]; then \
	    $(MAKE) -s --no-print-directory $(BUILD)/bench.csv && \
	    "$$py" bench/framework.py $(BUILD)/bench.csv; \
	else \
	    echo "bench-framework: skipped (no python3 with numpy and torch; see make check-framework)"; \
	fi

# make test: the benchmark builds with -Werror and runs on tiny sizes.
bench-smoke: $(BENCH)
	@mkdir -p $(BUILD)/bench-smoke
	$(Q)$(BENCH) --quiet --no-plot --tmin 32 --tmax 128 --heads 2 --dh 16 --dump $(BUILD)/bench-smoke
	@echo "bench: smoke run on tiny sizes passed"

TEST_STEPS += bench-smoke
.PHONY: bench bench-framework bench-smoke
