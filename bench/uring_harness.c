/*-------------------------------------------------------------------------
 *
 * uring_harness.c
 *	  Drive src/engine_uring.c outside the server, the way a worker does.
 *
 * A developer tool, not part of the extension.  It compiles the engine's
 * source into itself with small stand-ins for the few server functions the
 * engine calls (wait events, elog, memory contexts), queues IobIo requests
 * through the operations table, refills the queue as completions arrive,
 * checks every completion and prints IOPS, latency percentiles and CPU time
 * per I/O.  Build and compare with fio: bench/uring_compare.sh.
 *
 *	  uring_harness -f FILE [-S size_mb] [-m randread|read|randwrite|mix|rate]
 *					[-d depth] [-t seconds] [-b block] [-w fsync_every]
 *					[-R rate_iops] [-F] [-B] [-E] [-D] [-x setup_flags]
 *					[-n files]
 *
 *	  -F registers the files, -B registers the buffers, -x sets ring set-up
 *	  flags (hex), -E submits a whole refill as one batch in complete()
 *	  instead of each I/O as the next is queued, -D puts IOSQE_IO_DRAIN on
 *	  fsyncs instead of holding them back: the experiments of
 *	  doc/iobench.md, "I/O engines".
 *
 *-------------------------------------------------------------------------
 */
#define _GNU_SOURCE
#include "postgres.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "engine.h"

/* The engine itself, with its measurement variants compiled in */
#define IOB_URING_EXPERIMENTS
#include "../src/engine_uring.c"

/* ---- stand-ins for the server, kept in this file only ---- */

static uint32 harness_wait_event;
uint32	   *my_wait_event_info = &harness_wait_event;
MemoryContext TopMemoryContext = NULL;

/* the engine's interrupt check; nothing here ever sets them */
volatile sig_atomic_t InterruptPending = false;
volatile uint32 InterruptHoldoffCount = 0;
volatile uint32 QueryCancelHoldoffCount = 0;
volatile uint32 CritSectionCount = 0;
static int	harness_elevel;
static uint64 wait_event_reports;

uint32
iob_op_wait_event(IobOpKind kind)
{
	wait_event_reports++;
	switch (kind)
	{
		case IOB_OP_READ:
			return WAIT_EVENT_DATA_FILE_READ;
		case IOB_OP_WRITE:
			return WAIT_EVENT_DATA_FILE_WRITE;
		case IOB_OP_FSYNC:
			return WAIT_EVENT_DATA_FILE_SYNC;
	}
	return 0;
}

void *
MemoryContextAllocExtended(MemoryContext context, Size size, int flags)
{
	return calloc(1, size);
}

void
pfree(void *pointer)
{
	free(pointer);
}

bool
errstart(int elevel, const char *domain)
{
	harness_elevel = elevel;
	return true;
}

bool
errstart_cold(int elevel, const char *domain)
{
	return errstart(elevel, domain);
}

int
errmsg_internal(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 0;
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	if (harness_elevel >= ERROR)
	{
		fprintf(stderr, "ERROR at %s:%d (%s)\n", filename, lineno, funcname);
		exit(2);
	}
}

/* ---- the harness ---- */

#define MAX_FILES	16
#define SEQ_RING	(1 << 20)	/* completed-write log for the fsync check */

typedef struct Slot
{
	IobIo		io;
	uint64		seq;			/* queue order */
	int			ncover;			/* fsync: writes it must cover */
	uint64	   *cover;			/* their sequence numbers */
} Slot;

static const char *opt_file = NULL;
static int	opt_size_mb = 1024;
static const char *opt_mode = "randread";
static int	opt_depth = 32;
static double opt_seconds = 5;
static int	opt_bs = 8192;
static int	opt_fsync_every = 4;
static int	opt_rate = 0;
static bool opt_regfiles = false;
static bool opt_regbufs = false;
static int	opt_nfiles = 1;
static unsigned opt_setup_flags = 0;

static int	fds[MAX_FILES];
static uint64 nblocks;
static uint64 rng_state = 0x9E3779B97F4A7C15ULL;
static uint64 next_seq_block = 0;

/* Per-kind latency samples */
static int64 *lat[IOB_NUM_OP_KINDS];
static uint64 nlat[IOB_NUM_OP_KINDS];
static uint64 cap_lat;

/* fsync ordering check */
static uint64 seq_done[SEQ_RING];
static int64 seq_end[SEQ_RING];
static uint64 writes_since_sync[MAX_FILES];
static uint64 errors;
static uint64 fsyncs_covering;	/* fsyncs queued behind unfinished writes */

