# Shared settings for the project's scripts; sourced, never run.
# Every path can be overridden from the environment (the Makefile passes them).
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/alloctag-fork}
# Kernel trees and builds live in the cache, at a path that does not depend
# on the checkout: every compiler command line carries the source tree's
# absolute path (-I, -fmacro-prefix-map), so a tree under the checkout
# would miss ccache and rebuild from nothing in every new clone.  make test
# takes build_lock, so that two clones' runs do not share it at once.
BUILD=${BUILD:-$CACHE/build}
JOBS=${JOBS:-$(nproc)}
# The kernel source: Debian's package, pinned.  To move to another version,
# set KVER and both sha256 sums (apt-cache show prints them as SHA256).
KVER=${KVER:-7.3.4-1~bpo13+1}
KSRC_SHA256=${KSRC_SHA256:-703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3}
KCFG_SHA256=${KCFG_SHA256:-1161d8946bd74094857fc1950da809a14e1b3aafe4f3defbec83150520e3e82c}
KSERIES=7.3
KPKG=linux-source-$KSERIES
KCFGPKG=linux-config-$KSERIES
# Debian suite that serves KPKG, fetched through a private apt
# configuration under $CACHE/apt: the machine's apt sources stay untouched.
KSUITE=${KSUITE:-trixie-backports}
# The trees of one tarball: the fork (series applied; a git repo whose tag
# "pristine" is the untouched tree), stock (a worktree of pristine), fixes
# (a worktree of the fork at the head of posting A, the fixes: stock 7.3
# with the upstream fixes only), bootnum (the series with
# benchmarks/kernel/number-tags-at-boot.patch: tags numbered at boot
# instead of at link time, for the attribution rows only), and pretag (a
# worktree of the fork at the head of posting D, just before per-tag
# control: what per-tag control costs a kernel with no tag flagged).
# kernel/patches/series names the postings: a line "# posting X: TITLE"
# before the first patch of each.
FORK_SRC=${FORK_SRC:-$BUILD/fork}
STOCK_SRC=${STOCK_SRC:-$BUILD/stock}
FIXES_SRC=${FIXES_SRC:-$BUILD/fixes}
BOOTNUM_SRC=${BOOTNUM_SRC:-$BUILD/bootnum}
PRETAG_SRC=${PRETAG_SRC:-$BUILD/pretag}
FIXES_POSTING=A
# The identity of the fork tree's commits (git am's committer, and the
# series' author): a placeholder, which make rfc replaces by the poster's.
TREE_NAME="Alloctag Fork"
TREE_EMAIL="alloctag-fork@example.org"
PRETAG_POSTING=D
KSRC=${KSRC:-$FORK_SRC}

# apt_private DIR: a private apt configuration in DIR (DIR/sources.list,
# its own lists and cache); sets apt_opts for apt-get and apt-cache.  The
# machine's apt sources are never touched.
apt_private() {
	mkdir -p "$1/lists/partial" "$1/cache/archives/partial"
	apt_opts=(-o Dir::Etc::sourcelist="$1/sources.list" -o Dir::Etc::sourceparts=/nonexistent
		-o Dir::State::Lists="$1/lists" -o Dir::Cache="$1/cache"
		-o APT::Sandbox::User=root -o Debug::NoLocking=1)
}

