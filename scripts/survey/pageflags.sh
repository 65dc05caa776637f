#!/bin/bash
# Report the page->flags layout of one kernel configuration, as the kernel
# itself computes it: run 'make olddefconfig prepare' for CONFIG-FILE in
# OUTDIR (out of tree, against the shared source in $KSRC), then compile
# scripts/survey/probe/pfprobe.c to assembly with kbuild (M=), i.e. with the
# kernel's own headers and flags, and read the values it emits.
#
# Usage: scripts/survey/pageflags.sh CONFIG-FILE [OUTDIR]
#   CONFIG-FILE  a .config (plain, .xz or .gz)
#   OUTDIR       build directory (default $BUILD/survey/pf-NAME)
#
# Prints key=value lines on stdout (also kept in OUTDIR/pageflags.txt):
# the widths, NR_PAGEFLAGS, spare bits, the index width 'compact' would
# get (min(16, spare)), and what was changed in the config to get through
# olddefconfig/prepare (fixups=, olddefconfig_changed=).  A cached result
# is reused when the config, the source tree and the probe are unchanged.
set -eu
. "$(dirname "$0")/../lib.sh"

usage() { sed -n '2,17p' "$0" | sed 's/^# \?//'; }
case "${1:-}" in
-h | --help) usage; exit 0 ;;
"") usage >&2; exit 1 ;;
esac
cfg_in=$1
[ -f "$cfg_in" ] || die "config file '$cfg_in' not found"
name=$(basename "$cfg_in"); name=${name%.xz}; name=${name%.gz}
out=${2:-$BUILD/survey/pf-$name}
[ -z "${2:-}" ] || name=$(basename "$2")
[ -f "$KSRC/Makefile" ] || die "no kernel source in $KSRC (run 'make source')"
case "$(cd "$KSRC" && pwd)" in
"$(mkdir -p "$out" && cd "$out" && pwd)") die "OUTDIR must not be the source tree" ;;
esac
out=$(cd "$out" && pwd)
probe_src=$TOP/scripts/survey/probe

kbuild_env "$KSRC" HEAD ""
kmake() { make -s -C "$KSRC" O="$out" CC="$cc" HOSTCC="$hostcc" -j"$JOBS" "$@"; }

# The input config, uncompressed.
case "$cfg_in" in
*.xz) xzcat "$cfg_in" >"$out/config.input" ;;
*.gz) zcat "$cfg_in" >"$out/config.input" ;;
*) cp "$cfg_in" "$out/config.input" ;;
esac
grep -q '^CONFIG_' "$out/config.input" || die "$cfg_in has no CONFIG_ lines"