/* xorshift64*: fast, good enough for offsets */
static uint64
rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* Stamp a block with its number so a read can prove it got the right one */
static void
stamp_block(char *buf, uint64 blkno, int bs)
{
	int			i;

	for (i = 0; i < bs; i += 512)
		*(uint64 *) (buf + i) = blkno ^ 0xABCDEF0123456789ULL;
}

/* Create, fill and sync the test files */
static void
prepare_files(char *buf)
{
	int			f;
	uint64		b;

	nblocks = (uint64) opt_size_mb * 1024 * 1024 / opt_bs / opt_nfiles;
	for (f = 0; f < opt_nfiles; f++)
	{
		char		path[1024];
		struct stat stt;

		snprintf(path, sizeof(path), "%s.%d", opt_file, f);
		fds[f] = open(path, O_RDWR | O_CREAT | O_DIRECT, 0600);
		if (fds[f] < 0)
		{
			perror(path);
			exit(1);
		}
		if (fstat(fds[f], &stt) == 0 && (uint64) stt.st_size >= nblocks * opt_bs)
			continue;			/* already filled by an earlier run */
		for (b = 0; b < nblocks; b++)
		{
			stamp_block(buf, b, opt_bs);
			if (pwrite(fds[f], buf, opt_bs, b * opt_bs) != opt_bs)
			{
				perror("pwrite");
				exit(1);
			}
		}
		fsync(fds[f]);
	}
}

