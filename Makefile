# Inventing the Transformer, in C: every entry point. `make help` lists them.
.DEFAULT_GOAL := all
.SUFFIXES:

BUILD    ?= build
PLOT_DIR ?= plots/out
Q        := $(if $(V),,@)
say       = $(if $(V),,@printf '  %-7s %s\n' $(1) $(2);)

CC       ?= cc
OPT      ?= -O2 -g
SAN      ?=
SAN_ON   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
SANFLAGS := $(if $(SAN),$(SAN_ON))
CPPFLAGS += $(INCLUDES) -DINVENT_PLOTS_DIR='"$(CURDIR)/plots"' -DINVENT_PLOT_OUT='"$(PLOT_DIR)"' \
            -DINVENT_RESULTS_DIR='"$(CURDIR)/results"'
CFLAGS   += -std=gnu11 $(OPT) -Wall -Wextra -Werror -MMD -MP $(SANFLAGS)
LDFLAGS  += $(SANFLAGS)
LDLIBS   := -lgsl -lopenblas -lm

# LAYERS and INCLUDES: each layer of lib/ sees only the layers it may include
include mk/layers.mk

LIB_SRC      := $(foreach l,$(LAYERS),$(wildcard lib/$(l)/*.c))
LIB          := $(BUILD)/libinvent.a
CHAPTER_SRC  := $(sort $(wildcard chapters/ch[0-9][0-9]_*.c))
CHAPTER_BINS := $(CHAPTER_SRC:chapters/%.c=$(BUILD)/%)
UNIT_SRC     := $(wildcard tests/*.c)
UNIT         := $(BUILD)/unit-tests

# The steps of `make test`, in order: mk/test-steps.txt, the one list
TEST_STEPS := $(shell sed -n 's/^\([a-z][a-z0-9-]*\)[[:space:]].*/\1/p' mk/test-steps.txt)

-include $(filter-out mk/layers.mk,$(wildcard mk/*.mk))

# ---------------------------------------------------------------- entry points

all: deps-auto chapters ## install what is missing, build, run every chapter with narration and figures, print the claims table
	$(Q)BUILD=$(BUILD) scripts/run-chapters.sh narrate $(PLOT_DIR) $(CHAPTER_BINS)

verify: deps-auto chapters ## run every chapter in check mode and print the claims table
	$(Q)BUILD=$(BUILD) scripts/run-chapters.sh verify $(PLOT_DIR) $(CHAPTER_BINS)

plots: deps-auto chapters ## render every figure into plots/out (PDF, SVG, PNG)
	$(Q)BUILD=$(BUILD) scripts/run-chapters.sh plots $(PLOT_DIR) $(CHAPTER_BINS)
	@echo "figures in $(PLOT_DIR)/"

test: deps-auto deps-browser-auto ## build with -Werror and run the steps listed below, in order; stop at the first that fails
	$(Q)n=0; for s in $(TEST_STEPS); do n=$$((n + 1)); \
	    echo "== make test, step $$n of $(words $(TEST_STEPS)): $$s"; \
	    $(MAKE) --no-print-directory SKIP_DEPS=1 $$s || exit 1; \
	done

deps: ## install the Debian packages the project needs (root or sudo)
	$(Q)scripts/deps.sh

clean: ## remove build outputs and rendered figures
	rm -rf $(BUILD) $(PLOT_DIR)

help: ## list the targets, and the steps of make test
	@echo "Targets (flags for one chapter: make chapterN ARGS=\"--seed 3 --quiet\"):"
	@grep -hE '^[a-zA-Z0-9%_-]+:.*## ' $(MAKEFILE_LIST) | \
	    sed -E 's/^([^:]+):.*## (.*)/\1|\2/' | awk -F'|' '{printf "  %-18s %s\n", $$1, $$2}'
	@echo "  chapterN           build and run chapter N with its narration and figures"
	@echo "make test runs, in order (mk/test-steps.txt):"
	@sed -n 's/^\([a-z][a-z0-9-]*\)[[:space:]]*\(.*\)/\1|\2/p' mk/test-steps.txt | \
	    awk -F'|' '{printf "  %2d. %-18s %s\n", NR, $$1, $$2}'

# -------------------------------------------------------------------- chapters

chapters: $(CHAPTER_BINS) ## build every chapter

# chapters/ch04_interaction.c -> "4"
chapter_number = $(patsubst 0%,%,$(firstword $(subst _, ,$(patsubst ch%,%,$(notdir $(1))))))

define chapter_target
chapter$(call chapter_number,$(1)): deps-auto $(1)
	$$(Q)$(1) $$(ARGS)
.PHONY: chapter$(call chapter_number,$(1))
endef
$(foreach bin,$(CHAPTER_BINS),$(eval $(call chapter_target,$(bin))))

# ----------------------------------------------------------------------- build

$(BUILD)/%.o: %.c | deps-auto
	$(call say,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_SRC:%.c=$(BUILD)/%.o)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/ch%: $(BUILD)/chapters/ch%.o $(LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(UNIT): $(UNIT_SRC:%.c=$(BUILD)/%.o) $(LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -lcriterion $(LDLIBS) -o $@

# ------------------------------------------------------------------ test steps
# (the order of every step, wherever its target lives: mk/test-steps.txt)

test-steps-check:
	$(Q)scripts/check-test-steps.sh
	$(Q)scripts/check-test-steps.sh --control

unit-tests: $(UNIT) ## run the library's unit tests (Criterion)
	$(Q)$(UNIT) --jobs 2

plots-check: chapters
	$(Q)BUILD=$(BUILD) scripts/run-chapters.sh plots $(BUILD)/plots-check $(CHAPTER_BINS)

# make test: the unit tests and the chapters' claims again, with the sanitizers
san-tests:
	$(Q)$(MAKE) --no-print-directory SKIP_DEPS=1 BUILD=$(BUILD)/san SAN=1 OPT="-O1 -g" verify unit-tests

deps-auto:
ifndef SKIP_DEPS
	@scripts/deps.sh --check || scripts/deps.sh
endif

.PHONY: all verify plots test deps clean help chapters unit-tests plots-check san-tests deps-auto \
        test-steps-check
.DELETE_ON_ERROR:
# Objects, and the exercise stubs generated from the solutions, are kept
# after a build. (.SECONDARY with no names would keep them too, but it makes
# every target intermediate, so that an object the archive names but that
# does not exist yet, for a .c older than the archive, is never compiled.)
.PRECIOUS: $(BUILD)/%.o $(EX_DIR)/stubs/%.o $(EX_DIR)/stubs/%.c

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