stamp=$( (cat "$out/config.input" "$probe_src"/* "$0"
	git -C "$KSRC" rev-parse HEAD) | sha256sum | cut -d' ' -f1)
if [ -f "$out/pageflags.txt" ] && [ "$(cat "$out/.pf-stamp" 2>/dev/null)" = "$stamp" ]; then
	log "$name: cached result in $out"
	cat "$out/pageflags.txt"
	exit 0
fi
rm -f "$out/pageflags.txt" "$out/.pf-stamp"

# Fixups: what blocks olddefconfig/prepare here, changed on the copy only
# and recorded.  Rust: this host may have a rustc that Kconfig accepts
# but no complete Rust toolchain for the kernel; Rust does not touch the
# page-flags layout.
cp "$out/config.input" "$out/.config"
fixups=""
if grep -q '^CONFIG_RUST=y' "$out/.config"; then
	"$KSRC/scripts/config" --file "$out/.config" --disable RUST
	fixups="$fixups RUST=n"
fi

log "$name: olddefconfig in $out"
kmake olddefconfig >"$out/olddefconfig.log" 2>&1 ||
	{ tail -20 "$out/olddefconfig.log" >&2; die "$name: olddefconfig failed (log: $out/olddefconfig.log)"; }

# Every symbol whose setting olddefconfig changed (toolchain-dependent
# ones such as GCC_VERSION or PAHOLE_VERSION included), kept in full in
# OUTDIR/config-changes.txt.
settings() {
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1\t\2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1\tn/p' "$1" | sort
}
join -t "$(printf '\t')" -a1 -a2 -e '(unset)' -o 0,1.2,2.2 \
	<(settings "$out/config.input") <(settings "$out/.config") |
	awk -F '\t' '{ if ($2 == "n") $2 = "(unset)"; if ($3 == "n") $3 = "(unset)" }
		$2 != $3 { sub(/^CONFIG_/, "", $1); print $1 ": " $2 " -> " $3 }' \
	>"$out/config-changes.txt"
changed=$(wc -l <"$out/config-changes.txt")

log "$name: make prepare (-j$JOBS; log $out/prepare.log)"
t0=$(date +%s)
kmake prepare >"$out/prepare.log" 2>&1 ||
	{ tail -30 "$out/prepare.log" >&2; die "$name: make prepare failed (log: $out/prepare.log)"; }
log "$name: prepared in $(( $(date +%s) - t0 ))s"

rm -rf "$out/pfprobe" && mkdir -p "$out/pfprobe"
cp "$probe_src"/Kbuild "$probe_src"/pfprobe.c "$out/pfprobe/"
kmake M="$out/pfprobe" pfprobe.s >"$out/probe.log" 2>&1 ||
	{ tail -30 "$out/probe.log" >&2; die "$name: the probe does not compile (log: $out/probe.log)"; }
asm=$out/pfprobe/pfprobe.s
[ -f "$asm" ] || die "$name: kbuild wrote no $asm"

val() {
	local v
	v=$(sed -n "s/.*->$1 \\\$\\{0,1\\}\\(-\\{0,1\\}[0-9][0-9]*\\) .*/\\1/p" "$asm" | head -1)
	[ -n "$v" ] || die "$name: probe output has no value for $1"
	echo "$v"
}
keys="BITS_PER_LONG SECTIONS_WIDTH NODES_SHIFT NODES_WIDTH
	NODE_NOT_IN_PAGE_FLAGS MAX_NR_ZONES ZONES_WIDTH NR_CPUS_BITS
	LAST_CPUPID_SHIFT LAST_CPUPID_WIDTH LAST_CPUPID_NOT_IN_PAGE_FLAGS
	KASAN_TAG_WIDTH LRU_GEN_WIDTH LRU_REFS_WANTED LRU_REFS_WIDTH
	NR_PAGEFLAGS SPARE_SUM SPARE_PGOFF ALLOC_TAG_SIZE CODETAG_LINENO
	CODETAG_MODNAME CODETAG_FUNCTION CODETAG_FILENAME"
res=$out/pageflags.txt.tmp
: >"$res"
for k in $keys; do
	echo "$(echo "$k" | tr 'A-Z' 'a-z')=$(val "$k")" >>"$res"
done
sum=$(val SPARE_SUM); pgoff=$(val SPARE_PGOFF)
[ "$sum" = "$pgoff" ] ||
	die "$name: spare bits disagree: widths give $sum, the kernel's LRU_REFS_PGOFF gives $pgoff"
compact=$(( sum < 16 ? sum : 16 ))
[ "$compact" -ge 0 ] || compact=0
kver=$(kmake -s kernelversion 2>/dev/null || true)
cfgval() { sed -n "s/^CONFIG_$1=\\(.*\\)/\\1/p" "$out/.config" | tr -d '"' | head -1; }
{
	echo "spare_bits=$sum"
	echo "compact_index_bits=$compact"
	echo "config_nr_cpus=$(cfgval NR_CPUS)"
	echo "config_maxsmp=$(cfgval MAXSMP)"
	echo "config_nodes_shift=$(cfgval NODES_SHIFT)"
	echo "config_numa_balancing=$(cfgval NUMA_BALANCING)"
	echo "config_lru_gen=$(cfgval LRU_GEN)"
	echo "config_mem_alloc_profiling=$(cfgval MEM_ALLOC_PROFILING)"
	echo "kernel_version=$kver"
	echo "source_commit=$(git -C "$KSRC" rev-parse --short=12 HEAD)"
	echo "fixups=${fixups# }"
	echo "olddefconfig_changed=$changed"
	echo "olddefconfig_symbols=$(cut -d: -f1 "$out/config-changes.txt" | paste -sd' ')"
} >>"$res"
mv "$res" "$out/pageflags.txt"
echo "$stamp" >"$out/.pf-stamp"
cat "$out/pageflags.txt"