# The Debian mirror the machine's own apt sources use (no trailing slash).
debian_mirror() {
	local m
	m=$(grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
		head -1 | tr -d ' ')
	m=${m:-http://deb.debian.org/debian}
	echo "${m%/}"
}

# checkpatch message types scripts/checkpatch.sh and make rfc ignore.
# CAMELCASE: scripts/link-tags.c uses the ELF type names of <elf.h> and
# elf-parse.h (Elf64_Shdr, Elf_Sym, ...), which checkpatch cannot know.
# UNKNOWN_COMMIT_ID: the tree is a release tarball with no history, so
# checkpatch cannot look up the commit a "Fixes:" tag names.
# FILE_PATH_CHANGES: checkpatch asks for a MAINTAINERS change with every
# new file, even one under a directory MAINTAINERS already lists; instead,
# scripts/checkpatch.sh checks that every file the series adds has an F:
# entry in the series' MAINTAINERS.
CHECKPATCH_IGNORE=CAMELCASE,UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES

# build_lock: hold $BUILD for this process and its children (waits, and
# says so, while another holds it).  make test and each step of make
# results take it, so that two clones' runs, or the steps of one
# 'make -j results', never build or boot one kernel at once.
build_lock() {
	mkdir -p "$BUILD"
	exec 9>"$BUILD/.lock"
	flock -n 9 && return
	log "waiting for the other run using $BUILD to finish"
	flock 9
}

log() { printf '[%s] %s\n' "${0##*/}" "$*" >&2; }
die() { printf '[%s] error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# free_port: a TCP port on 127.0.0.1 that nothing listens on (for QEMU's
# hostfwd and host-side servers).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Hash of the patch series (the list and every patch in it): the kernel
# tree records it once the series is applied, to notice edits.
series_hash() {
	(cd "$1" && cat series $(grep -v '^#' series | sed '/^$/d')) |
		sha256sum | cut -d' ' -f1
}

# tree_word VARIANT: the word of its fragment's "# tree:" line, or nothing.
tree_word() {
	sed -n 's/^# tree: *\([a-zA-Z-]*\).*/\1/p' "$TOP/kernel/configs/$1.config" | head -1
}

# The source tree a variant builds from: "# tree:
# stock|fixes|fork|bootnum|pretag|posting-X" in its fragment (posting-X:
# the fork at the head of posting X, in $BUILD/posting-X).
variant_tree() {
	local t
	t=$(tree_word "$1")
	case $t in
	stock) echo "$STOCK_SRC" ;;
	fixes) echo "$FIXES_SRC" ;;
	fork) echo "$FORK_SRC" ;;
	bootnum) echo "$BOOTNUM_SRC" ;;
	pretag) echo "$PRETAG_SRC" ;;
	posting-[A-Z]) echo "$BUILD/$t" ;;
	*) die "kernel/configs/$1.config names no '# tree: stock|fixes|fork|bootnum|pretag|posting-X'" ;;
	esac
}

# posting_end LETTER [SERIES]: how many patches of the series (default
# kernel/patches/series) come up to the end of posting LETTER.
posting_end() {
	awk -v want="$1" '
		/^# posting [A-Z]:/ { cur = substr($3, 1, 1); next }
		/^#/ || /^[[:space:]]*$/ { next }
		{ n++; if (cur == want) last = n }
		END { if (!last) exit 1; print last }' "${2:-${SERIES_DIR:-$TOP/kernel/patches}/series}"
}

# postings [SERIES]: the letters of the postings, in order.
postings() {
	sed -n 's/^# posting \([A-Z]\):.*/\1/p' "${1:-${SERIES_DIR:-$TOP/kernel/patches}/series}"
}

# tree_posting TREE: the posting whose head a tree made from the fork is at
# (TREE as a variant's "# tree:" line names it; bootnum is the whole series
# with a benchmark's patch on top).
tree_posting() {
	case $1 in
	fork | bootnum) postings | tail -1 ;;
	fixes) echo "$FIXES_POSTING" ;;
	pretag) echo "$PRETAG_POSTING" ;;
	posting-[A-Z]) echo "${1#posting-}" ;;
	*) die "no posting for a tree named '$1'" ;;
	esac
}

# posting_tree_id LETTER [DIR]: the git tree the series has at the head of
# posting LETTER, as DIR/trees (default kernel/patches/trees) records it:
# "LETTER TREE" a line, written by export-patches.sh and checked against
# the applied series by kernel-src.sh.  What a measured kernel takes of
# the series is its tree, not how the series is cut into patches or what
# their messages say.
posting_tree_id() {
	local d=${2:-${SERIES_DIR:-$TOP/kernel/patches}} id
	id=$(awk -v x="$1" '$1 == x { print $2 }' "$d/trees" 2>/dev/null)
	[ -n "$id" ] || die "$d/trees records no tree for posting $1: run 'make export-patches' in the fork's tree"
	echo "$id"
}

# trees_recorded [DIR]: dies unless DIR/trees records a tree for every
# posting of DIR/series: called before inputs are hashed, as a die within
# the hashing pipeline would go unnoticed.
trees_recorded() {
	local x d=${1:-${SERIES_DIR:-$TOP/kernel/patches}}
	for x in $(postings "$d/series"); do
		posting_tree_id "$x" "$d" >/dev/null
	done
}

# posting_commit LETTER: the fork's commit at the head of posting LETTER.
posting_commit() {
	local n c
	n=$(posting_end "$1") || die "kernel/patches/series has no posting $1"
	c=$(git -C "$FORK_SRC" rev-list --reverse pristine..HEAD | sed -n "${n}p")
	[ -n "$c" ] || die "the series in $FORK_SRC has fewer than $n patches (posting $1)"
	echo "$c"
}

# worktree_at DIR REV: DIR, a worktree of the fork's repository, checked
# out at REV (made when missing; local changes are dropped).
worktree_at() {
	if [ ! -f "$1/Makefile" ]; then
		rm -rf "$1"
		git -C "$FORK_SRC" worktree prune
		git -C "$FORK_SRC" worktree add -q --detach "$1" "$2"
	else
		git -C "$1" reset -q --hard "$2"
	fi
}

