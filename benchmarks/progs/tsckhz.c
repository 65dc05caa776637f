/*
 * Host TSC rate in kHz: TSC ticks over 200 ms of CLOCK_MONOTONIC_RAW.
 * QEMU TCG without icount hands the guest the host's TSC, and the tiny
 * guest has no HPET or PM timer to calibrate it against, so run.sh passes
 * this rate on the kernel command line (tsc_early_khz=).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	double t0 = now(), t;
	unsigned long long c0 = __rdtsc(), c;

	do
		t = now();
	while (t - t0 < 0.2);
	c = __rdtsc();
	printf("%.0f\n", (c - c0) / (t - t0) / 1000.0);
	return 0;
}
