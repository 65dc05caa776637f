# The benchmark scripts' shared part; sourced after scripts/lib.sh, never run.
#
# The matrix (benchmarks/matrix.txt, or $MATRIX): the one shell reader of
# it.  Sourcing checks every row and dies on a bad one, naming the line.
MATRIX=${MATRIX:-$TOP/benchmarks/matrix.txt}
[ -f "$MATRIX" ] || die "no matrix $MATRIX"
MATRIX_ROWS=$(awk -v f="$MATRIX" '
	/^[ \t]*(#|$)/ { next }
	NF < 8 { printf "%s:%d: want ROW KERNEL REF ENABLED PEER BASE ROLE BOOT-ARGS, found %d column(s)\n",
		f, NR, NF > "/dev/stderr"; bad = 1; next }
	seen[$1]++ { printf "%s:%d: row %s declared twice\n", f, NR, $1 > "/dev/stderr"; bad = 1 }
	{ print }
	END { exit bad }' "$MATRIX") || die "bad matrix $MATRIX"

# matrix_rows: every row, one a line: ROW KERNEL REF ENABLED PEER BASE ROLE ARGS...
matrix_rows() { printf '%s\n' "$MATRIX_ROWS"; }

# matrix_field ROW FIELD: one field of a row (kernel, ref, enabled, peer,
# base, role or args); dies if the matrix has no such row.
matrix_field() {
	local n
	case $2 in
	kernel) n=2 ;; ref) n=3 ;; enabled) n=4 ;; peer) n=5 ;; base) n=6 ;; role) n=7 ;;
	args) n=8 ;;
	*) die "matrix_field: no field '$2'" ;;
	esac
	matrix_rows | awk -v r="$1" -v n=$n '$1 == r {
		if (n == 8) { for (i = 1; i < 8; i++) $i = ""; sub(/^ +/, "") } else $0 = $n
		print; found = 1 } END { exit !found }' || die "no row '$1' in $MATRIX"
}

# row_qemu ROW: the boot.sh options a row's boot arguments ask of the
# host: qemu.numa=N boots N NUMA nodes (boot.sh -N), the memory split
# evenly.  The word stays on the kernel's command line, which ignores it.
row_qemu() {
	matrix_field "$1" args | tr ' ' '\n' | sed -n 's/^qemu\.numa=\([0-9][0-9]*\)$/-N \1/p'
}

# matrix_pairs: "ROW:PEER" for every row that names a stock peer.
matrix_pairs() { matrix_rows | awk '$5 != "-" { print $1 ":" $5 }'; }

# The inputs of a measurement: what it measured, recorded beside its
# figures (the "inputs" column or header word) so that whether a row's
# figures are stale is decided against the tree, never by reading git
# history.  Each row has its own, so that 'make results' measures again
# only the rows whose inputs changed (and a run cut short keeps the rows it
# finished): a stock row stays measured while the series changes.
#
# measure_files: the code every measurement shares, as paths from $TOP:
# benchmarks/ but the report (which only renders), prose and the matrix (a
# row's own line is its input), the kernels' out-of-tree modules, and the
# scripts that build, boot and measure (not those that test, check or
# export the series).  Of scripts/guest, what a measured
# boot's initramfs holds (mkinitramfs.sh with INITRAMFS_BENCH=1 leaves the
# guest tests out).  Tracked files as they are in the work tree.
measure_files() {
	(cd "$TOP" && git ls-files -- benchmarks kernel/modules ':(glob)scripts/*.sh' \
		scripts/guest scripts/cpio-normalize.py scripts/link-tags/link-tags.c |
		grep -v -e '^benchmarks/report/' -e '\.md$' -e '^benchmarks/matrix\.txt$' \
			-e '^scripts/guest/tests/' -e '^scripts/guest/run-tests$' \
			-e '^scripts/guest/ktap\.sh$' -e '^scripts/guest/fleet-node$' \
			-e '^scripts/\(test\|checkpatch\|export-patches\|prometheus-deb\)\.sh$' |
		LC_ALL=C sort)
}

