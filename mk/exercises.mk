# Exercises that grade themselves (see README, "Exercises").
# One source per exercise: exercises/solutions/exNN_topic.c is the full
# solution with the student's part between BEGIN/END SOLUTION markers;
# scripts/exercise-stub.sh turns it into the student's file exercises/exNN_topic.c.
# Graders: exercises/tests/test_exNN_topic.c, linked once with the student's
# file (grade-yours/) and once with the solution (grade-solution/).

EX_DIR       := $(BUILD)/exercises
EX_STUBS     := $(sort $(wildcard exercises/ex[0-9][0-9]*_*.c))
EX_GRADE_OBJ := $(EX_DIR)/tests/grade.o
EX_SCRIPT     = BUILD=$(BUILD) MAKE="$(MAKE)" scripts/exercise.sh

# exercises/ex07a_softmax.c -> 7a, and its chapter 7
ex_tag     = $(firstword $(subst _, ,$(patsubst ex%,%,$(notdir $(1)))))
ex_id      = $(patsubst 0%,%,$(call ex_tag,$(1)))
ex_chapter = $(firstword $(subst a, ,$(subst b, ,$(subst c, ,$(subst d, ,$(call ex_id,$(1)))))))
EX_IDS     := $(foreach s,$(EX_STUBS),$(call ex_id,$(s)) $(call ex_chapter,$(s)))
EX_GOALS   := $(addprefix exercise,$(sort $(EX_IDS)))

$(EX_DIR)/%.o: CPPFLAGS += -Iexercises

# A student's half-written file may warn (an unused variable, say): the
# warning is shown, but it does not stop the grading as -Werror would.
$(EX_DIR)/ex%.o: CFLAGS := $(filter-out -Werror,$(CFLAGS))

$(EX_DIR)/grade-yours/%: $(EX_DIR)/tests/test_%.o $(EX_DIR)/%.o $(EX_GRADE_OBJ) $(LIB)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) $^ -lcriterion $(LDLIBS) -o $@

$(EX_DIR)/grade-solution/%: $(EX_DIR)/tests/test_%.o $(EX_DIR)/solutions/%.o $(EX_GRADE_OBJ) $(LIB)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) $^ -lcriterion $(LDLIBS) -o $@

exercises: deps-auto $(LIB) $(EX_GRADE_OBJ) ## scoreboard: grade every exercise with your files
	$(Q)$(EX_SCRIPT) board

exerciseN: ## grade exercise N with your file, every message shown (make exercise1, make exercise7a)
	@echo "write the exercise's number: make exercise1 (make exercises lists them)"

$(EX_GOALS): deps-auto $(LIB) $(EX_GRADE_OBJ)
	$(Q)$(EX_SCRIPT) grade $(patsubst exercise%,%,$@)

solutions: deps-auto $(LIB) $(EX_GRADE_OBJ) ## grade the reference solutions (all must pass)
	$(Q)$(EX_SCRIPT) solutions

exercise-stubs: ## instructors: regenerate exercises/exNN_*.c from the solutions (overwrites them)
	$(Q)$(EX_SCRIPT) stubs

exercises-check: $(LIB) $(EX_GRADE_OBJ)
	$(Q)$(EX_SCRIPT) check

TEST_STEPS += exercises-check

# `make hint 4 LEVEL=2`, `make watch 4`: the number is a goal of its own,
# which is caught here so that make does not look for a target `4`.
EX_NUMBER_GOALS := $(filter 0% 1% 2% 3% 4% 5% 6% 7% 8% 9%,$(MAKECMDGOALS))
EX_NUMBER       := $(firstword $(EX_NUMBER_GOALS))

hint: ## show the first hint for exercise N: make hint N (next ones: LEVEL=2, LEVEL=3)
	$(Q)$(EX_SCRIPT) hint $(or $(EX_NUMBER),$(error which exercise? e.g. make hint 1)) $(or $(LEVEL),1)

watch: deps-auto $(LIB) $(EX_GRADE_OBJ) ## regrade exercise N on every save: make watch N
	$(Q)$(EX_SCRIPT) watch $(or $(EX_NUMBER),$(error which exercise? e.g. make watch 1))

ifneq ($(filter hint watch,$(MAKECMDGOALS)),)
$(EX_NUMBER_GOALS):
	@:
else ifneq ($(EX_NUMBER_GOALS),)
$(EX_NUMBER_GOALS):
	@echo "make $@: a number alone is not a target; try make exercise$@ or make hint $@" >&2; exit 2
endif

.PHONY: exercises exerciseN $(EX_GOALS) solutions exercise-stubs exercises-check hint watch \
        $(EX_NUMBER_GOALS)
