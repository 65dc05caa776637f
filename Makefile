# The project's one entry point.  See README.md.
.PHONY: all test
all:
test:
	@echo "0 passed, 0 failed"
