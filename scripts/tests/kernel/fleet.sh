#!/bin/bash
# A fleet, end to end: two guests of VARIANT (one in the page-flags form,
# one in the pointer form) each serve alloctop's metrics file (-o
# prometheus, the Prometheus text format) over QEMU's user network
# (scripts/guest/fleet-node), and Prometheus' own server (Debian's,
# scripts/prometheus-deb.sh) scrapes both.  One PromQL
# query through its HTTP API sums alloctest_pages' bytes across the fleet:
# the sum must equal what the two guests' /proc/allocinfo said, and on
# kernels that keep totals, the sum of alloc_tag_allocations_total what
# they say they allocated.
# Usage: scripts/tests/kernel/fleet.sh LOGDIR [VARIANT]   (default: fork)
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

logdir=${1:?usage: fleet.sh LOGDIR [VARIANT]}
v=${2:-fork}
grep -q '^CONFIG_VIRTIO_NET=y' "$BUILD/kernel-$v/.config" 2>/dev/null ||
	{ echo "kernel-$v has no virtio-net (kernel/configs/fleet.config)"; exit 2; }
bin=$("$TOP/scripts/prometheus-deb.sh")
dir=$logdir/fleet
rm -rf "$dir" && mkdir -p "$dir"

pids=() qpids=()
cleanup() {
	local p
	for p in "${qpids[@]}"; do [ ! -f "$p" ] || kill "$(cat "$p")" 2>/dev/null || true; done
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup EXIT

# node NAME PAGES PORT KERNEL-ARGS: boot one guest in the background.
node() {
	QEMU_EXTRA="-netdev user,id=n0,hostfwd=tcp:127.0.0.1:$3-:80 -device virtio-net-pci,netdev=n0 -pidfile $dir/$1.pid" \
		"$TOP/scripts/boot.sh" -k "$v" -q -t 400 -o "$dir/$1" ${4:+-A "$4"} \
		-- sh /guest/fleet-node "$2" 300 >"$dir/$1.out" 2>&1 &
	pids+=($!) qpids+=("$dir/$1.pid")
}
p1=$(free_port) p2=$(free_port)
node flags 8 "$p1" "sysctl.vm.mem_profiling=1,compressed"
# The second boot once the first's initramfs is made: they share the
# build of its programs.
i=0
until [ -f "$dir/flags/initramfs.cpio" ] || [ $i -gt 300 ]; do sleep 1; i=$((i + 1)); done
node pointer 5 "$p2" ""

# Each guest's own figure, once it serves.
want=0 want_calls=0 k=0
for n in flags pointer; do
	i=0
	until grep -q '^@@FLEET allocinfo ' "$dir/$n/guest.log" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 400 ] || ! kill -0 "${pids[$k]}" 2>/dev/null; then
			echo "guest $n never served (its log: $dir/$n/guest.log, console: $dir/$n/console.log)"
			tail -5 "$dir/$n.out" "$dir/$n/console.log" 2>/dev/null || true
			exit 1
		fi
		sleep 1
	done
	k=$((k + 1))
	b=$(sed -n 's/^@@FLEET allocinfo \([0-9]*\).*/\1/p' "$dir/$n/guest.log" | head -1)
	echo "guest $n: /proc/allocinfo says alloctest_pages holds $b bytes"
	want=$((want + b))
	c=$(sed -n 's/^@@FLEET allocated \([0-9]*\).*/\1/p' "$dir/$n/guest.log" | head -1)
	# (a guest without the totals: no sum of them is checked)
	if [ -z "$c" ]; then
		want_calls=""
	elif [ -n "$want_calls" ]; then
		echo "guest $n: and says it allocated $c pages there since alloctest's load"
		want_calls=$((want_calls + c))
	fi
done

pp=$(free_port)
cat >"$dir/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: alloctop
    static_configs:
      - targets: ['127.0.0.1:$p1', '127.0.0.1:$p2']
YML
"$bin/promtool" check config "$dir/prometheus.yml" >"$dir/promtool.log" 2>&1 ||
	{ cat "$dir/promtool.log"; exit 1; }
"$bin/prometheus" --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/tsdb" \
	--web.listen-address="127.0.0.1:$pp" >"$dir/prometheus.log" 2>&1 &
pids+=($!)

# query PROMQL: the value of an instant query's single result ("" if none).
query() {
	python3 - "http://127.0.0.1:$pp/api/v1/query" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
try:
    with urllib.request.urlopen(url, timeout=5) as r:
        res = json.load(r)["data"]["result"]
except OSError:
    res = []
print(res[0]["value"][1] if len(res) == 1 else "")
PY
}
i=0 got=""
q='sum(alloc_tag_bytes{function="alloctest_pages"})'
until [ "$(query 'count(up == 1)')" = 2 ] && got=$(query "$q") && [ -n "$got" ] &&
	[ "$(query "count(alloc_tag_bytes{function=\"alloctest_pages\"})")" = 2 ]; do
	i=$((i + 1))
	if [ $i -gt 120 ]; then
		echo "Prometheus never scraped both guests (targets up: '$(query 'count(up == 1)')'; log: $dir/prometheus.log)"
		tail -5 "$dir/prometheus.log"
		exit 1
	fi
	sleep 1
done
echo "Prometheus: $q = $got"
[ "$got" = "$want" ] || { echo "the fleet's sum $got is not the guests' $want"; exit 1; }
# The counters of what was allocated, where both kernels keep them
if [ -n "$want_calls" ]; then
	q='sum(alloc_tag_allocations_total{function="alloctest_pages"})'
	got=$(query "$q")
	echo "Prometheus: $q = $got"
	[ "$got" = "$want_calls" ] ||
		{ echo "the fleet's allocations $got are not the guests' $want_calls"; exit 1; }
fi
echo "fleet: 2 guests scraped; their sum is what their /proc/allocinfo says ($want bytes)"
