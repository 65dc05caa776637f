#!/bin/bash
# 'make survey': the page-flag budget of every configuration the issue names
# (results/pageflags.csv and .md), and the allocation tag counts and the
# sizes of the series' main objects of the kernels the project builds
# (results/tagcounts.csv and .md, results/objsize.csv and .md), and
# mm/slub.o after each patch of the series (results/objsize-series.csv).
#
# Environment:
#   SURVEY_DEFCONFIG=0  skip building x86_64 defconfig + profiling for its
#                       tag counts (a full build, 15-25 min on 2 cores; a
#                       finished build under build/survey/ is still counted)
#   SURVEY_ONLY=pageflags|tagcounts   run one half only
# Work directories: $BUILD/survey/ (one per configuration, kept as a cache).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/common.sh"
build_lock

sv=$BUILD/survey
res=$TOP/results
mkdir -p "$sv" "$res"
debcfg=${DEBIAN_CONFIGS:-/usr/src/linux-config-6.12}
# Debian's 7.3 configs, from the pinned linux-config-7.3 (private apt).
debcfg73=$BUILD/linux-config/usr/src/linux-config-$KSERIES
if [ ! -d "$debcfg73" ]; then
	deb=$("$TOP/scripts/apt-private.sh" "$KCFGPKG" "$KVER" "$KCFG_SHA256")
	mkdir -p "$BUILD/linux-config" && dpkg -x "$deb" "$BUILD/linux-config"
fi
only=${SURVEY_ONLY:-}
[ -f "$KSRC/.git/alloctag-series" ] || die "no patched source in $KSRC (run 'make source')"

# Stamp for every result row: project commit (+dirty when the survey
# scripts differ from it), date.
project_commit=$(git -C "$TOP" rev-parse --short=12 HEAD)
git -C "$TOP" diff --quiet HEAD -- scripts/survey scripts/link-tags kernel/configs ||
	project_commit="$project_commit-dirty"
today=$(date -u +%Y-%m-%d)
export SURVEY_PROJECT_COMMIT=$project_commit SURVEY_DATE=$today

# What-if changes on Debian amd64: scripts/config operations, then what
# each costs (text built from the values, so it cannot drift from them).
whatif_cost() {
	local op cost="" v
	for op in "$@"; do
		case "$op" in
		NUMA_BALANCING=n) v="no automatic NUMA balancing (pages and tasks are no longer migrated toward the node using them; nothing lost on a one-node machine)" ;;
		NODES_SHIFT=*) v="at most $((1 << ${op#*=})) NUMA nodes (Debian: $((1 << base_nodes_shift)))" ;;
		NR_CPUS=$base_nr_cpus) v="still $base_nr_cpus CPUs" ;;
		NR_CPUS=*) v="at most ${op#*=} CPUs (Debian: $base_nr_cpus)" ;;
		MAXSMP=n) v="MAXSMP off (with it on, Kconfig fixes NR_CPUS at $base_nr_cpus and NODES_SHIFT at $base_nodes_shift)" ;;
		DEBUG_PER_CPU_MAPS=y) v="DEBUG_PER_CPU_MAPS on (runtime checks on per-cpu accesses): without MAXSMP, the only way Kconfig allows cpumasks off stack and so more than 512 CPUs" ;;
		CPUMASK_OFFSTACK=y) continue ;;
		LRU_GEN=n) v="no multi-gen LRU (reclaim uses the classic active/inactive lists)" ;;
		*) die "no cost text for '$op'" ;;
		esac
		cost="${cost:+$cost; }$v"
	done
	echo "$cost"
}
apply_ops() {
	local file=$1 op; shift
	for op in "$@"; do
		case "$op" in
		*=n) "$KSRC/scripts/config" --file "$file" --disable "${op%=n}" ;;
		*=y) "$KSRC/scripts/config" --file "$file" --enable "${op%=y}" ;;
		*=*) "$KSRC/scripts/config" --file "$file" --set-val "${op%%=*}" "${op#*=}" ;;
		esac
	done
}

