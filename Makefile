# alloctag-fork: the project's one entry point.  See README.md.
#
#   make results   fetch, patch, build, boot, measure, publish results/
#   make test      everything checked; closes with "N passed, N failed"
#   make test-stock   make test with stock 7.3 booted beside the fork, as the reference
#   make bench, make trace, make bootprof, make survey, make capture, make aslr   the measuring parts of 'make results'
#   make report    every table, plot and README of results/ from its raw data (last in 'make results')
#   make rfc       each posting of the series into results/rfc/X/, every patch and head built
#
# Options: VARIANTS="stock-distro fork fork-distro"  CACHE=~/.cache/alloctag-fork  BUILD=$CACHE/build
#          JOBS=N  and for 'make boot': VARIANT= MEM= SMP= ACCEL= ICOUNT=1 CMD=

SHELL := /bin/bash
CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/alloctag-fork
BUILD ?= $(CACHE)/build
VARIANTS ?= stock-distro fork fork-distro
VARIANT ?= fork
MEM ?= 1G
SMP ?= 1
ACCEL ?= auto
CMD ?= run-tests
export BUILD CACHE VARIANTS
ifdef JOBS
export JOBS
endif

.PHONY: all deps source build boot test test-stock results bench trace bootprof survey capture aslr report rfc link-tags export-patches clean distclean help

all: build

help:
	@sed -n '2,11p' Makefile | sed 's/^# \?//'

deps:
	@scripts/deps.sh build qemu

source: deps
	@scripts/kernel-src.sh

build: source
	@for v in $(VARIANTS); do scripts/build-kernel.sh $$v || exit 1; done

# Boot one variant and run CMD in the guest; exit status is the guest's.
boot: deps
	@scripts/boot.sh -k $(VARIANT) -m $(MEM) -s $(SMP) -a $(ACCEL) \
		$(if $(ICOUNT),-i) $(if $(APPEND),-A "$(APPEND)") -- $(CMD)

link-tags:
	@$(MAKE) -s -C scripts/link-tags

# make test builds the fork's kernels (VARIANTS only when given);
# test-stock adds stock-distro, the reference stock 7.3 kernel.
test:
	@VARIANTS="$(if $(filter file,$(origin VARIANTS)),,$(VARIANTS))" scripts/test.sh

test-stock:
	@VARIANTS="stock-distro fork fork-distro" scripts/test.sh

# The main job: benchmarks and the page-flag survey, published in results/;
# the report renders once everything is measured (a recipe, not a
# prerequisite, so that make -j does not render it beside the steps, which
# take turns on the build directory: build_lock in scripts/lib.sh).
results: bench trace bootprof survey capture aslr
	@$(MAKE) --no-print-directory report

bench: source link-tags
	@scripts/deps.sh build qemu results
	@benchmarks/run.sh

# Per-function instruction counts of one alloc+free pair, traced with gdb.
trace: source link-tags
	@scripts/deps.sh build qemu results
	@benchmarks/trace/trace.sh

# Per-function instruction counts of each boot up to /init (QEMU plugin).
bootprof: source link-tags
	@scripts/deps.sh build qemu results
	@benchmarks/bootprof/bootprof.sh

# Context capture end to end: one call site's stacks with perf, and the
# capture flag's cost (results/capture/).
capture: source link-tags
	@scripts/deps.sh build qemu results
	@benchmarks/capture/capture.sh

survey: source link-tags
	@scripts/deps.sh build results
	@scripts/survey/run.sh

# The judged workloads again with user address randomization off
# (results/aslr.csv): what their figures owe to where mappings land.
aslr: source link-tags
	@scripts/deps.sh build qemu results
	@scripts/survey/aslr.sh

# Render results/ (README.md, targets.csv, plots, trace/ and bootprof/
# READMEs, pageflags.md, tagcounts.md) and README.md's headline from the
# raw data alone, with results/inputs.txt, what the tree would record as
# measured now: data measured on other inputs is listed and warned about.
# README.md's counts and docs/'s generated tables come from the tree.
report:
	@scripts/deps.sh results
	@{ benchmarks/inputs-hash.sh && scripts/survey/inputs.sh; } >results/inputs.txt.tmp && mv results/inputs.txt.tmp results/inputs.txt
	@python3 -m benchmarks.report results --readme README.md --docs docs

rfc:
	@scripts/deps.sh build
	@scripts/rfc/make-rfc.sh

# Write the commits on top of "pristine" in the kernel tree back into
# kernel/patches/ (the series is edited as git commits there).
export-patches:
	@scripts/export-patches.sh

clean:
	rm -rf $(BUILD)/kernel-* $(BUILD)/boot $(BUILD)/test
	$(MAKE) -s -C scripts/link-tags clean

distclean:
	rm -rf $(BUILD)
