# The form this boot expects (FORM, from the host) is the one in use,
# /proc/sys/vm says so in one word, and page_ext holds what it should for
# tagging: 8 bytes a page for pointer references, 2 for an index in
# page_ext, none for page flags.  FORM=off: profiling was switched off at
# boot (stock's compressed form without enough page flag bits).
set -eu
. /guest/ktap.sh
want=${FORM:-pointer}
if [ "$want" = off ]; then
	check "allocinfo absent" test ! -e /proc/allocinfo
	check "dmesg says profiling was switched off" \
		sh -c "dmesg | grep -q 'Memory allocation profiling is disabled'"
	ktap_done; exit
fi
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
f=/proc/sys/vm/mem_profiling_ref
compressed=$(cat /proc/sys/vm/mem_profiling_compressed)
if [ ! -e $f ]; then
	# stock 7.3: pointer, or its compressed form in page flags
	case $want in
	flags) check_eq "mem_profiling_compressed" 1 "$compressed" ;;
	*) check_eq "mem_profiling_compressed" 0 "$compressed" ;;
	esac
else
	check_eq "mem_profiling_ref names the form" "$want" "$(cat $f)"
	check_eq "mem_profiling_ref is one word" 1 "$(wc -w <$f)"
	case $want in
	pointer) check_eq "mem_profiling_compressed" 0 "$compressed" ;;
	*) check_eq "mem_profiling_compressed" 1 "$compressed" ;;
	esac
	# Pointer references are the default: the kernel says nothing then.
	if [ "$want" = pointer ]; then
		check "dmesg names no compressed form" \
			sh -c "! dmesg | grep -q 'page tag references:'"
	else
		check "dmesg says which form" \
			sh -c "dmesg | grep -q 'page tag references: $want,'"
	fi
fi

bytes=$(dmesg | sed -n 's/.*allocated \([0-9]*\) bytes of page_ext.*/\1/p')
# page_ext covers every page the zones span, up to whole sections (a DIMM
# left offline spans none); MemTotal, less what the kernel reserves, would
# depend on the config.
pages=$(awk '$1 == "spanned" { n += $2 } END { print n }' /proc/zoneinfo)
per_page() {
	[ -n "$bytes" ] && [ $((bytes / $1)) -ge $pages ] &&
		[ $((bytes / $1)) -le $((pages * 21 / 20)) ]
}
case $want in
pointer) check "page_ext: 8 bytes a page ($bytes)" per_page 8 ;;
page_ext) check "page_ext: 2 bytes a page ($bytes)" per_page 2 ;;
flags) check_eq "page_ext: none allocated" "" "$bytes" ;;
esac
ktap_done
