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
# what its tree takes of the series: for a stock tree none of it but
# alloctop's code, which every measured initramfs holds (mkinitramfs.sh);
# for a tree made from the fork, the git tree of the posting it stands at
# (posting_tree_id: kernel/patches/trees), so that a series cut into
# patches differently, or reworded, measures nothing new, and a change to
# a later posting leaves the rows of an earlier one's tree measured.
# PATCHES: another patch directory (the tests').
kernel_inputs() {
	local f tree d=${PATCHES:-$TOP/kernel/patches}
	tree=$(tree_word "$1")
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
		if [ "$tree" = stock ]; then
			for f in "$d"/*.patch; do
				[ -f "$f" ] || continue
				awk '/^diff --git / { keep = ($3 == "a/tools/mm/alloctop.c") } keep' "$f"
			done
		else
			posting_tree_id "$(SERIES_DIR=$d tree_posting "$tree")" "$d"
		fi
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

# capture_kernel UNIT: the kernel 'make capture's unit UNIT boots (capture:
# the whole series; bpf: the series to its per-tag control posting, with
# BPF).
capture_kernel() {
	case $1 in
	capture) echo fork-bench-tracing ;;
	bpf) echo posting-E-bench-tracing ;;
	*) die "no capture unit '$1'" ;;
	esac
}

# capture_inputs UNIT: the inputs of 'make capture's unit UNIT.
capture_inputs() {
	{ kernel_inputs "$(capture_kernel "$1")"; echo "$1"; } | sha256sum | cut -c1-16
}

# matrix_has ROW: the matrix has ROW.
matrix_has() { matrix_rows | awk -v r="$1" '$1 == r { found = 1 } END { exit !found }'; }

# measure STEP: the one driver of the measuring steps (make bench, trace,
# bootprof, capture).  A step script defines these, then calls it:
#   step_units             what it measures, one unit a line: a matrix row,
#                          or CASE/ROW where a row has several (the unit's
#                          row follows its last '/')
#   step_current UNIT INPUTS   true when results/ holds UNIT's figures,
#                          taken on INPUTS
#   step_measure UNIT      measure one unit and publish it, with unit, row,
#                          kernel, args, inputs, kb (its build), n and
#                          total set
# and, where it needs them:
#   step_kernels           kernels to build beyond the units' own (todo
#                          holds the units to measure)
#   step_setup             run once the kernels are built, before any unit
#   step_start UNIT        run in the driver's shell before each unit
#   step_finish            run after the last unit
#   unit_kernel, unit_args, unit_inputs UNIT   for a unit that is not a
#                          matrix row (by default, its row's)
#   STEP_JOBS              units measured at once (default 1), each in a
#                          subshell of its own
# The driver takes build_lock, keeps every unit whose figures are current
# (FULL=1 measures them all; ROWS= measures the units of those rows,
# whatever results/ holds), builds the kernels of the rest (unless
# NO_BUILD=1), the workload programs (bench_bins) and the run's stamp
# (run_stamp), then measures the units in turn, saying which.  A unit is
# published as soon as it is measured, so a run cut short keeps the units
# it finished.
measure() {
	local step=$1 u r kept="" running=0 jobs=${STEP_JOBS:-1}
	local -A inputs_of=()
	build_lock
	declare -F unit_kernel >/dev/null || unit_kernel() { matrix_field "$(unit_row "$1")" kernel; }
	declare -F unit_args >/dev/null || unit_args() { matrix_field "$(unit_row "$1")" args; }
	declare -F unit_inputs >/dev/null || unit_inputs() { row_inputs "$(unit_row "$1")"; }
	trees_recorded
	for r in ${ROWS:-}; do matrix_has "$r" || die "ROWS: no row '$r' in $MATRIX"; done
	todo=""
	for u in $(step_units); do
		r=$(unit_row "$u")
		[ -n "${inputs_of[$r]:-}" ] || inputs_of[$r]=$(unit_inputs "$u")
		if [ -n "${ROWS:-}" ] && matrix_has "$r"; then
			! printf '%s\n' $ROWS | grep -qx -- "$r" || todo="$todo $u"
		elif [ "${FULL:-0}" != 1 ] && step_current "$u" "${inputs_of[$r]}"; then
			kept="$kept $u"
		else
			todo="$todo $u"
		fi
	done
	[ -z "$kept" ] || log "$step: kept, measured on their present inputs (FULL=1 measures again):$kept"
	[ -n "$todo" ] || { log "$step: everything is measured on its present inputs (FULL=1 measures again)"; exit 0; }
	total=$(echo $todo | wc -w)
	log "$step: measuring $total:$todo"
	if [ "${NO_BUILD:-0}" != 1 ]; then
		"$TOP/scripts/kernel-src.sh"
		for k in $({ for u in $todo; do unit_kernel "$u"; done
			if declare -F step_kernels >/dev/null; then step_kernels; fi; } | sort -u); do
			"$TOP/scripts/build-kernel.sh" "$k"
		done
	fi
	# Measured boots leave the guest tests out of the initramfs (they are
	# not what a row measures; see measure_files).
	export INITRAMFS_BENCH=1
	bench_bins
	run_stamp
	if declare -F step_setup >/dev/null; then step_setup; fi
	n=0
	for unit in $todo; do
		n=$((n + 1))
		row=$(unit_row "$unit")
		kernel=$(unit_kernel "$unit")
		args=$(unit_args "$unit")
		inputs=${inputs_of[$row]}
		kb=$BUILD/kernel-$kernel
		log "[$n/$total] $unit: kernel $kernel, ${args/#-/no extra arguments}"
		if [ "$running" -ge "$jobs" ]; then
			wait -n || die "$step: a unit failed (its error is above)"
			running=$((running - 1))
		fi
		if declare -F step_start >/dev/null; then step_start "$unit"; fi
		if [ "$jobs" = 1 ]; then
			step_measure "$unit"
		else
			step_measure "$unit" &
			running=$((running + 1))
		fi
	done
	while [ "$running" -gt 0 ]; do
		wait -n || die "$step: a unit failed (its error is above)"
		running=$((running - 1))
	done
	if declare -F step_finish >/dev/null; then step_finish; fi
}

# unit_row UNIT: the matrix row of a unit of measure's (ROW or CASE/ROW).
unit_row() { echo "${1##*/}"; }

# run_stamp: what every result records of its run, in commit (the
# project's, "-dirty" when the tree differs from it) and qemu (QEMU's
# version); a row's inputs are row_inputs'.  results/ is this job's output (make results
# writes it in steps), not its input: edits there leave commit clean.
run_stamp() {
	commit=$(git -C "$TOP" rev-parse --short HEAD)
	git -C "$TOP" diff --quiet HEAD -- . ':!results' || commit=$commit-dirty
	qemu=$(qemu-system-x86_64 --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
}

# bench_bins: the static programs (benchmarks/progs) and the perf
# bundle, in $BUILD/bench-bin, which every measured initramfs holds
# (mkinitramfs.sh): each step that boots builds them first, so that the
# initramfs it boots is every other step's.  Sets perf (perf_bundle).
bench_bins() {
	local p
	mkdir -p "$BUILD/bench-bin"
	for p in pagefault forkexit workload bpfpair; do
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
