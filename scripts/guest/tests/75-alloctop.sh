# alloctop (tools/mm/alloctop.c in the series, built static by
# mkinitramfs.sh from the variant's source): every option against numbers
# this script computes itself, from alloctest's known allocations and from
# a saved copy of /proc/allocinfo summed with awk.  Its -S and -C options
# (per-tag flags) are checked in 72-tag-off and 73-capture.
set -eu
. /guest/ktap.sh
at=/guest/progs/alloctop
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
[ -x $at ] || { diag "no $at (the kernel source has no tools/mm/alloctop.c)"; exit 2; }
ctl=/sys/kernel/debug/alloctest/ctl

check "load alloctest" insmod /modules/alloctest.ko
echo "pages 0 8" >$ctl
# CSV columns: 3 bytes, 4 calls, 5/6 deltas, 9 module, 10 file, 12 function.
row() { grep '"alloctest_pages"' | cut -d, -f"$1"; }
check_eq "ioctl: alloctest_pages holds 8 pages" "32768,8" \
	"$($at -c -n 1 -l 0 -m alloctest -f alloctest_pages | row 3,4)"
check_eq "text: the same" "32768,8" \
	"$($at -c -n 1 -l 0 -t -m alloctest -f alloctest_pages | row 3,4)"
# (not the file column: the ioctl keeps the last 63 bytes of a name)
check_eq "the ioctl and the text agree on every alloctest site" \
	"$($at -c -n 1 -l 0 -t -m alloctest | cut -d, -f1,3-9,11-16)" \
	"$($at -c -n 1 -l 0 -m alloctest | cut -d, -f1,3-9,11-16)"
check_eq "--min-size leaves out sites below it" "" \
	"$($at -c -n 1 -l 0 -m alloctest -z 32769 | row 3)"

# Two updates a second apart; 4 more pages in between.
$at -c -n 2 -d 2 -m alloctest -f alloctest_pages >/tmp/at.csv &
sleep 1
echo "pages 0 4" >$ctl
wait $!
check_eq "second update: 12 pages, 4 more than the first" "2,49152,12,16384,4" \
	"$(grep '^2,' /tmp/at.csv | cut -d, -f1,3-6)"
check "its rate is the change over the interval" awk -F, \
	'$1 == 2 { exit !($7 > 0 && $7 <= 16384 && $2 >= 1.5 && $2 <= 10) }' /tmp/at.csv

# Groups, sorting and filters on a saved copy, against awk on the same copy.
cat /proc/allocinfo >/tmp/ai.txt
sites() { awk 'NR > 2 && $1 ~ /^-?[0-9]+$/' /tmp/ai.txt; }
check_eq "-i: every site of the copy" "$(sites | wc -l)" \
	"$($at -c -i /tmp/ai.txt -l 0 | tail -n +2 | wc -l)"
want=$(sites | awk '{ f = $3; sub(/:[0-9]+$/, "", f); split(f, p, "/"); b[p[1]] += $1 } END { for (d in b) print d "," b[d] }' | sort)
check_eq "-g dir: bytes by top-level directory" "$want" \
	"$($at -c -i /tmp/ai.txt -l 0 -g dir | tail -n +2 | awk -F, '{ gsub(/"/, "", $9); print $9 "," $3 }' | sort)"
want=$(sites | awk '{ m = ($4 ~ /^\[/) ? substr($4, 2, length($4) - 2) : "kernel"; b[m] += $1 } END { for (x in b) print x "," b[x] }' | sort)
check_eq "-g module: bytes by module" "$want" \
	"$($at -c -i /tmp/ai.txt -l 0 -g module | tail -n +2 | awk -F, '{ gsub(/"/, "", $9); print $9 "," $3 }' | sort)"
check_eq "-s bytes: largest first, -l 5: five" "$(sites | sort -k1,1nr | head -5 | awk '{ print $1 }')" \
	"$($at -c -i /tmp/ai.txt -l 5 | tail -n +2 | cut -d, -f3)"
check_eq "-s calls: most calls first" "$(sites | sort -k2,2nr | head -5 | awk '{ print $2 }')" \
	"$($at -c -i /tmp/ai.txt -l 5 -s calls | tail -n +2 | cut -d, -f4)"
check_eq "-m kernel: vmlinux sites only" "$(sites | grep -vc ' \[' || true)" \
	"$($at -c -i /tmp/ai.txt -l 0 -m kernel | tail -n +2 | wc -l)"
check_eq "-z: sites of at least 1 MiB" "$(sites | awk '$1 >= 1048576' | wc -l)" \
	"$($at -c -i /tmp/ai.txt -l 0 -z 1048576 | tail -n +2 | wc -l)"
check_eq "-F: mm/slub.c's sites, and only those" \
	"$(sites | awk '$3 ~ /^mm\/slub\.c:/' | wc -l) \"mm/slub.c\"" \
	"$($at -c -i /tmp/ai.txt -l 0 -F mm/slub.c | tail -n +2 | cut -d, -f10 | uniq -c | awk '{ print $1, $2 }')"
# A file name longer than the ioctl's 63 bytes: its last 63, as the ioctl
# mode shows it, select it in text mode too.
long=drivers/a/very/deeply/nested/directory/of/some/driver/with/a/long/name.c
printf '%12d %8d %s:7 func:long_name_site \n' 4096 1 $long >>/tmp/ai.txt
tail63=$(printf %s $long | tail -c 63)
check_eq "-F with a name's last 63 bytes selects it in text mode too" "1" \
	"$($at -c -i /tmp/ai.txt -l 0 -F "$tail63" | tail -n +2 | wc -l)"
check "-b: a plain table with a header" sh -c "$at -b -n 1 -l 3 | grep -q '^ *BYTES *CALLS'"
check "--help says how to use it and exits 0" sh -c "$at --help | grep -q '^usage: alloctop'"
rc=0; $at --no-such-option 2>/dev/null || rc=$?
check_eq "a bad option exits 2" 2 "$rc"
rc=0; $at -l many 2>/dev/null || rc=$?
check_eq "a bad value exits 2" 2 "$rc"
rc=0; $at -i /nonexistent 2>/dev/null || rc=$?
check_eq "an unreadable input exits 1" 1 "$rc"
for d in nan inf 1e300 0; do
	rc=0; $at -b -n 1 -d $d >/dev/null 2>&1 || rc=$?
	check_eq "-d $d exits 2" 2 "$rc"
done
check_eq "-m kernel: vmlinux's sites only, alloctest's left out" '"kernel"' \
	"$($at -c -n 1 -l 0 -m kernel | tail -n +2 | cut -d, -f9 | sort -u)"
echo free >$ctl
check "unload alloctest" rmmod alloctest
ktap_done
