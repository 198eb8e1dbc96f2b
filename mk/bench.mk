# make bench: times the attention kernels (bench/*.c: prefill, decode,
# sparse) against same-run yardsticks and writes $(BUILD)/bench.csv and the
# figures bench_time, bench_memory, bench_decode, bench_sparse.
BENCH := $(BUILD)/bench-kernels
# bench/bench_train.c is a program of its own (mk/training.mk)
BENCH_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(filter-out bench/bench_train.c,$(wildcard bench/*.c)))

$(BENCH): $(BENCH_OBJ) $(LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

bench: deps-auto $(BENCH) ## time attention (prefill, decode, sparse) against same-run yardsticks: tables, bench.csv, figures
	$(Q)$(BENCH) --dump $(BUILD) --plot-dir $(PLOT_DIR)
	@echo "table above; CSV in $(BUILD)/bench.csv; figures in $(PLOT_DIR)/bench_*"

bench-framework: ## time PyTorch's and ONNX Runtime's CPU attention beside ours, in one run (FRAMEWORK_PYTHON=...)
	$(Q)$(find_torch_python); \
	if [ -n "$$py" ]; then \
	    $(MAKE) -s --no-print-directory $(BENCH) && "$$py" bench/framework.py $(BENCH) $(BUILD); \
	else \
	    echo "bench-framework: skipped (no python3 with numpy and torch; see the README, Benchmarks)"; \
	fi

# make test: the benchmark builds with -Werror and runs on tiny sizes.
bench-smoke: $(BENCH)
	@mkdir -p $(BUILD)/bench-smoke
	$(Q)$(BENCH) --quiet --no-plot --tmin 32 --tmax 128 --heads 2 --dh 16 --decode-tmax 1024 \
	    --ledger-tokens 64 --sparse-t 256 --cold-mib 32 --rounds 1 --dump $(BUILD)/bench-smoke
	@echo "bench: smoke run on tiny sizes passed"

.PHONY: bench bench-framework bench-smoke
