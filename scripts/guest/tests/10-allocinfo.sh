# /proc/allocinfo: present and well-formed when profiling is built in,
# absent when it is compiled out.
set -eu
. /guest/ktap.sh
f=/proc/allocinfo
if [ "$VARIANT" = off ] || [ "${FORM:-}" = off ]; then
	check "allocinfo absent with profiling compiled out or off" test ! -e $f
	ktap_done; exit
fi
check "allocinfo present" test -r $f
# Stock 7.3 prints 2.0; the series adds markers up to those of 2.3.
case $VARIANT in
stock*) version=2.0 ;;
*) version=2.3 ;;
esac
check_eq "header line 1" "allocinfo - version: $version" "$(sed -n 1p $f)"
check_eq "header line 2" "#     <size>  <calls> <tag info>" "$(sed -n 2p $f)"
# size, calls, file:line, optional [module], func:name, optional key:value
# suffixes (" accurate:no"), one trailing space.
bad=$(sed 1,2d $f | grep -Evc \
	'^ *-?[0-9]+ +[0-9]+ [^ :]+:[0-9]+ (\[[^] ]+\] )?func:[^ ]+( [a-z]+:[a-z]+)* $' || true)
check_eq "every tag line well-formed" 0 "$bad"
# File names relative to the source tree, as a stock build prints them.
check "file names are relative to the source tree" \
	sh -c "grep -q ' mm/page_alloc.c:[0-9]* ' $f && ! grep -q ' [./][^ ]*:[0-9]* ' $f"
check "has more than 100 tags" test "$(sed 1,2d $f | wc -l)" -gt 100
check "some tag has bytes allocated" \
	awk 'NR > 2 && $1 > 0 { found = 1 } END { exit !found }' $f
ktap_done
