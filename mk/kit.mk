# The instructor's kit: lecture decks and a figure gallery, from the figures
# the chapters render and the claims they check (scripts/slides.sh,
# scripts/gallery.sh). Captions live in the figure scripts (plots/*.gp).
SLIDES_DIR := $(PLOT_DIR)/slides
KIT_CLAIMS := $(BUILD)/claims-plots.tsv

# Renders the figures first when they (or the claims they go with) are missing.
kit-figures: deps-auto chapters
	$(Q)missing=; for s in plots/ch[0-9][0-9]_*.gp; do \
	    [ -f $(PLOT_DIR)/$$(basename $$s .gp).pdf ] || missing=1; done; \
	if [ -n "$$missing" ] || [ ! -f $(KIT_CLAIMS) ]; then $(MAKE) --no-print-directory plots; fi

slides: kit-figures ## lecture decks, one PDF per chapter and course.pdf, into plots/out/slides
	$(Q)scripts/slides.sh $(PLOT_DIR) $(KIT_CLAIMS) $(SLIDES_DIR)

gallery: kit-figures ## one offline HTML page with every figure, caption and claim: plots/out/index.html
	$(Q)scripts/gallery.sh $(PLOT_DIR) $(KIT_CLAIMS)

# make test: decks and gallery from the figures plots-check rendered.
kit-check: plots-check
	$(Q)scripts/kit-check.sh $(BUILD)/plots-check $(KIT_CLAIMS) $(BUILD)/kit-check

.PHONY: kit-figures slides gallery kit-check