# posting_tree X DIR: DIR, a worktree of the fork at the head of posting X
# (checked out only when it is elsewhere).
posting_tree() {
	local want
	want=$(posting_commit "$1")
	[ "$(git -C "$2" rev-parse HEAD 2>/dev/null)" = "$want" ] && return
	log "checking out the series up to posting $1 in $2"
	worktree_at "$2" "$want"
}

# The series with a benchmark's own patch on top, in a worktree: rebuilt
# when the series or the patch changes.
bootnum_tree() {
	local patch=$TOP/benchmarks/kernel/number-tags-at-boot.patch want head
	head=$(git -C "$FORK_SRC" rev-parse HEAD)
	want="$head $(sha256sum <"$patch" | cut -c1-16)"
	[ "$(cat "$BOOTNUM_SRC/.alloctag-tree" 2>/dev/null)" = "$want" ] && return
	log "checking out the series with ${patch##*/} in $BOOTNUM_SRC"
	git -C "$BOOTNUM_SRC" am --abort >/dev/null 2>&1 || true
	rm -f "$BOOTNUM_SRC/.alloctag-tree"
	worktree_at "$BOOTNUM_SRC" "$head"
	if ! git -C "$BOOTNUM_SRC" am -q "$patch" >"$BUILD/git-am.log" 2>&1; then
		cat "$BUILD/git-am.log" >&2
		git -C "$BOOTNUM_SRC" am --abort >/dev/null 2>&1 || true
		die "${patch#"$TOP"/} does not apply on top of the series; refresh it"
	fi
	echo "$want" >"$BOOTNUM_SRC/.alloctag-tree"
}

# prepare_tree VARIANT: bring the worktree a variant builds from up to date
# with the fork, for the trees made from it (fixes, bootnum, pretag,
# posting-X); stock and fork are kernel-src.sh's.
prepare_tree() {
	local w
	w=$(tree_word "$1")
	case $w in
	stock | fork) ;;
	bootnum) bootnum_tree ;;
	*) posting_tree "$(tree_posting "$w")" "$(variant_tree "$1")" ;;
	esac
}

# The architecture a fragment builds for: its "# arch: NAME" line (Debian's
# and QEMU's spelling: arm64), x86_64 when it has none.
frag_arch() {
	local a
	a=$(sed -n 's/^# arch: *\([a-z0-9_]*\).*/\1/p' "$1" 2>/dev/null | head -1)
	echo "${a:-x86_64}"
}
# The architecture of a variant: its built .config when there is one (what
# was built), else its fragment.
variant_arch() {
	local cfg=$BUILD/kernel-$1/.config
	if [ -f "$cfg" ]; then
		if grep -q '^CONFIG_ARM64=y' "$cfg"; then echo arm64
		elif grep -q '^CONFIG_X86_32=y' "$cfg"; then echo i386
		else echo x86_64; fi
	else
		frag_arch "$TOP/kernel/configs/$1.config"
	fi
}
# The cross-compiler prefix for an architecture ("" natively: x86_64) and
# the Debian package that provides it; dies when it is not installed.
cross_prefix() {
	case $1 in
	x86_64) echo "" ;;
	arm64)
		command -v aarch64-linux-gnu-gcc >/dev/null ||
			die "no aarch64-linux-gnu-gcc: install gcc-aarch64-linux-gnu (scripts/deps.sh arm64)"
		echo aarch64-linux-gnu- ;;
	i386)
		command -v i686-linux-gnu-gcc >/dev/null ||
			die "no i686-linux-gnu-gcc: install gcc-i686-linux-gnu (scripts/deps.sh cross)"
		echo i686-linux-gnu- ;;
	s390x)
		command -v s390x-linux-gnu-gcc >/dev/null ||
			die "no s390x-linux-gnu-gcc: install gcc-s390x-linux-gnu (scripts/deps.sh cross)"
		echo s390x-linux-gnu- ;;
	*) die "unknown architecture '$1'" ;;
	esac
}
# The kernel image a variant's build leaves, relative to its build directory.
kernel_image() {
	case $1 in
	arm64) echo arch/arm64/boot/Image ;;
	*) echo arch/x86/boot/bzImage ;;
	esac
}

