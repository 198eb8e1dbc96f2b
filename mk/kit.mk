# The instructor's kit: lecture decks, their notes, course.pdf, a figure
# gallery and a course kit (syllabus, handouts, answer keys), from one run
# of the chapters that draws the figures, checks the claims and prints the
# narration (scripts/kit-run.sh, slides.sh, course-kit.sh, gallery.sh).
# Captions live in the figure scripts (plots/*.gp), key equations in
# scripts/templates/equations.tsv, why each line of a reference solution is
# there in scripts/templates/answer-keys.txt. A deck has at most 30 slides
# (a longer lecture comes in two decks, chNN_topic.pdf and -part2.pdf).
SLIDES_DIR := $(PLOT_DIR)/slides
COURSE_DIR := $(PLOT_DIR)/course
NARRATION  := $(PLOT_DIR)/narration
KIT_CLAIMS := $(BUILD)/claims-kit.tsv

# Figures, claims and narration from one run (a deck's numbers are its figures' numbers).
kit-run: deps-auto chapters
	$(Q)scripts/kit-run.sh $(PLOT_DIR) $(KIT_CLAIMS) $(NARRATION) $(CHAPTER_BINS)

slides: kit-run ## lecture decks and their notes (one per chapter) and course.pdf, into plots/out/slides
	$(Q)scripts/slides.sh $(PLOT_DIR) $(KIT_CLAIMS) $(NARRATION) $(SLIDES_DIR)

course: slides ## the course kit: syllabus, exercise handouts, answer keys (plots/out/course), with the decks
	$(Q)scripts/course-kit.sh $(NARRATION) $(COURSE_DIR)
	$(Q)scripts/gallery.sh $(PLOT_DIR) $(KIT_CLAIMS)

gallery: kit-run ## one offline HTML page with every figure, caption and claim, linking the decks and kit: plots/out/index.html
	$(Q)scripts/gallery.sh $(PLOT_DIR) $(KIT_CLAIMS)

# make test: the sources of every deck, and a sample of decks, notes, course
# and kit built and measured (scripts/kit-check.sh); the gallery also in a
# real browser at 390 and 1280 px (scripts/gallery-fit.sh, screenshots in
# build/kit-check/shots), hence Chromium's headless shell, which only this
# step needs.
kit-check: plots-check deps-browser-auto
	$(Q)scripts/kit-check.sh $(BUILD)/plots-check $(BUILD)/claims-plots.tsv $(BUILD)/kit-check

gallery-shots: gallery deps-browser-auto ## screenshots of plots/out/index.html at 390 and 1280 px, checked for horizontal overflow
	$(Q)scripts/gallery-fit.sh $(PLOT_DIR)/index.html $(PLOT_DIR)/shots

deps-browser: ## install Chromium's headless shell (root or sudo; about 100 MB), for kit-check and gallery-shots
	$(Q)scripts/deps.sh browser

deps-browser-auto:
ifndef SKIP_DEPS
	@scripts/deps.sh --check browser || scripts/deps.sh browser
endif

.PHONY: kit-run slides course gallery kit-check gallery-shots deps-browser deps-browser-auto
