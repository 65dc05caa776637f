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


# survey_kernels: the guest kernels objsize.sh sizes and tagcounts.sh
# counts, one a line: those of the benchmark matrix's rows
# (benchmarks/matrix.txt), then the test kernels (the fork's, its distro
# variant and its arm64 build), each once.  Each is built from the tree
# before it is read (build_current).
survey_kernels() {
	{
		awk '!/^[ \t]*(#|$)/ { print $2 }' "$TOP/benchmarks/matrix.txt"
		printf '%s\n' fork fork-distro fork-arm64
	} | awk '!seen[$1]++'
}

# build_current KERNEL: bring $BUILD/kernel-KERNEL up to the tree
# (scripts/build-kernel.sh: seconds when it is), quietly.
build_current() {
	"$TOP/scripts/build-kernel.sh" "$1" >/dev/null ||
		die "building $1 failed (scripts/build-kernel.sh $1)"
}

# sizes OBJECT: "TEXT RODATA DATA BSS", bytes of its SHF_ALLOC sections;
# fails when readelf cannot read OBJECT
sizes() {
	local sections
	sections=$(readelf -S -W "$1") || return 1
	printf '%s\n' "$sections" | awk '
		function hex(h,   i, v) {
			v = 0
			for (i = 1; i <= length(h); i++)
				v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return v
		}
		/^ *\[ *[0-9]+\]/ {
			sub(/^ *\[ *[0-9]+\] */, "")
			n = split($0, f, " +")
			# Name Type Address Off Size ES [Flg] Lk Inf Al
			flg = n >= 10 ? f[7] : ""
			if (flg !~ /A/) next
			size = hex(f[5])
			if (f[2] == "NOBITS") bss += size
			else if (flg ~ /X/) text += size
			else if (flg ~ /W/) data += size
			else rodata += size
		}
		END { printf "%d %d %d %d\n", text, rodata, data, bss }'
}

# defconfig_inputs TREE: what the x86_64 defconfig + profiling build that
# tagcounts.sh counts is made from: the fork's git TREE (the whole series;
# a reworded series builds nothing new) and the one option it sets.
defconfig_inputs() {
	printf '%s\n' "$1" MEM_ALLOC_PROFILING | sha256sum | cut -c1-16
}