# variant_fragments VARIANT: the config fragments of a variant, one path a
# line, in merge order (a later fragment wins): guest.config and
# guest-ARCH.config when the variant's architecture has a guest (ARCH from
# its "# arch:" line), each fragment its "# with:" line names, the
# variant's own last.  Without a guest-ARCH.config the variant stands alone
# over that architecture's tinyconfig (built, never booted).
variant_fragments() {
	local frag=$TOP/kernel/configs/$1.config arch w
	[ -f "$frag" ] || die "no config fragment kernel/configs/$1.config"
	arch=$(frag_arch "$frag")
	if [ -f "$TOP/kernel/configs/guest-$arch.config" ]; then
		echo "$TOP/kernel/configs/guest.config"
		echo "$TOP/kernel/configs/guest-$arch.config"
	fi
	for w in $(sed -n 's/^# with: *//p' "$frag"); do
		[ -f "$TOP/kernel/configs/$w.config" ] || die "$1.config: no kernel/configs/$w.config"
		echo "$TOP/kernel/configs/$w.config"
	done
	echo "$frag"
}

# kconfig_assemble VARIANT KSRC OUT [MAKEARGS...] -- FRAGMENTS...: write
# OUT/.config as tinyconfig + FRAGMENTS (merge_config.sh -m: no make run
# between them) + olddefconfig, with MAKEARGS (ARCH=, CROSS_COMPILE=, CC=,
# -j...) on every make command line.  Then check that Kconfig kept every
# option the fragments ask for: a fragment asking for what Kconfig cannot
# give (a missing dependency, an option the tree lacks) is otherwise
# dropped without a word.  Each step's output goes to stdout; dies naming
# VARIANT and the options lost.
kconfig_assemble() {
	local variant=$1 src=$2 out=$3 margs=() frags
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do margs+=("$1"); shift; done
	[ $# -gt 1 ] || die "kconfig_assemble $variant: no '-- FRAGMENTS...'"
	shift
	frags=("$@")
	mkdir -p "$out"
	make -s -C "$src" O="$out" ${margs[@]+"${margs[@]}"} tinyconfig ||
		die "$variant: make tinyconfig failed in $out"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" ||
		die "$variant: merge_config.sh failed in $out"
	make -s -C "$src" O="$out" ${margs[@]+"${margs[@]}"} olddefconfig ||
		die "$variant: make olddefconfig failed in $out"
	kconfig_kept "$variant" "$out/.config" "${frags[@]}"
}

# kconfig_kept VARIANT CONFIG FRAGMENTS...: every option the fragments set
# (the last fragment that sets it wins) is in CONFIG as asked; "# CONFIG_X
# is not set" is also met by CONFIG_X being absent (its dependencies off).
kconfig_kept() {
	local variant=$1 cfg=$2 line want sym got lost=()
	shift 2
	while read -r line; do
		case "$line" in
		CONFIG_*=*) want=$line ;;
		"# CONFIG_"*" is not set") want=$line ;;
		*) continue ;;
		esac
		sym=${want#\# }; sym=${sym%%[= ]*}
		got=$(grep -E "^($sym=|# $sym is not set)" "$cfg" || true)
		if [ "$want" != "$got" ] && ! { [ -z "$got" ] && [ "${want#\#}" != "$want" ]; }; then
			log "$variant: asked for '$want', Kconfig gave '${got:-nothing}'"
			lost+=("$sym")
		fi
	done < <(cat "$@" | tac |
		awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s) } !seen[s]++' | tac)
	[ ${#lost[@]} = 0 ] ||
		die "$variant: Kconfig dropped ${lost[*]} (missing dependencies, or options this tree lacks?)"
}

# kbuild_env TREE REV CROSS: the environment of a reproducible kernel build
# from TREE at REV: a fixed identity and timestamp (REV's commit date), and
# cc/hostcc (through ccache when it is there) for CROSS ("" natively).
kbuild_env() {
	export KBUILD_BUILD_USER=alloctag KBUILD_BUILD_HOST=fork
	KBUILD_BUILD_TIMESTAMP=$(git -C "$1" log -1 --format=%cI "$2") ||
		die "no commit '$2' in $1"
	export KBUILD_BUILD_TIMESTAMP
	cc=${3}gcc hostcc=gcc
	if command -v ccache >/dev/null; then cc="ccache $cc" hostcc="ccache gcc"; fi
	# Depend mode: a miss compiles once, with no separate preprocessor run
	# to hash (kbuild's -Wp,-MMD names the headers for the manifest).  Hits
	# still need the same sources at the same paths.
	export CCACHE_DEPEND=1
	# No CCACHE_BASEDIR: ccache would rewrite the source paths on the command
	# line to relative ones but not -fmacro-prefix-map, and every tag's file
	# name in /proc/allocinfo would read "../stock/mm/..." instead of "mm/...".
	unset CCACHE_BASEDIR
}