# kernel_inputs KERNEL: the shared code, the variant's config fragments and
# the patches its tree applies: none for stock but alloctop's, which every
# measured initramfs holds (mkinitramfs.sh); the whole series for a tree
# made from the fork (fixes and pretag take part of it, conservatively
# counted whole).  A patch's code, not its message: rewording what a patch
# says of its figures measures nothing new.  PATCHES: another patch
# directory (the tests').
kernel_inputs() {
	local f tree
	tree=$(sed -n 's/^# tree: *\([a-z]*\).*/\1/p' "$TOP/kernel/configs/$1.config" | head -1)
	[ -n "$tree" ] || die "kernel/configs/$1.config names no '# tree:'"
	{
		measure_files | while read -r f; do
			[ -f "$TOP/$f" ] || continue
			printf '%s\n' "$f"; cat "$TOP/$f"
		done
		variant_fragments "$1" | while read -r f; do
			printf '%s\n' "${f#"$TOP"/}"; cat "$f"
		done
		echo "tree $tree"
		for f in "${PATCHES:-$TOP/kernel/patches}"/*.patch; do
			[ -f "$f" ] || continue
			echo patch
			if [ "$tree" = stock ]; then
				awk '/^diff --git / { keep = ($3 == "a/tools/mm/alloctop.c") } keep' "$f"
			else
				sed -n '/^diff --git /,$p' "$f"
			fi
		done
	} | sha256sum | cut -c1-16
}

# row_inputs ROW: its kernel's inputs and its line of the matrix (kernel,
# reference form, expected state and arguments; not its peer or base,
# which only the report reads).
row_inputs() {
	local kernel
	kernel=$(matrix_field "$1" kernel)
	{
		kernel_inputs "$kernel"
		matrix_rows | awk -v r="$1" '$1 == r { $5 = $6 = $7 = ""; print }'
	} | sha256sum | cut -c1-16
}

# capture_inputs: the inputs of 'make capture' (fork-bench-tracing).
capture_inputs() {
	{ kernel_inputs fork-bench-tracing; echo capture; } | sha256sum | cut -c1-16
}

# rows_wanted STEP CURRENT-CMD ROWS...: of ROWS, those to measure again:
# every one with FULL=1, else those for which "CURRENT-CMD ROW HASH" fails
# (the step has no figures of the row on its present inputs).  ROWS= in the
# environment overrides the choice.  Logs what it keeps.
rows_wanted() {
	local step=$1 cur=$2 r kept=""
	shift 2
	if [ -n "${ROWS:-}" ]; then
		for r in $ROWS; do matrix_field "$r" kernel >/dev/null; echo "$r"; done
		return
	fi
	for r in "$@"; do
		if [ "${FULL:-0}" != 1 ] && $cur "$r" "$(row_inputs "$r")"; then
			kept="$kept $r"
		else
			echo "$r"
		fi
	done
	[ -z "$kept" ] || log "$step: kept, measured on their present inputs (FULL=1 measures again):$kept"
}

# run_stamp: what every result records of its run, in commit (the
# project's, "-dirty" when the tree differs from it) and qemu (QEMU's
# version); a row's inputs are row_inputs'.  results/ is this job's output (make results
# writes it in steps), not its input: edits there leave commit clean.
run_stamp() {
	commit=$(git -C "$TOP" rev-parse --short HEAD)
	git -C "$TOP" diff --quiet HEAD -- . ':!results' || commit=$commit-dirty
	qemu=$(qemu-system-x86_64 --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
}

# bench_bins: the static workload programs (benchmarks/progs) and the perf
# bundle, in $BUILD/bench-bin, which every measured initramfs holds
# (mkinitramfs.sh): each step that boots builds them first, so that the
# initramfs it boots is every other step's.  Sets perf (perf_bundle).
bench_bins() {
	local p
	mkdir -p "$BUILD/bench-bin"
	for p in pagefault forkexit workload; do
		gcc -std=c11 -static -O2 -Wall -Wextra -Werror -o "$BUILD/bench-bin/$p" \
			"$TOP/benchmarks/progs/$p.c"
	done
	perf_bundle "$BUILD/bench-bin/perf-root.tar"
}

# perf_bundle TAR: the host's perf binary (Debian 12: /usr/bin/perf; later
# releases make that a wrapper around a versioned perf_X.Y) and its
# libraries, as a tar the guest unpacks at /; sets perf to the binary.
perf_bundle() {
	local proot lib
	perf=$(ls /usr/bin/perf_[0-9]* 2>/dev/null | sort -V | tail -1 || true)
	[ -n "$perf" ] || perf=$(command -v perf || true)
	[ -n "$perf" ] && file -L "$perf" | grep -q ELF || die "no perf binary (apt-get install linux-perf)"
	proot=$(mktemp -d)
	mkdir -p "$proot/usr/bin" "$(dirname "$1")"
	cp "$perf" "$proot/usr/bin/perf"
	ldd "$perf" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }' | while read -r lib; do
		[ -f "$lib" ] || continue
		mkdir -p "$proot$(dirname "$lib")"
		cp -L "$lib" "$proot$lib"
	done
	tar -C "$proot" -cf "$1" .
	rm -rf "$proot"
}
