# Chapter 13's training, outside `make test`:
#   make check-training  repeats the chapter's first 20 training steps in
#                        PyTorch from the --dump files (claim G1)
#   make bench-train     times a training step of chapter 13's model (--full
#                        and quick sizes) in C float32, C float64 and PyTorch
#                        float32 eager, into $(BUILD)/bench-train.csv
# Both find python3 with numpy and torch as check-framework does
# (find_torch_python in mk/framework.mk) and say SKIPPED without one.

TRAINING_DIR   := $(BUILD)/training
# AdamW's float32 step vectorises only without errno on sqrtf and with a loop epilogue.
$(BUILD)/lib/learn/adamw.o: CFLAGS += -fno-math-errno -fvect-cost-model=cheap
BENCH_TRAIN    := $(BUILD)/bench-train
TRAIN_THREADS  ?= 2
TRAIN_STEPS    ?= 10
# chapter 13's --full sizes (the baby GPT) and its quick ones: layers, heads, width, context, batch
TRAIN_SIZES    := 4 4 128 64 12
TRAIN_QUICK    := 2 2 32 32 8

$(BENCH_TRAIN): $(BUILD)/bench/bench_train.o $(LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

check-training: $(BUILD)/ch13_language_model ## repeat chapter 13's first training steps in PyTorch (skips when torch is missing)
	$(Q)$(find_torch_python); \
	if [ -z "$$py" ]; then \
	    echo "check-training: SKIPPED: no python3 with numpy and torch (apt-get install python3-numpy python3-torch)"; \
	    exit 0; \
	fi; \
	rm -rf $(TRAINING_DIR) && \
	$(BUILD)/ch13_language_model --quiet --no-plot --dump $(TRAINING_DIR) && \
	"$$py" scripts/check_training.py $(TRAINING_DIR)

bench-train: deps-auto $(BENCH_TRAIN) ## time a training step of chapter 13's model: C float32, C float64, PyTorch float32 (bench-train.csv in the build directory)
	$(Q)csv=$(BUILD)/bench-train.csv; \
	echo "impl,dtype,threads,layers,dim,heads,context,batch,ms_forward,ms_backward,ms_optimiser,ms_step,tokens_per_s,peak_mb,gflops,peak_share,cpu_ms_step" > $$csv; \
	echo "bench-train: load before the run: $$(uptime | sed 's/.*load average: //')"; \
	$(find_torch_python); \
	[ -n "$$py" ] || echo "bench-train: PyTorch SKIPPED: no python3 with numpy and torch (FRAMEWORK_PYTHON=/path/to/python)"; \
	for sizes in "$(TRAIN_SIZES)" "$(TRAIN_QUICK)"; do \
	    set -- $$sizes; \
	    $(BENCH_TRAIN) --no-plot --dump $(BUILD) --layers $$1 --heads $$2 --dim $$3 --context $$4 \
	        --batch $$5 --steps $(TRAIN_STEPS) --threads $(TRAIN_THREADS) || exit 1; \
	    if [ -n "$$py" ]; then \
	        "$$py" scripts/check_training.py --bench $$csv $$1 $$2 $$3 $$4 $$5 $(TRAIN_STEPS) \
	            $(TRAIN_THREADS) || exit 1; \
	    fi; \
	done; \
	awk -F, 'NR > 1 { key = $$4 " " $$5 " " $$6 " " $$7 " " $$8; \
	    if ($$1 == "C") { c[key, $$2] = $$12; share[key, $$2] = $$16; cc[key, $$2] = $$17 } \
	    else { t[key] = $$12; tc[key] = $$17 } keys[key] = 1 } \
	    END { for (k in keys) { split(k, v, " "); \
	        printf "L %s, d %s, H %s, T %s, B %s: C float32 %.1f ms (%.0f%% of the FMA peak), C float64 %.1f ms", \
	            v[1], v[2], v[3], v[4], v[5], c[k, "float32"], 100 * share[k, "float32"], c[k, "float64"]; \
	        if (k in t) printf ", PyTorch float32 %.1f ms: C float32 takes %.3g of PyTorch'"'"'s time (%.3g of its CPU time)", \
	            t[k], c[k, "float32"] / t[k], cc[k, "float32"] / tc[k]; \
	        printf "\n" } }' $$csv; \
	echo "bench-train: load after the run: $$(uptime | sed 's/.*load average: //')"; \
	echo "CSV in $$csv"

# make test: the training benchmark builds with -Werror and runs on a tiny model.
bench-train-smoke: $(BENCH_TRAIN)
	$(Q)$(BENCH_TRAIN) --quiet --no-plot --layers 1 --heads 2 --dim 16 --context 8 --batch 2 --steps 5 \
	    --ablations
	@echo "bench-train: smoke run on a tiny model passed"

.PHONY: check-training bench-train bench-train-smoke
