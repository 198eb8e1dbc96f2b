# Robustness (issue 14).
# make test runs bad-input: every chapter and the benchmark refuse the rows of
# tests/bad-input/table and the bad values generated from their --help with
# exit 2, one line on stderr, nothing on stdout and nothing on disk; write
# failures end in exit 3 with no partial file (scripts/bad-input.sh).
# make test runs training-sweep: chapter 13 at the edges of the sizes it
# accepts and on a folder of .txt files, chapter 14's quick run at the edges
# of its sizes, every claim held and every control failing (issue 28).
# make test-long runs seed-sweep: every chapter at its default sizes for
# seeds 1..20, where every claim must PASS and every control FAIL
# (scripts/seed-sweep.sh), and training-sweep's long part: chapter 14 at a
# budget past the bigram, where A2 and A7 are checked whatever the run.
bad-input: chapters $(BENCH) ## refuse bad input before any work: exit 2, one line, nothing written
	$(Q)scripts/bad-input.sh $(CHAPTER_BINS) $(BENCH)

test-long: deps-auto chapters ## every claim at seeds 1..20 (default sizes), ch14 past the bigram; not part of make test
	$(Q)BUILD=$(BUILD) scripts/seed-sweep.sh 1 20 $(CHAPTER_BINS)
	$(Q)scripts/training-sweep.sh $(BUILD) long

training-sweep: $(BUILD)/ch13_language_model $(BUILD)/ch14_ablations ## chapters 13 and 14 at the edges of their sizes, ch13 on a folder of .txt (issue 28)
	$(Q)scripts/training-sweep.sh $(BUILD)

.PHONY: bad-input test-long training-sweep
