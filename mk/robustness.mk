# Robustness (issue 14).
# make test runs bad-input: every chapter and the benchmark refuse the rows of
# tests/bad-input/table and the bad values generated from their --help with
# exit 2, one line on stderr, nothing on stdout and nothing on disk; write
# failures end in exit 3 with no partial file (scripts/bad-input.sh).
# make test-long runs seed-sweep: every chapter at its default sizes for
# seeds 1..20, where every claim must PASS and every control FAIL
# (scripts/seed-sweep.sh).
bad-input: chapters $(BENCH) ## refuse bad input before any work: exit 2, one line, nothing written
	$(Q)scripts/bad-input.sh $(CHAPTER_BINS) $(BENCH)

test-long: deps-auto chapters ## every claim at seeds 1..20 (default sizes); not part of make test
	$(Q)BUILD=$(BUILD) scripts/seed-sweep.sh 1 20 $(CHAPTER_BINS)

.PHONY: bad-input test-long
