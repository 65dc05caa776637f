# /proc/allocinfo: present and well-formed when profiling is built in,
# absent when it is compiled out.
set -eu
. /guest/ktap.sh
f=/proc/allocinfo
if [ "$VARIANT" = off ]; then
	check "allocinfo absent with profiling compiled out" test ! -e $f
	ktap_done; exit
fi
check "allocinfo present" test -r $f
check_eq "header line 1" "allocinfo - version: 1.0" "$(sed -n 1p $f)"
check_eq "header line 2" "#     <size>  <calls> <tag info>" "$(sed -n 2p $f)"
# size, calls, file:line, optional [module], func:name, one trailing space.
bad=$(sed 1,2d $f | grep -Evc \
	'^ *-?[0-9]+ +[0-9]+ [^ :]+:[0-9]+ (\[[^] ]+\] )?func:[^ ]+ $' || true)
check_eq "every tag line well-formed" 0 "$bad"
check "has more than 100 tags" test "$(sed 1,2d $f | wc -l)" -gt 100
check "some tag has bytes allocated" \
	awk 'NR > 2 && $1 > 0 { found = 1 } END { exit !found }' $f
ktap_done
