# alloctop -o openmetrics: its samples against the same counters read as
# text, summed with awk; -o prometheus: the same samples in the Prometheus
# text format; -w FILE replaced whole at each update in either, with no
# temporary left behind.  Both are printed for the host too, as
# "# openmetrics: " and "# prometheus: " lines, where
# scripts/tests/kernel/openmetrics.sh reads each with a parser of its
# format (promtool for the Prometheus one) and checks the build_id label
# against vmlinux's.
set -eu
. /guest/ktap.sh
at=/guest/progs/alloctop
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
[ -x $at ] || { diag "no $at (the kernel source has no tools/mm/alloctop.c)"; exit 2; }
$at -o openmetrics -i /dev/null >/dev/null 2>&1 || { diag "this alloctop has no openmetrics output"; exit 2; }
ctl=/sys/kernel/debug/alloctest/ctl

check "load alloctest" insmod /modules/alloctest.ko
echo "pages 0 8" >$ctl
om=$($at -o openmetrics -n 1 -l 0 -m alloctest)
check_eq "alloctest_pages' bytes sample" 32768 \
	"$(echo "$om" | awk '/^alloc_tag_bytes\{/ && /function="alloctest_pages"/ { print $NF }')"
check_eq "and its calls sample" 8 \
	"$(echo "$om" | awk '/^alloc_tag_calls\{/ && /function="alloctest_pages"/ { print $NF }')"
# (but the file label: the ioctl keeps the last 63 bytes of a name; and
# the index: the text has none)
nofile() { sed -e 's/,file="[^"]*"//' -e 's/,index="[0-9]*"//'; }
# (and on a kernel that keeps totals, with the text's suffix asked for: the
# same counters of what was allocated)
totals=/proc/sys/vm/mem_profiling_totals
[ ! -e $totals ] || echo 1 >$totals
$at -o openmetrics -n 1 -l 0 -m alloctest | nofile >/tmp/om-ioctl.txt
$at -o openmetrics -n 1 -l 0 -t -m alloctest | nofile >/tmp/om-text.txt
[ ! -e $totals ] || echo 0 >$totals
check "the text gives the same samples" cmp -s /tmp/om-ioctl.txt /tmp/om-text.txt
if [ -e $totals ]; then
	check_eq "with the totals: alloctest_pages' counter" 32768 \
		"$(awk '/^alloc_tag_allocated_bytes_total\{/ && /function="alloctest_pages"/ { print $NF }' /tmp/om-text.txt)"
	# (a counter family named without _total in OpenMetrics, by its
	# samples' name in the Prometheus format)
	check_eq "OpenMetrics: the counter family's name" \
		"# TYPE alloc_tag_allocated_bytes counter" \
		"$(grep '^# TYPE alloc_tag_allocated_bytes' /tmp/om-ioctl.txt)"
	check_eq "Prometheus text: the counter's TYPE" \
		"# TYPE alloc_tag_allocated_bytes_total counter" \
		"$($at -o prometheus -n 1 -l 0 -m alloctest | grep '^# TYPE alloc_tag_allocated_bytes')"
fi
check_eq "the last line is # EOF" "# EOF" "$(echo "$om" | tail -1)"

# A saved copy, every site: one sample a name (sites of one name summed),
# the same sums as awk's, no label set twice.
cat /proc/allocinfo >/tmp/ai.txt
$at -o openmetrics -i /tmp/ai.txt -l 0 >/tmp/om.txt
sites() { awk 'NR > 2 && $1 ~ /^-?[0-9]+$/' /tmp/ai.txt; }
names=$(sites | awk '{ m = ($4 ~ /^\[/) ? $4 : "[kernel]"; f = $NF; for (i = 4; i <= NF; i++) if ($i ~ /^func:/) f = $i; print m, $3, f }' | sort -u | wc -l)
check_eq "one bytes sample a site name" "$names" "$(grep -c '^alloc_tag_bytes{' /tmp/om.txt)"
check_eq "one calls sample a site name" "$names" "$(grep -c '^alloc_tag_calls{' /tmp/om.txt)"
check_eq "bytes sum to the text's" "$(sites | awk '{ s += $1 } END { print s }')" \
	"$(awk '/^alloc_tag_bytes\{/ { s += $NF } END { print s }' /tmp/om.txt)"
check_eq "calls sum to the text's" "$(sites | awk '{ s += $2 } END { print s }')" \
	"$(awk '/^alloc_tag_calls\{/ { s += $NF } END { print s }' /tmp/om.txt)"
check_eq "no label set twice" "" "$(grep '^alloc_tag_' /tmp/om.txt | sed 's/ [^ ]*$//' | sort | uniq -d)"
# -o prometheus: the same samples, the counters typed by their samples'
# names, and no # UNIT or # EOF
$at -o prometheus -i /tmp/ai.txt -l 0 >/tmp/prom.txt
grep -v '^#' /tmp/om.txt >/tmp/om.samples
grep -v '^#' /tmp/prom.txt >/tmp/prom.samples
check "-o prometheus: the samples of -o openmetrics" cmp -s /tmp/om.samples /tmp/prom.samples
check_eq "-o prometheus: no # UNIT or # EOF" 0 "$(grep -cE '^# (UNIT|EOF)' /tmp/prom.txt || true)"
check_eq "-g module: one sample a module" \
	"$(sites | awk '{ print ($4 ~ /^\[/) ? $4 : "kernel" }' | sort -u | wc -l)" \
	"$($at -o openmetrics -i /tmp/ai.txt -l 0 -g module | grep -c '^alloc_tag_bytes{module=')"
