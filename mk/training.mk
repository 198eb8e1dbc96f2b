# Chapter 13's training, outside `make test`:
#   make check-training  repeats the chapter's first 20 training steps in
#                        PyTorch from the --dump files (claim G1)
#   make bench-train     times a training step of the baby-GPT model in C and
#                        in PyTorch, into $(BUILD)/bench-train.csv
# Both find python3 with numpy and torch as check-framework does
# (find_torch_python in mk/framework.mk) and say SKIPPED without one.

TRAINING_DIR   := $(BUILD)/training
BENCH_TRAIN    := $(BUILD)/bench-train
TRAIN_THREADS  ?= 2
TRAIN_STEPS    ?= 10
# the baby-GPT sizes: layers, heads, width, context, batch
TRAIN_SIZES    := 4 4 128 64 12

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

bench-train: deps-auto $(BENCH_TRAIN) ## time a training step of the baby GPT in C and PyTorch: bench-train.csv in the build directory
	$(Q)set -- $(TRAIN_SIZES); \
	echo "impl,dtype,threads,layers,dim,heads,context,batch,ms_forward,ms_backward,ms_optimiser,ms_step,tokens_per_s,peak_mb,cpu_ms_step" > $(BUILD)/bench-train.csv; \
	$(BENCH_TRAIN) --no-plot --dump $(BUILD) --layers $$1 --heads $$2 --dim $$3 --context $$4 \
	    --batch $$5 --steps $(TRAIN_STEPS) --threads $(TRAIN_THREADS) || exit 1; \
	$(find_torch_python); \
	if [ -z "$$py" ]; then \
	    echo "bench-train: PyTorch SKIPPED: no python3 with numpy and torch"; \
	else \
	    "$$py" scripts/check_training.py --bench $(BUILD)/bench-train.csv $$1 $$2 $$3 $$4 $$5 \
	        $(TRAIN_STEPS) $(TRAIN_THREADS) || exit 1; \
	    awk -F, '$$1 == "C" { c = $$12; cc = $$15 } $$1 ~ /^pytorch/ { printf "C / PyTorch (%s): %.2f times the wall time, %.2f times the CPU time per step\n", $$2, c / $$12, cc / $$15 }' \
	        $(BUILD)/bench-train.csv; \
	fi; \
	echo "CSV in $(BUILD)/bench-train.csv"

# make test: the training benchmark builds with -Werror and runs on a tiny model.
bench-train-smoke: $(BENCH_TRAIN)
	$(Q)$(BENCH_TRAIN) --quiet --no-plot --layers 1 --heads 2 --dim 16 --context 8 --batch 2 --steps 2
	@echo "bench-train: smoke run on a tiny model passed"

.PHONY: check-training bench-train bench-train-smoke
