#!/bin/bash
# Where each fork row's boot spends its instructions against its stock
# peer ('make bootprof', part of 'make results').  Boots every row of
# benchmarks/matrix.txt that names a stock peer, and each peer, under QEMU TCG with -icount and the insnprof plugin
# (benchmarks/qemu-plugins/insnprof.c), which counts every kernel instruction
# executed until run_init_process() first runs, i.e. up to /init.  The
# counts, folded into functions with the kernel's symbol table, are kept in
# results/bootprof/ROW.tsv (raw data, with the inputs hash of what it
# measured); 'make report' writes results/bootprof/README.md from them.
# Each row boots twice and the two profiles must be identical.  A row
# whose profile was taken on its present inputs (row_inputs,
# benchmarks/lib.sh) is kept.
# Environment: PAIRS ("fork:stock ..." row pairs; default every row of the
# matrix with a peer), ROWS (of those rows, the ones to profile whatever
# results/ holds), FULL=1 (all of them), BOOT_MEM (default 1G), RESULTS,
# MATRIX, NO_BUILD=1.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../lib.sh"
build_lock
here=$TOP/benchmarks/bootprof
RESULTS=${RESULTS:-$TOP/results}
BOOT_MEM=${BOOT_MEM:-1G}
PAIRS=${PAIRS:-$(matrix_pairs)}
out=$RESULTS/bootprof
rows=$(for p in $PAIRS; do echo "${p%%:*}"; echo "${p#*:}"; done | awk '!seen[$0]++')

for r in $rows; do
	matrix_field "$r" kernel >/dev/null
done
export INITRAMFS_BENCH=1
# bootprof_current ROW INPUTS: ROW's profile was taken on INPUTS.
bootprof_current() { grep -qs "^# .* inputs=$2 " "$out/$1.tsv"; }
rows=$(rows_wanted bootprof bootprof_current $rows)
[ -n "$rows" ] || { log "bootprof: every row's profile is current (FULL=1 profiles again)"; exit 0; }

if [ "${NO_BUILD:-0}" != 1 ]; then
	"$TOP/scripts/kernel-src.sh"
	for k in $(for r in $rows; do matrix_field "$r" kernel; done | sort -u); do
		"$TOP/scripts/build-kernel.sh" "$k"
	done
fi
log "building the insnprof plugin"
rc=0
"$TOP/benchmarks/qemu-plugins/build.sh" >/dev/null || rc=$?
[ $rc = 2 ] && die "the QEMU plugin header could not be downloaded; no boot profile"
[ $rc = 0 ] || die "benchmarks/qemu-plugins/build.sh failed (exit $rc)"
plugin=$BUILD/qemu-plugins/insnprof.so

run_stamp
mkdir -p "$out"

n=0 total=$(echo $rows | wc -w)
for row in $rows; do
	n=$((n + 1))
	kernel=$(matrix_field "$row" kernel)
	args=$(matrix_field "$row" args)
	inputs=$(row_inputs "$row")
	kb=$BUILD/kernel-$kernel
	stop=$(awk '$3 == "run_init_process" { print $1 }' "$kb/System.map")
	[ -n "$stop" ] || die "$kb/System.map has no run_init_process"
	logdir=$BUILD/bootprof/$row
	rm -rf "$logdir" && mkdir -p "$logdir"
	append=(-A nolapic_timer)
	[ "$args" = - ] || append+=(-A "$args")
	for i in 1 2; do
		log "[$n/$total] $row: kernel $kernel, $BOOT_MEM, boot $i/2 under insnprof"
		QEMU_EXTRA="-plugin $plugin,out=$logdir/prof-$i,min=ffffffff80000000,stop=$stop" \
			"$TOP/scripts/boot.sh" -k "$kernel" -m "$BOOT_MEM" -s 1 -a tcg -i -q -t 900 \
			-o "$logdir/boot-$i" "${append[@]}" -- true >/dev/null 2>"$logdir/boot-$i.err" ||
			{ cat "$logdir/boot-$i.err" >&2; die "$row: boot $i failed; logs in $logdir/boot-$i"; }
		[ -s "$logdir/prof-$i" ] ||
			{ cat "$logdir/boot-$i.err" >&2; die "$row: insnprof wrote no profile (run_init_process at $stop never ran?)"; }
	done
	cmp -s "$logdir/prof-1" "$logdir/prof-2" ||
		die "$row: the two icount boots ran different instructions ($logdir/prof-1, prof-2)"
	{
		echo "# row=$row kernel_variant=$kernel boot_args=$args mem=$BOOT_MEM"
		echo "# linux=$(cat "$kb/include/config/kernel.release") qemu=$qemu accel=tcg icount=shift=0,sleep=off commit=$commit inputs=$inputs date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "# kernel instructions executed from reset until run_init_process(), by function: function<TAB>instructions"
		python3 "$here/fold.py" "$kb/System.map" "$logdir/prof-1"
	} >"$out/$row.tsv.tmp"
	mv "$out/$row.tsv.tmp" "$out/$row.tsv"
	log "$row: $(awk -F'\t' '!/^#/ { s += $2 } END { print s }' "$out/$row.tsv") kernel instructions to /init"
done
log "wrote $out/*.tsv; 'make report' writes $out/README.md"
