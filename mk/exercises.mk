# Exercises that grade themselves (see README, "Exercises").
#
# One source per exercise: exercises/solutions/exNN_topic.c is the full
# solution, with the student's part between BEGIN/END SOLUTION markers;
# scripts/exercise-stub.sh turns it into the student's file exercises/exNN_topic.c.
# scripts/exercise.sh owns everything about exercise ids: make forwards
# `make exerciseN`, `make next`, `make hint N`, `make watch N` and `make reset N`
# to it.
#
# One link rule for every graded file: the student's, a solution, a fresh
# stub, or a mutant (a wrong solution that its grader must fail), each with
# the grader of its exercise, exercises/tests/test_exNN_topic.c:
#   exercises/ex07a_softmax.c                      -> $(EX_DIR)/ex07a_softmax.grader
#   exercises/solutions/ex07a_softmax.c            -> $(EX_DIR)/solutions/ex07a_softmax.grader
#   exercises/mutants/ex07a_softmax/nan_tau.c      -> $(EX_DIR)/mutants/ex07a_softmax/nan_tau.grader
#   $(EX_DIR)/stubs/ex07a_softmax.c (generated)    -> $(EX_DIR)/stubs/ex07a_softmax.grader

EX_DIR       := $(BUILD)/exercises
EX_STUBS     := $(sort $(wildcard exercises/ex[0-9][0-9]*_*.c))
EX_SOLUTIONS := $(sort $(wildcard exercises/solutions/ex[0-9][0-9]*_*.c))
EX_MUTANTS   := $(sort $(wildcard exercises/mutants/ex[0-9][0-9]*_*/*.c))
EX_GRADE_OBJ := $(EX_DIR)/tests/grade.o $(EX_DIR)/tests/grade-guard.o
EX_RUNNER    := $(EX_DIR)/grade-run
EX_SCRIPT     = BUILD=$(BUILD) SAN=$(SAN) LEVEL=$(LEVEL) FORCE=$(FORCE) MAKE="$(MAKE)" \
                scripts/exercise.sh

EX_GRADERS  := $(EX_STUBS:exercises/%.c=$(EX_DIR)/%.grader) \
               $(EX_SOLUTIONS:exercises/%.c=$(EX_DIR)/%.grader) \
               $(EX_SOLUTIONS:exercises/solutions/%.c=$(EX_DIR)/stubs/%.grader) \
               $(EX_MUTANTS:exercises/%.c=$(EX_DIR)/%.grader)

# a grader's path -> the object of its exercise's tests (the exNN_ part of the path)
ex_tests = $(EX_DIR)/tests/test_$(firstword $(filter ex0% ex1% ex2%,\
           $(subst /, ,$(basename $(1:$(EX_DIR)/%=%))))).o

$(foreach g,$(EX_GRADERS),$(eval $(g): $(call ex_tests,$(g))))

$(EX_DIR)/%.grader: $(EX_DIR)/%.o $(EX_GRADE_OBJ) $(LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $(filter %.o,$^) $(LIB) -lcriterion $(LDLIBS) -o $@

$(EX_DIR)/stubs/%.c: exercises/solutions/%.c scripts/exercise-stub.sh
	@mkdir -p $(@D)
	$(Q)scripts/exercise-stub.sh $< >$@

$(EX_DIR)/stubs/%.o: $(EX_DIR)/stubs/%.c
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(EX_RUNNER): $(EX_DIR)/tests/grade-run.o
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@

$(EX_DIR)/%.o: CPPFLAGS += -Iexercises

# A student's half-written file may warn (an unused variable, say): the
# warning is shown, but it does not stop the grading as -Werror would.
$(EX_DIR)/ex%.o: CFLAGS := $(filter-out -Werror,$(CFLAGS))

# ------------------------------------------------------------ entry points

exercises: deps-auto ## scoreboard: grade every exercise with your files
	$(Q)$(EX_SCRIPT) board

exerciseN: deps-auto ## grade exercise N with your file, every message shown: make exercise1, make exercise7a (SAN=1: with ASan and UBSan)
	$(Q)$(EX_SCRIPT) grade N

# `make exercise7a`: whatever follows "exercise" goes to the script
EX_GRADE_GOALS := $(filter-out exercises exercises-check exercise-stubs exerciseN,\
                  $(filter exercise%,$(MAKECMDGOALS)))
ifneq ($(EX_GRADE_GOALS),)
$(EX_GRADE_GOALS): exercise%: deps-auto
	$(Q)$(EX_SCRIPT) grade $*
endif

next: deps-auto ## the first exercise you have not solved yet, and how to grade it
	$(Q)$(EX_SCRIPT) next

# `make hint 7a LEVEL=2`, `make watch 7a`, `make reset 7a`: the goals after
# the verb are its arguments, for the script; as goals they do nothing.
EX_VERB := $(filter hint watch reset,$(firstword $(MAKECMDGOALS)))
EX_ARGS := $(if $(EX_VERB),$(wordlist 2,$(words $(MAKECMDGOALS)),$(MAKECMDGOALS)))

hint: ## one hint for exercise N: make hint N (the next ones: LEVEL=2, LEVEL=3)
	$(Q)$(EX_SCRIPT) hint $(EX_ARGS)

watch: deps-auto ## regrade exercise N whenever its file changes: make watch N
	$(Q)$(EX_SCRIPT) watch $(EX_ARGS)

reset: ## start exercise N over: your file goes to exercises/.saved/, the stub comes back
	$(Q)$(EX_SCRIPT) reset $(EX_ARGS)

ifneq ($(EX_ARGS),)
$(EX_ARGS):
	@:
endif

# a number as a goal of its own, not after a verb: say what was meant
EX_STRAY := $(if $(EX_VERB),,$(filter 0% 1% 2% 3% 4% 5% 6% 7% 8% 9%,$(MAKECMDGOALS)))
ifneq ($(EX_STRAY),)
$(EX_STRAY):
	@echo "make $@: a number alone is not a target; try make exercise$@ or make hint $@" >&2; exit 2
endif

solutions: deps-auto ## grade the reference solutions (all must pass)
	$(Q)$(EX_SCRIPT) solutions

exercise-stubs: ## instructors: remake exercises/exNN_*.c from the solutions (keeps edited files unless FORCE=1)
	$(Q)$(EX_SCRIPT) stubs

exercises-check: ## instructors: prove every grader three ways (solutions pass, fresh stubs fail, every mutant fails)
	$(Q)$(EX_SCRIPT) check

.PHONY: exercises exerciseN $(EX_GRADE_GOALS) next hint watch reset $(EX_ARGS) $(EX_STRAY) \
        solutions exercise-stubs exercises-check