# The ioctl gives each tag's index (the series'; stock 7.3 gives none): a
# label on every sample, no two tags alike, and the index the capture
# events give the tag.
case ${VARIANT:-} in stock*) stock=1 ;; *) stock=0 ;; esac
if [ $stock = 0 ]; then
	$at -o openmetrics -n 1 -l 0 >/tmp/om-all.txt
	check_eq "ioctl: an index label on every sample" \
		"$(grep -c '^alloc_tag_' /tmp/om-all.txt)" "$(grep -c '^alloc_tag_.*,index="[0-9]*"' /tmp/om-all.txt)"
	check_eq "ioctl: no index on two bytes samples" "" \
		"$(grep '^alloc_tag_bytes' /tmp/om-all.txt | grep -o 'index="[0-9]*"' | sort | uniq -d)"
	t=/sys/kernel/tracing
	[ -d $t/events ] || mount -t tracefs nodev $t 2>/dev/null || true
	if [ -d $t/events/alloc_tag ]; then
		$at -S capture -m alloctest -f alloctest_pages >/dev/null
		echo >$t/trace
		echo 1 >$t/events/alloc_tag/alloc_tag_mem_alloced/enable
		echo "pages 0 1" >$ctl
		echo 0 >$t/events/alloc_tag/alloc_tag_mem_alloced/enable
		$at -C capture -m alloctest -f alloctest_pages >/dev/null
		check_eq "alloctest_pages' index label is its capture events' idx" \
			"$(sed -n 's/.*alloc_tag_mem_alloced: idx=\([0-9]*\) function=alloctest_pages .*/\1/p' $t/trace | sort -u)" \
			"$($at -o openmetrics -n 1 -m alloctest -f alloctest_pages | sed -n 's/^alloc_tag_bytes.*,index="\([0-9]*\)".*/\1/p')"
	else
		skip "alloctest_pages' index label is its capture events' idx" "no alloc_tag events"
	fi
fi
id=$(echo "$om" | sed -n 's/.*build_id="\([^"]*\)".*/\1/p' | sort -u)
check "one build_id label, 40 hex digits" sh -c "echo '$id' | grep -qxE '[0-9a-f]{40}'"
check_eq "a saved copy has no build_id (not the running kernel's)" 'build_id=""' \
	"$(grep -o 'build_id="[^"]*"' /tmp/om.txt | sort -u)"

# -w: three updates two seconds apart into a directory of its own, 4
# pages more after the first.
held=$(tag_counters "func:alloctest_pages ")
held=${held% *}
mkdir -p /tmp/om
$at -o openmetrics -w /tmp/om/alloc.prom -d 2 -n 3 -m alloctest &
pid=$!
sleep 1
echo "pages 0 4" >$ctl
wait $pid
check_eq "-w: the file, and nothing else, in its directory" alloc.prom "$(ls /tmp/om)"
check_eq "-w: the last update's alloctest_pages, 4 pages more" $((held + 16384)) \
	"$(awk '/^alloc_tag_bytes\{/ && /function="alloctest_pages"/ { print $NF }' /tmp/om/alloc.prom)"
check_eq "-w: whole, to # EOF" "# EOF" "$(tail -1 /tmp/om/alloc.prom)"
check_eq "-w: readable by a collector of another user" "-rw-r--r--" \
	"$(ls -l /tmp/om/alloc.prom | cut -c1-10)"
$at -o prometheus -w /tmp/om/alloc.prom -n 1 -m alloctest
check_eq "-w -o prometheus: the file, and nothing else" alloc.prom "$(ls /tmp/om)"
check_eq "-w -o prometheus: alloctest_pages' bytes" $((held + 16384)) \
	"$(awk '/^alloc_tag_bytes\{/ && /function="alloctest_pages"/ { print $NF }' /tmp/om/alloc.prom)"
rc=0; $at -o openmetrics -n 1 -w /nonexistent/alloc.prom 2>/dev/null || rc=$?
check_eq "-w into a missing directory exits 1" 1 "$rc"
rc=0; $at -n 1 -w /tmp/om/alloc.prom 2>/dev/null || rc=$?
check_eq "-w without -o openmetrics or prometheus exits 2" 2 "$rc"
rc=0; $at -o xml -n 1 2>/dev/null || rc=$?
check_eq "an unknown -o format exits 2" 2 "$rc"

# For the host: the top sites, and alloctest's, as the kernel gives them,
# in each format.
$at -o openmetrics -n 1 -l 30 | sed 's/^/# openmetrics: /'
$at -o prometheus -n 1 -l 30 | sed 's/^/# prometheus: /'
echo free >$ctl
check "unload alloctest" rmmod alloctest
ktap_done