pf_header="config,base,changes,cost,bits_per_long,sections_width,nodes_shift,nodes_width,zones_width,nr_cpus,nr_cpus_bits,last_cpupid_shift,last_cpupid_width,last_cpupid_in_flags,kasan_tag_width,lru_gen_width,lru_refs_wanted,lru_refs_width,nr_pageflags,spare_bits,compact_index_bits,fixups,olddefconfig_changed,olddefconfig_symbols,kernel_version,source_commit,project_commit,date"

# survey_row NAME BASE-DESCRIPTION CONFIG-FILE CHANGES COST
survey_row() {
	local name=$1 base=$2 cfg=$3 changes=$4 cost=$5 out=$sv/pf-$1 kv
	pageflags_sh "$cfg" "$out" >"$sv/pf-$name.txt" || die "$name: pageflags.sh failed"
	kv() { sed -n "s/^$1=//p" "$sv/pf-$name.txt"; }
	local in_flags=yes
	[ "$(kv last_cpupid_not_in_page_flags)" = 0 ] || in_flags=no
	[ "$(kv last_cpupid_shift)" != 0 ] || in_flags=n/a
	csv_row "$name" "$base" "$changes" "$cost" \
		"$(kv bits_per_long)" "$(kv sections_width)" "$(kv nodes_shift)" \
		"$(kv nodes_width)" "$(kv zones_width)" "$(kv config_nr_cpus)" \
		"$(kv nr_cpus_bits)" "$(kv last_cpupid_shift)" "$(kv last_cpupid_width)" \
		"$in_flags" "$(kv kasan_tag_width)" "$(kv lru_gen_width)" \
		"$(kv lru_refs_wanted)" "$(kv lru_refs_width)" "$(kv nr_pageflags)" \
		"$(kv spare_bits)" "$(kv compact_index_bits)" "$(kv fixups)" \
		"$(kv olddefconfig_changed)" "$(kv olddefconfig_symbols)" \
		"$(kv kernel_version)" "$(kv source_commit)" "$project_commit" "$today" \
		>>"$pf_csv.tmp"
}
pageflags_sh() { "$TOP/scripts/survey/pageflags.sh" "$@"; }

