# The representation this boot asked for is the one in use, and page_ext
# holds what it should for tagging: 8 bytes a page for pointer, 2 for
# compact-ext, none for compact.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
want=${BOOT:-pointer}
f=/proc/sys/vm/mem_profiling_ref
if [ ! -e $f ]; then
	check_eq "stock kernel: pointer references" pointer "$want"
	ktap_done; exit
fi
diag "$(cat $f)"
check_eq "mem_profiling_ref names the representation" "$want" "$(cut -d' ' -f1 $f)"
check "dmesg says which representation" \
	sh -c "dmesg | grep -q 'alloc_tag: page tag references: $want'"

bytes=$(dmesg | sed -n 's/.*allocated \([0-9]*\) bytes of page_ext.*/\1/p')
pages=$(( $(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 4 ))
# page_ext covers every spanned page: a little more than MemTotal.
per_page() {
	[ -n "$bytes" ] && [ $((bytes / $1)) -ge $pages ] &&
		[ $((bytes / $1)) -le $((pages * 21 / 20)) ]
}
case $want in
pointer) check "page_ext: 8 bytes a page ($bytes)" per_page 8 ;;
compact-ext) check "page_ext: 2 bytes a page ($bytes)" per_page 2 ;;
compact) check_eq "page_ext: none allocated" "" "$bytes" ;;
esac
ktap_done
