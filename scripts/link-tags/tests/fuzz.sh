#!/bin/sh
# A bounded libFuzzer run of the core (see fuzz.c), seeded with
# the test fixtures.  Skips when clang or its fuzzer runtime is missing.
set -eu
. "$TESTS_DIR/lib/common.sh"
need clang make

printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$T/probe.c"
clang -fsanitize=fuzzer,address -o "$T/probe" "$T/probe.c" >/dev/null 2>&1 ||
	skip "clang cannot link -fsanitize=fuzzer (libclang-rt missing?)"

make -s -C "$SRC_DIR" fuzz FUZZ_BIN="$T/link-tags-fuzz" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "harness does not build"; }

mkdir "$T/corpus"
build_vmlinux "$T/corpus/vmlinux"
build_vmlinux "$T/corpus/alt" -DALT_LAYOUT
# other classes, byte orders and ET_DYN, when their compilers are here
for arch in i386 s390x arm64; do
	if (build_cross $arch "$T/$arch") >/dev/null 2>&1; then
		cp "$T/$arch/vmlinux" "$T/corpus/$arch"
	fi
done
gen_tags 20 >"$T/gen.c"
(cd "$T" && gcc -O2 -fno-pic -mcmodel=kernel -c gen.c -o corpus/gen.o)

"$T/link-tags-fuzz" -max_total_time="${LINK_TAGS_FUZZ_SECONDS:-15}" \
	-timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-artifact_prefix="$T/" "$T/corpus" >"$T/fuzz.log" 2>&1 ||
	{ tail -n 40 "$T/fuzz.log"
	  keep=$(mktemp -d "${TMPDIR:-/tmp}/link-tags-fuzz-artifacts.XXXXXX")
	  cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-* "$keep" 2>/dev/null || :
	  fail "fuzzer found a problem; inputs kept in $keep"; }
tail -n 2 "$T/fuzz.log"