run_pageflags() {
	pf_csv=$res/pageflags.csv
	echo "$pf_header" >"$pf_csv.tmp"
	local rows=(
		"debian-amd64|Debian linux-config-7.3 amd64|debian73:config.amd64_none_amd64.xz"
		"debian-cloud-amd64|Debian linux-config-7.3 cloud-amd64|debian73:config.amd64_none_cloud-amd64.xz"
		"debian-rt-amd64|Debian linux-config-7.3 rt-amd64|debian73:config.amd64_none_rt-amd64.xz"
		"debian-6.12-amd64|Debian 12 linux-config-6.12 amd64 (7.3 headers)|debian:config.amd64_none_amd64.xz"
		"debian-6.12-cloud-amd64|Debian 12 linux-config-6.12 cloud-amd64 (7.3 headers)|debian:config.amd64_none_cloud-amd64.xz"
		"debian-6.12-rt-amd64|Debian 12 linux-config-6.12 rt-amd64 (7.3 headers)|debian:config.amd64_rt_amd64.xz"
		"x86_64-defconfig|make ARCH=x86_64 defconfig|make:x86_64:defconfig"
		"x86_64-tinyconfig|make ARCH=x86_64 tinyconfig|make:x86_64:tinyconfig"
		"i386-tinyconfig|make tinyconfig (ARCH=x86 gives a 32-bit kernel)|make:x86:tinyconfig"
		"guest|tinyconfig + kernel/configs/guest.config + fork.config|guest:fork"
		"guest-distro|tinyconfig + guest.config + fork-distro.config (distro.config)|guest:fork-distro"
	)
	# What-ifs on Debian amd64: NAME|scripts/config operations.
	local whatifs=(
		"amd64-no-numa-balancing|NUMA_BALANCING=n"
		"amd64-no-lru-gen|LRU_GEN=n"
		"amd64-no-maxsmp-cpus-512|MAXSMP=n NR_CPUS=512"
		"amd64-no-maxsmp-cpus-64|MAXSMP=n NR_CPUS=64"
		"amd64-nodes-6-offstack|MAXSMP=n DEBUG_PER_CPU_MAPS=y CPUMASK_OFFSTACK=y NR_CPUS=8192 NODES_SHIFT=6"
		"amd64-cpus-512-nodes-6|MAXSMP=n NR_CPUS=512 NODES_SHIFT=6"
		"amd64-cpus-512-nodes-2|MAXSMP=n NR_CPUS=512 NODES_SHIFT=2"
		"amd64-cpus-64-nodes-2|MAXSMP=n NR_CPUS=64 NODES_SHIFT=2"
		"amd64-cpus-512-nodes-6-no-lru-gen|MAXSMP=n NR_CPUS=512 NODES_SHIFT=6 LRU_GEN=n"
	)
	local total=$(( ${#rows[@]} + ${#whatifs[@]} )) n=0 r name base how cfg
	for r in "${rows[@]}"; do
		n=$((n + 1))
		IFS='|' read -r name base how <<<"$r"
		log "pageflags $n/$total: $name"
		cfg=$(gen_config "$name" "$how")
		survey_row "$name" "$base" "$cfg" "" ""
	done
	base_nodes_shift=$(sed -n 's/^config_nodes_shift=//p' "$sv/pf-debian-amd64.txt")
	base_nr_cpus=$(sed -n 's/^config_nr_cpus=//p' "$sv/pf-debian-amd64.txt")
	local ops op got
	for r in "${whatifs[@]}"; do
		n=$((n + 1))
		IFS='|' read -r name ops <<<"$r"
		log "pageflags $n/$total: $name ($ops)"
		mkdir -p "$sv/gen-$name"
		cfg=$sv/gen-$name/.config
		xzcat "$debcfg73/config.amd64_none_amd64.xz" >"$cfg"
		# shellcheck disable=SC2086
		apply_ops "$cfg" $ops
		# shellcheck disable=SC2086
		survey_row "$name" "Debian 7.3 amd64 with changes" "$cfg" "$ops" "$(whatif_cost $ops)"
		# The change must have survived olddefconfig.
		for op in $ops; do
			got=$(sed -n "s/^CONFIG_${op%%=*}=//p" "$sv/pf-$name/.config")
			[ "${op#*=}" = "${got:-n}" ] ||
				die "$name: asked for $op, olddefconfig gave '${got:-n}'"
		done
	done
	mv "$pf_csv.tmp" "$pf_csv"
	log "wrote $pf_csv"
	# Known figures (REFERENCE.md): a mismatch is worth a look, not a stop.
	local spare
	spare=$(sed -n 's/^spare_bits=//p' "$sv/pf-debian-amd64.txt")
	[ "$spare" = "$(sed -n 's/^spare_bits=//p' "$sv/pf-guest-distro.txt")" ] ||
		die "distro.config leaves other spare bits than Debian amd64 ($spare)"
	spare=$(sed -n 's/^spare_bits=//p' "$sv/pf-guest.txt")
	log "guest config: $spare spare bits"
}

[ "$only" = tagcounts ] || run_pageflags
[ "$only" = pageflags ] || "$TOP/scripts/survey/tagcounts.sh"
[ "$only" = pageflags ] || "$TOP/scripts/survey/objsize.sh"
[ "$only" = pageflags ] || "$TOP/scripts/survey/objsize-series.sh"
log "done: results/pageflags.csv, results/tagcounts.csv, results/objsize.csv, results/objsize-series.csv; 'make report' writes the .md tables"
