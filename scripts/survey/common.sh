# Helpers shared by the survey scripts; sourced after scripts/lib.sh.
# Needs: $KSRC, $TOP, $sv (work directory), $debcfg (Debian configs).

csv_field() {
	case "$1" in
	*[,\"]*) printf '"%s"' "$(printf '%s' "$1" | sed 's/"/""/g')" ;;
	*) printf '%s' "$1" ;;
	esac
}
csv_row() {
	local first=1 f
	for f in "$@"; do
		[ $first = 1 ] || printf ','
		csv_field "$f"
		first=0
	done
	printf '\n'
}

# gen_config NAME HOW: write $sv/gen-NAME/.config and print its path.
#   HOW: debian:FILE (6.12) | debian73:FILE | make:ARCH:TARGET |
#        guest:VARIANT (tinyconfig + the variant's fragments, as build-kernel.sh)
gen_config() {
	local name=$1 how=$2 g=$sv/gen-$1
	mkdir -p "$g"
	case "$how" in
	debian:*)
		local f=$debcfg/${how#debian:}
		[ -f "$f" ] || die "$f missing (package linux-config-6.12: 'scripts/deps.sh results')"
		xzcat "$f" >"$g/.config"
		;;
	debian73:*)
		local f=$debcfg73/${how#debian73:}
		[ -f "$f" ] || die "$f missing (linux-config-$KSERIES not unpacked)"
		xzcat "$f" >"$g/.config"
		;;
	make:*)
		local arch=${how#make:}; arch=${arch%%:*}
		make -s -C "$KSRC" O="$g" ARCH="$arch" "${how##*:}" >"$g/gen.log" 2>&1 ||
			{ tail "$g/gen.log" >&2; die "$name: make $how failed"; }
		;;
	guest:*)
		# As build-kernel.sh configures the variant (fragments and checks;
		# plain make: no ccache, no -j), in a subshell so that a failure
		# lands in gen.log and is shown from there.
		local fl frags
		fl=$(variant_fragments "${how#guest:}") || die "$name: no fragments"
		mapfile -t frags <<<"$fl"
		( kconfig_assemble "${how#guest:}" "$KSRC" "$g" -- "${frags[@]}" ) >"$g/gen.log" 2>&1 ||
			{ tail "$g/gen.log" >&2; die "$name: configuring ${how#guest:} failed"; }
		;;
	*) die "gen_config: unknown '$how'" ;;
	esac
	echo "$g/.config"
}


# objsize_kernels: the kernels objsize.sh sizes, one a line: those of the
# benchmark matrix's rows (benchmarks/matrix.txt), each once.
objsize_kernels() {
	awk '!/^[ \t]*(#|$)/ && !seen[$2]++ { print $2 }' "$TOP/benchmarks/matrix.txt"
}
