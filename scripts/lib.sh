# Shared settings for the project's scripts; sourced, never run.
# Every path can be overridden from the environment (the Makefile passes them).
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/alloctag-fork}
KSRC=${KSRC:-$BUILD/linux}
KPKG=${KPKG:-linux-source-6.12}
JOBS=${JOBS:-$(nproc)}

log() { printf '[%s] %s\n' "${0##*/}" "$*" >&2; }
die() { printf '[%s] error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# Hash of the patch series (the list and every patch in it): the kernel
# tree records it once the series is applied, to notice edits.
series_hash() {
	(cd "$1" && cat series $(grep -v '^#' series | sed '/^$/d')) |
		sha256sum | cut -d' ' -f1
}
