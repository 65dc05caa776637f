// SPDX-License-Identifier: GPL-2.0
/*
 * bpfpair LO HI COMMAND...: what a BPF tool does to follow one kmalloc()
 * call site's live objects without the capture flag, while COMMAND runs.
 *
 * Two programs, attached to the kmem:kmalloc and kmem:kfree tracepoints on
 * every online CPU:
 *   - on each kmalloc(), whose call site (the event's call_site) is in
 *     [LO, HI): the stack's id in a stack map (bpf_get_stackid), stored in
 *     a hash map keyed by the object's address;
 *   - on each kfree(), of any object (a free's event names the freeing
 *     code, not the allocating site, so every free must look): the hash
 *     map entry of the object's address deleted.
 * The tracepoints' field offsets are read from tracefs.  The programs are
 * written in BPF instructions here, so that nothing but the kernel's uapi
 * headers is needed.
 *
 * Prints, after COMMAND exits:
 *   @@BPF STACKS LIVE STATUS
 * the distinct stacks recorded, the objects still in the hash map and
 * COMMAND's exit status.  Exits 1 on an error, with a message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#define EVENTS "/sys/kernel/tracing/events/kmem/"

static void die(const char *what)
{
	fprintf(stderr, "bpfpair: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* The offset of FIELD in EVENT's records, from its tracefs format */
static int field_offset(const char *event, const char *field)
{
	char path[128], line[256], want[64];
	int off = -1;
	FILE *f;

	snprintf(path, sizeof(path), EVENTS "%s/format", event);
	snprintf(want, sizeof(want), " %s;", field);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want), *o = strstr(line, "offset:");

		if (p && o && p < o)
			off = atoi(o + 7);
	}
	fclose(f);
	if (off < 0) {
		fprintf(stderr, "bpfpair: no field %s in %s\n", field, path);
		exit(1);
	}
	return off;
}

static int event_id(const char *event)
{
	char path[128];
	int id = -1;
	FILE *f;

	snprintf(path, sizeof(path), EVENTS "%s/id", event);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &id) != 1)
		die(path);
	fclose(f);
	return id;
}

static int map_create(__u32 type, __u32 key, __u32 value, __u32 entries)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = key;
	a.value_size = value;
	a.max_entries = entries;
	fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (fd < 0)
		die("BPF_MAP_CREATE");
	return fd;
}

/* Instructions, as the kernel's own macros would build them */
#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), \
	.src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define LDX_DW(d, s, o)		INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define STX_DW(d, s, o)		INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define JMP_REG(op, d, s, o)	INSN(BPF_JMP | (op) | BPF_X, d, s, o, 0)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* Two instructions: a 64-bit constant, or a map's fd */
#define LD_IMM64(d, s, v)	INSN(BPF_LD | BPF_DW | BPF_IMM, d, s, 0, (__u32)(v)), \
				INSN(0, 0, 0, 0, (__u32)((__u64)(v) >> 32))

static int prog_load(const struct bpf_insn *insns, unsigned int n)
{
	static char log[65536];
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	a.insns = (unsigned long)insns;
	a.insn_cnt = n;
	a.license = (unsigned long)"GPL";
	a.log_buf = (unsigned long)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		fprintf(stderr, "%s", log);
		die("BPF_PROG_LOAD");
	}
	return fd;
}

/* PROG on EVENT on every online CPU; the events' fds stay open */
static void attach(const char *event, int prog)
{
	struct perf_event_attr pa;
	long cpu, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int fd;

	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_TRACEPOINT;
	pa.size = sizeof(pa);
	pa.config = event_id(event);
	pa.sample_period = 1;
	pa.sample_type = PERF_SAMPLE_RAW;
	for (cpu = 0; cpu < ncpu; cpu++) {
		fd = syscall(__NR_perf_event_open, &pa, -1, (int)cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			die("perf_event_open");
		if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) ||
		    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			die("attaching a program");
	}
}

static unsigned long count_keys(int map, __u32 key_size)
{
	__u64 key[2], next[2];
	union bpf_attr a;
	unsigned long n = 0;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = 0;
	a.next_key = (unsigned long)next;
	while (!sys_bpf(BPF_MAP_GET_NEXT_KEY, &a)) {
		n++;
		memcpy(key, next, key_size);
		a.key = (unsigned long)key;
	}
	if (errno != ENOENT)
		die("BPF_MAP_GET_NEXT_KEY");
	return n;
}

int main(int argc, char **argv)
{
	int live, stacks, alloc_prog, free_prog, status;
	unsigned long long lo, hi;
	pid_t pid;

	if (argc < 4) {
		fprintf(stderr, "usage: bpfpair LO HI COMMAND...\n");
		return 1;
	}
	lo = strtoull(argv[1], NULL, 16);
	hi = strtoull(argv[2], NULL, 16);
	live = map_create(BPF_MAP_TYPE_HASH, 8, 8, 65536);
	stacks = map_create(BPF_MAP_TYPE_STACK_TRACE, 4, 8 * 127, 4096);

	struct bpf_insn on_alloc[] = {
		MOV64_REG(BPF_REG_6, BPF_REG_1),
		LDX_DW(BPF_REG_2, BPF_REG_6, field_offset("kmalloc", "call_site")),
		LD_IMM64(BPF_REG_3, 0, lo),
		JMP_REG(BPF_JLT, BPF_REG_2, BPF_REG_3, 19),
		LD_IMM64(BPF_REG_3, 0, hi),
		JMP_REG(BPF_JGE, BPF_REG_2, BPF_REG_3, 16),
		LDX_DW(BPF_REG_2, BPF_REG_6, field_offset("kmalloc", "ptr")),
		STX_DW(BPF_REG_10, BPF_REG_2, -8),
		MOV64_REG(BPF_REG_1, BPF_REG_6),
		LD_IMM64(BPF_REG_2, BPF_PSEUDO_MAP_FD, stacks),
		MOV64_IMM(BPF_REG_3, 0),
		CALL(BPF_FUNC_get_stackid),
		STX_DW(BPF_REG_10, BPF_REG_0, -16),
		LD_IMM64(BPF_REG_1, BPF_PSEUDO_MAP_FD, live),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -8),
		MOV64_REG(BPF_REG_3, BPF_REG_10),
		ADD64_IMM(BPF_REG_3, -16),
		MOV64_IMM(BPF_REG_4, BPF_ANY),
		CALL(BPF_FUNC_map_update_elem),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	struct bpf_insn on_free[] = {
		LDX_DW(BPF_REG_2, BPF_REG_1, field_offset("kfree", "ptr")),
		STX_DW(BPF_REG_10, BPF_REG_2, -8),
		LD_IMM64(BPF_REG_1, BPF_PSEUDO_MAP_FD, live),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -8),
		CALL(BPF_FUNC_map_delete_elem),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};

	alloc_prog = prog_load(on_alloc, sizeof(on_alloc) / sizeof(on_alloc[0]));
	free_prog = prog_load(on_free, sizeof(on_free) / sizeof(on_free[0]));
	attach("kmalloc", alloc_prog);
	attach("kfree", free_prog);

	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		execvp(argv[3], argv + 3);
		die(argv[3]);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	printf("@@BPF %lu %lu %d\n", count_keys(stacks, 4), count_keys(live, 8),
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
