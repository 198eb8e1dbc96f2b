# `make test` checks the runner behind `make verify` on fake chapters: the
# controls table counts checks, and a check without a control, a control
# that holds or one that follows no check of its id fails the run
# (tests/run-chapters/test.sh).
verify-runner-check:
	$(Q)tests/run-chapters/test.sh

.PHONY: verify-runner-check