static int
cmp_int64(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

static double
pct(int kind, double p)
{
	uint64		i;

	if (nlat[kind] == 0)
		return 0;
	i = (uint64) (p / 100.0 * (nlat[kind] - 1));
	return lat[kind][i] / 1000.0;
}

/* Decide what the next I/O of a slot is, and queue it */
static void
issue(IobEngine *engine, Slot *slot, uint64 *seq, Slot *slots, int depth)
{
	IobIo	   *io = &slot->io;
	int			f = (opt_nfiles > 1) ? (int) (rnd() % opt_nfiles) : 0;
	bool		write;

	if (strcmp(opt_mode, "randread") == 0 || strcmp(opt_mode, "rate") == 0 ||
		strcmp(opt_mode, "read") == 0)
		write = false;
	else if (strcmp(opt_mode, "randwrite") == 0)
		write = true;
	else
		write = (rnd() % 2) == 0;	/* mix: half writes */

	io->fd = fds[f];
	io->file_index = f;
	io->start_ns = io->end_ns = 0;
	io->result = INT64_MIN;
	slot->seq = (*seq)++;
	slot->ncover = 0;

	if (write && opt_fsync_every > 0 &&
		writes_since_sync[f] >= (uint64) opt_fsync_every)
	{
		int			i;

		/* an fsync: remember the writes to this file still outstanding */
		io->kind = IOB_OP_FSYNC;
		io->len = 0;
		io->offset = 0;
		io->datasync = (slot->seq & 1) != 0;
		for (i = 0; i < depth; i++)
		{
			Slot	   *o = &slots[i];

			if (o != slot && o->io.kind == IOB_OP_WRITE && o->io.fd == io->fd &&
				o->io.result == INT64_MIN && o->seq < slot->seq)
				slot->cover[slot->ncover++] = o->seq;
		}
		writes_since_sync[f] = 0;
		if (slot->ncover > 0)
			fsyncs_covering++;
	}
	else
	{
		uint64		blk;

		if (strcmp(opt_mode, "read") == 0)
			blk = next_seq_block++ % nblocks;	/* sequential, wrapping */
		else
			blk = rnd() % nblocks;

		io->kind = write ? IOB_OP_WRITE : IOB_OP_READ;
		io->len = opt_bs;
		io->offset = blk * opt_bs;
		if (write)
		{
			stamp_block(io->buf, blk, opt_bs);
			writes_since_sync[f]++;
		}
	}
	engine->ops->queue(engine, io);
}

/* Check one completion and record its latency */
static void
check(Slot *slot)
{
	IobIo	   *io = &slot->io;
	int64		l = io->end_ns - io->start_ns;

	if (io->start_ns <= 0 || io->end_ns < io->start_ns)
	{
		fprintf(stderr, "bad timestamps seq %lu\n", (unsigned long) slot->seq);
		errors++;
	}
	if (io->kind == IOB_OP_FSYNC ? io->result != 0 : io->result != io->len)
	{
		fprintf(stderr, "I/O failed: kind %d result %ld\n", io->kind,
				(long) io->result);
		errors++;
	}
	if (io->kind == IOB_OP_READ &&
		*(uint64 *) io->buf != ((io->offset / opt_bs) ^ 0xABCDEF0123456789ULL))
	{
		fprintf(stderr, "read returned the wrong block at %lu\n",
				(unsigned long) io->offset);
		errors++;
	}
	if (io->kind == IOB_OP_WRITE)
	{
		seq_done[slot->seq % SEQ_RING] = slot->seq;
		seq_end[slot->seq % SEQ_RING] = io->end_ns;
	}
	if (nlat[io->kind] < cap_lat)
		lat[io->kind][nlat[io->kind]++] = l;
}

/*
 * The fsync ordering check: every covered write ended before the fsync was
 * submitted.  With IOSQE_IO_DRAIN (-D) the kernel, not the engine, delays
 * the fsync after its submission, which timestamps cannot show: no check.
 */
static void
check_fsync(Slot *slot)
{
	int			i;

	if (iob_uring_exp_drain)
		return;

	for (i = 0; i < slot->ncover; i++)
	{
		uint64		s = slot->cover[i];

		if (seq_done[s % SEQ_RING] != s ||
			seq_end[s % SEQ_RING] > slot->io.start_ns)
		{
			fprintf(stderr, "fsync seq %lu started before write seq %lu completed\n",
					(unsigned long) slot->seq, (unsigned long) s);
			errors++;
		}
	}
}

int
main(int argc, char **argv)
{
	IobEngine	engine;
	const IobEngineOps *ops = iob_engine_uring_ops();
	Slot	   *slots;
	IobIo	  **done;
	int		   *freeslots;
	int			nfree = 0;
	char	   *bufs;
	int			c;
	int			i;
	int			ret;
	uint64		seq = 0;
	uint64		ops_done = 0;
	uint64		calls = 0;
	int64		t0;
	int64		t_end;
	int64		elapsed;
	int64		interval_ns = 0;
	int64		next_due;
	struct rusage ru0;
	struct rusage ru1;
	double		cpu_us;
	static const char *kind_names[] = {"read", "write", "fsync"};

	while ((c = getopt(argc, argv, "f:S:m:d:t:b:w:R:FBEDx:n:")) != -1)
	{
		switch (c)
		{
			case 'f':
				opt_file = optarg;
				break;
			case 'S':
				opt_size_mb = atoi(optarg);
				break;
			case 'm':
				opt_mode = optarg;
				break;
			case 'd':
				opt_depth = atoi(optarg);
				break;
			case 't':
				opt_seconds = atof(optarg);
				break;
			case 'b':
				opt_bs = atoi(optarg);
				break;
			case 'w':
				opt_fsync_every = atoi(optarg);
				break;
			case 'R':
				opt_rate = atoi(optarg);
				break;
			case 'F':
				opt_regfiles = true;
				break;
			case 'B':
				opt_regbufs = true;
				break;
			case 'E':
				iob_uring_exp_batch_submit = true;
				break;
			case 'D':
				iob_uring_exp_drain = true;
				break;
			case 'x':
				opt_setup_flags = strtoul(optarg, NULL, 16);
				break;
			case 'n':
				opt_nfiles = atoi(optarg);
				break;
			default:
				fprintf(stderr, "see the header of bench/uring_harness.c\n");
				return 1;
		}
	}
	if (opt_file == NULL || opt_nfiles < 1 || opt_nfiles > MAX_FILES)
	{
		fprintf(stderr, "usage: uring_harness -f FILE [options]\n");
		return 1;
	}

	printf("probe: %d (%s)\n", iob_engine_probe_uring(),
		   iob_engine_probe_uring() ? strerror(iob_engine_probe_uring()) : "io_uring usable");

	bufs = aligned_alloc(4096, (size_t) opt_depth * opt_bs);
	slots = calloc(opt_depth, sizeof(Slot));
	done = calloc(opt_depth, sizeof(IobIo *));
	freeslots = calloc(opt_depth, sizeof(int));
	cap_lat = 20 * 1000 * 1000;
	for (i = 0; i < IOB_NUM_OP_KINDS; i++)
		lat[i] = malloc(sizeof(int64) * cap_lat);
	prepare_files(bufs);

	for (i = 0; i < opt_depth; i++)
	{
		slots[i].io.buf = bufs + (size_t) i * opt_bs;
		slots[i].io.slot = i;
		slots[i].cover = calloc(opt_depth, sizeof(uint64));
	}

	iob_uring_exp_setup_flags = opt_setup_flags;
	if (opt_regbufs)
	{
		iob_uring_exp_buf_base = bufs;
		iob_uring_exp_buf_len = (size_t) opt_depth * opt_bs;
	}
	memset(&engine, 0, sizeof(engine));
	engine.ops = ops;
	ret = ops->init(&engine, opt_depth);
	if (ret != 0)
	{
		fprintf(stderr, "init failed: %s\n", strerror(ret));
		return 1;
	}
	if (opt_regfiles && ops->register_files)
		ops->register_files(&engine, fds, opt_nfiles);

	if (opt_rate > 0)
		interval_ns = INT64CONST(1000000000) / opt_rate;

	getrusage(RUSAGE_SELF, &ru0);
	t0 = iob_now_ns();
	t_end = t0 + (int64) (opt_seconds * 1e9);
	next_due = t0;

	/* fill the queue (rate mode: the first I/O), refill as they complete */
	for (i = 0; i < opt_depth; i++)
		freeslots[nfree++] = opt_depth - 1 - i;
	while (nfree > 0 && (interval_ns == 0 || seq == 0))
	{
		issue(&engine, &slots[freeslots[--nfree]], &seq, slots, opt_depth);
		next_due += interval_ns;
	}

	for (;;)
	{
		int			n;
		int64		now = iob_now_ns();
		bool		stopping = now >= t_end;

		if (stopping && engine.inflight == 0)
			break;
		if (interval_ns > 0)
		{
			int64		wait = next_due - now;

			if (engine.inflight == 0 && wait > 0)
			{
				struct timespec ts = {wait / 1000000000, wait % 1000000000};

				nanosleep(&ts, NULL);
				n = 0;
			}
			else if (nfree == 0 || stopping)
				n = ops->complete(&engine, 1, -1, done, opt_depth);
			else
				n = ops->complete(&engine, 1, wait > 0 ? wait : 0, done, opt_depth);
		}
		else
			n = ops->complete(&engine, 1, -1, done, opt_depth);
		calls++;

		for (i = 0; i < n; i++)
			check(&slots[done[i]->slot]);
		for (i = 0; i < n; i++)
		{
			Slot	   *slot = &slots[done[i]->slot];

			if (slot->io.kind == IOB_OP_FSYNC)
				check_fsync(slot);
			ops_done++;
			if (!stopping && interval_ns == 0)
				issue(&engine, slot, &seq, slots, opt_depth);
			else
				freeslots[nfree++] = slot->io.slot;
		}

		/* rate mode: issue what is due, from any free slot */
		if (interval_ns > 0 && !stopping)
		{
			now = iob_now_ns();
			while (nfree > 0 && now >= next_due)
			{
				issue(&engine, &slots[freeslots[--nfree]], &seq, slots,
					  opt_depth);
				next_due += interval_ns;
			}
		}
	}
	elapsed = iob_now_ns() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	ops->shutdown(&engine);

	cpu_us = (ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) * 1e6 +
		(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) +
		(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) * 1e6 +
		(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec);

	printf("mode=%s depth=%d bs=%d files=%d regfiles=%d regbufs=%d flags=0x%x batch=%d drain=%d\n",
		   opt_mode, opt_depth, opt_bs, opt_nfiles, opt_regfiles, opt_regbufs,
		   opt_setup_flags, iob_uring_exp_batch_submit,
		   iob_uring_exp_drain);
	printf("ops=%lu iops=%.0f complete_calls=%lu ops/call=%.2f cpu/op=%.2fus usr=%.1f%% sys=%.1f%%\n",
		   (unsigned long) ops_done, ops_done / (elapsed / 1e9),
		   (unsigned long) calls, (double) ops_done / calls,
		   cpu_us / ops_done,
		   100.0 * ((ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) * 1e6 +
					(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec)) / (elapsed / 1e3),
		   100.0 * ((ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) * 1e6 +
					(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec)) / (elapsed / 1e3));
	for (i = 0; i < IOB_NUM_OP_KINDS; i++)
	{
		if (nlat[i] == 0)
			continue;
		qsort(lat[i], nlat[i], sizeof(int64), cmp_int64);
		printf("  %-5s n=%-9lu p50=%.1fus p99=%.1fus p99.9=%.1fus max=%.1fus\n",
			   kind_names[i], (unsigned long) nlat[i], pct(i, 50), pct(i, 99),
			   pct(i, 99.9), lat[i][nlat[i] - 1] / 1000.0);
	}
	printf("errors=%lu wait_event_reports=%lu fsyncs_queued_behind_writes=%lu\n",
		   (unsigned long) errors, (unsigned long) wait_event_reports,
		   (unsigned long) fsyncs_covering);
	for (i = 0; i < opt_nfiles; i++)
		close(fds[i]);
	return errors ? 3 : 0;
}
