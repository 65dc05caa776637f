# The benchmark scripts' shared part; sourced after scripts/lib.sh, never run.
#
# The matrix (benchmarks/matrix.txt, or $MATRIX): the one shell reader of
# it.  Sourcing checks every row and dies on a bad one, naming the line.
MATRIX=${MATRIX:-$TOP/benchmarks/matrix.txt}
[ -f "$MATRIX" ] || die "no matrix $MATRIX"
MATRIX_ROWS=$(awk -v f="$MATRIX" '
	/^[ \t]*(#|$)/ { next }
	NF < 7 { printf "%s:%d: want ROW KERNEL REF ENABLED PEER BASE BOOT-ARGS, found %d column(s)\n",
		f, NR, NF > "/dev/stderr"; bad = 1; next }
	seen[$1]++ { printf "%s:%d: row %s declared twice\n", f, NR, $1 > "/dev/stderr"; bad = 1 }
	{ print }
	END { exit bad }' "$MATRIX") || die "bad matrix $MATRIX"

# matrix_rows: every row, one a line: ROW KERNEL REF ENABLED PEER BASE ARGS...
matrix_rows() { printf '%s\n' "$MATRIX_ROWS"; }

# matrix_field ROW FIELD: one field of a row (kernel, ref, enabled, peer,
# base or args); dies if the matrix has no such row.
matrix_field() {
	local n
	case $2 in
	kernel) n=2 ;; ref) n=3 ;; enabled) n=4 ;; peer) n=5 ;; base) n=6 ;; args) n=7 ;;
	*) die "matrix_field: no field '$2'" ;;
	esac
	matrix_rows | awk -v r="$1" -v n=$n '$1 == r {
		if (n == 7) { for (i = 1; i < 7; i++) $i = ""; sub(/^ +/, "") } else $0 = $n
		print; found = 1 } END { exit !found }' || die "no row '$1' in $MATRIX"
}

# matrix_pairs: "ROW:PEER" for every row that names a stock peer.
matrix_pairs() { matrix_rows | awk '$5 != "-" { print $1 ":" $5 }'; }

# matrix_group BASE: the baseline row BASE and every row taken over it.
matrix_group() { matrix_rows | awk -v b="$1" '$1 == b || $6 == b { print $1 }'; }

# inputs_hash: sha256 of what a measurement measures, recorded beside its
# figures (the "inputs" column or header word) so that whether results are
# stale is decided against the tree, never by reading git history at
# render time.  It covers the patch series, the kernel configs and test
# modules, and the code that builds, boots and measures: benchmarks/ but the
# report (which only renders) and prose, and the scripts it runs.  Tracked
# files are hashed as they are in the work tree, edits included.
inputs_hash() {
	(cd "$TOP" && git ls-files -- kernel benchmarks ':(glob)scripts/*.sh' scripts/guest \
		scripts/cpio-normalize.py scripts/link-tags/link-tags.c |
		grep -v -e '^benchmarks/report/' -e '\.md$' -e '^kernel/patches/series$' | LC_ALL=C sort |
		while read -r f; do
			[ -f "$f" ] || continue
			case $f in
			# A patch's code, not its message: rewording what a
			# patch says of its figures measures nothing new.
			kernel/patches/*.patch) echo patch; sed -n '/^diff --git /,$p' "$f" ;;
			*) printf '%s\n' "$f"; cat "$f" ;;
			esac
		done) |
		sha256sum | cut -c1-16
}

# run_stamp: what every result records of its run, in commit (the
# project's, "-dirty" when the tree differs from it), inputs (inputs_hash)
# and qemu (QEMU's version).  results/ is this job's output (make results
# writes it in steps), not its input: edits there leave commit clean.
run_stamp() {
	commit=$(git -C "$TOP" rev-parse --short HEAD)
	git -C "$TOP" diff --quiet HEAD -- . ':!results' || commit=$commit-dirty
	inputs=$(inputs_hash)
	qemu=$(qemu-system-x86_64 --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')
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
