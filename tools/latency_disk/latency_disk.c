/*-------------------------------------------------------------------------
 *
 * latency_disk.c
 *	  A test disk whose answer is known: every read takes a fixed latency
 *	  L and at most K reads are served at once.
 *
 * A FUSE file system serving one file, "disk", kept in memory.  A read
 * path that keeps N reads in flight gets min(N, K) / L reads per second
 * (Little's law); writes are served at once.
 *
 * The device is simulated in virtual time: a read arriving at t takes the
 * slot that frees first (at f), starts at max(t, f) and completes at
 * start + L; a reply thread answers it at that instant.  So the device's
 * rate at saturation is exactly K / L whatever the reply threads' own
 * delays, and below saturation a read takes L plus the path's own cost.
 *
 * A second file, "control", owned by --owner, reads as the settings and
 * counters ("key value" lines) and takes "slots=K", "latency_us=L" and
 * "reset" (the counters) written to it, so an unprivileged test can change
 * K and L between runs without remounting.
 *
 * Used by tools/latency_disk.sh, which builds it and puts a loop device
 * (direct I/O) and ext4 over the file; a test tool, not part of the
 * extension:
 *
 *	  latency_disk MOUNTPOINT --size BYTES --slots K --latency-us L
 *				   [--owner UID:GID] [--foreground]
 *
 *-------------------------------------------------------------------------
 */
#define FUSE_USE_VERSION 312
#define _GNU_SOURCE

#include <errno.h>
#include <fuse_lowlevel.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INO_ROOT	1
#define INO_DISK	2
#define INO_CONTROL	3

#define MAX_SLOTS	1024
#define MAX_LATENCY_US	10000000	/* 10 s */
#define REPLY_THREADS	4

/* A read waiting for its completion time */
typedef struct PendingRead
{
	fuse_req_t	req;
	off_t		off;
	size_t		size;
	uint64_t	arrival_ns;
	uint64_t	done_ns;
	struct PendingRead *next;
} PendingRead;

/* The device: its settings, its slots and its counters (under lock) */
static struct
{
	pthread_mutex_t lock;
	pthread_cond_t	queued;
	char	   *mem;			/* the file's bytes: anonymous memory */
	uint64_t	size;
	uid_t		owner_uid;
	gid_t		owner_gid;
	int			slots;
	uint64_t	latency_ns;
	uint64_t	slot_free_ns[MAX_SLOTS];	/* when each slot frees (a ring) */
	int			next_slot;
	PendingRead *head;			/* reads in completion order */
	PendingRead *tail;
	uint64_t	reads;
	uint64_t	read_bytes;
	uint64_t	writes;
	uint64_t	write_bytes;
	uint64_t	read_time_ns;	/* sum of arrival to completion */
	int			outstanding;
	int			max_outstanding;
	bool		realtime;		/* the reply threads got SCHED_FIFO */
} dev = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.queued = PTHREAD_COND_INITIALIZER,
};

/* The monotonic clock, in nanoseconds */
static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Free every slot now (after a change of K or L); under lock */
static void
reset_slots(void)
{
	memset(dev.slot_free_ns, 0, sizeof(dev.slot_free_ns));
	dev.next_slot = 0;
}

/* Zero the counters; under lock */
static void
reset_counters(void)
{
	dev.reads = dev.read_bytes = dev.writes = dev.write_bytes = 0;
	dev.read_time_ns = 0;
	dev.max_outstanding = dev.outstanding;
}

/* The attributes of inode ino into *st; false when there is no such inode */
static bool
fill_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_blksize = 4096;
	switch (ino)
	{
		case INO_ROOT:
			st->st_mode = S_IFDIR | 0755;
			st->st_nlink = 2;
			break;
		case INO_DISK:
			st->st_mode = S_IFREG | 0600;
			st->st_nlink = 1;
			st->st_size = dev.size;
			st->st_blocks = dev.size / 512;
			break;
		case INO_CONTROL:
			st->st_mode = S_IFREG | 0660;
			st->st_nlink = 1;
			st->st_uid = dev.owner_uid;
			st->st_gid = dev.owner_gid;
			st->st_size = 0;
			break;
		default:
			return false;
	}
	return true;
}

/* FUSE init: let the kernel keep many asynchronous requests outstanding */
static void
ld_init(void *userdata, struct fuse_conn_info *conn)
{
	conn->max_background = 4096;
	conn->congestion_threshold = 4096;
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
}

/* lookup: the two files of the root directory */
static void
ld_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	fuse_ino_t	ino;

	if (parent != INO_ROOT)
	{
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (strcmp(name, "disk") == 0)
		ino = INO_DISK;
	else if (strcmp(name, "control") == 0)
		ino = INO_CONTROL;
	else
	{
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = ino;
	e.attr_timeout = 3600;
	e.entry_timeout = 3600;
	fill_attr(ino, &e.attr);
	fuse_reply_entry(req, &e);
}

/* getattr */
static void
ld_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	if (!fill_attr(ino, &st))
		fuse_reply_err(req, ENOENT);
	else
		fuse_reply_attr(req, &st, ino == INO_CONTROL ? 0 : 3600);
}

/*
 * setattr: the disk's size is fixed; truncating the control file (a shell's
 * "echo ... > control") is accepted and changes nothing
 */
static void
ld_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		   struct fuse_file_info *fi)
{
	struct stat st;

	if (!fill_attr(ino, &st))
	{
		fuse_reply_err(req, ENOENT);
		return;
	}
	if ((to_set & FUSE_SET_ATTR_SIZE) && ino == INO_DISK && (uint64_t) attr->st_size != dev.size)
	{
		fuse_reply_err(req, EPERM);
		return;
	}
	if (to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID))
	{
		fuse_reply_err(req, EPERM);
		return;
	}
	fuse_reply_attr(req, &st, 0);
}

/* readdir: ".", "..", "disk", "control" */
static void
ld_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	static const struct
	{
		const char *name;
		fuse_ino_t	ino;
	}			entries[] = {{".", INO_ROOT}, {"..", INO_ROOT}, {"disk", INO_DISK}, {"control", INO_CONTROL}};
	char		buf[1024];
	size_t		used = 0;

	if (ino != INO_ROOT)
	{
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (off_t i = off; i < (off_t) (sizeof(entries) / sizeof(entries[0])); i++)
	{
		struct stat st;
		size_t		len;

		fill_attr(entries[i].ino, &st);
		len = fuse_add_direntry(req, buf + used, sizeof(buf) - used, entries[i].name, &st, i + 1);
		if (len > sizeof(buf) - used)
			break;
		used += len;
	}
	fuse_reply_buf(req, buf, used);
}

/* open: no page cache of FUSE's own for either file */
static void
ld_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino != INO_DISK && ino != INO_CONTROL)
	{
		fuse_reply_err(req, EISDIR);
		return;
	}
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fuse_reply_open(req, fi);
}

/* The control file's text: settings and counters, "key value" lines */
static int
status_text(char *buf, size_t len)
{
	int			n;

	pthread_mutex_lock(&dev.lock);
	n = snprintf(buf, len,
				 "slots %d\nlatency_us %" PRIu64 "\nsize %" PRIu64 "\n"
				 "reads %" PRIu64 "\nread_bytes %" PRIu64 "\n"
				 "writes %" PRIu64 "\nwrite_bytes %" PRIu64 "\n"
				 "read_time_us %" PRIu64 "\noutstanding %d\nmax_outstanding %d\n"
				 "realtime %d\n",
				 dev.slots, dev.latency_ns / 1000, dev.size,
				 dev.reads, dev.read_bytes, dev.writes, dev.write_bytes,
				 dev.read_time_ns / 1000, dev.outstanding, dev.max_outstanding,
				 dev.realtime ? 1 : 0);
	pthread_mutex_unlock(&dev.lock);
	return n;
}

/*
 * read: the control file's text at once; a read of the disk is given its
 * slot and completion time and queued for the reply threads
 */
static void
ld_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		struct fuse_file_info *fi)
{
	PendingRead *r;
	uint64_t	t;
	uint64_t	start;

	if (ino == INO_CONTROL)
	{
		char		buf[1024];
		int			n = status_text(buf, sizeof(buf));

		if (off >= n)
			fuse_reply_buf(req, NULL, 0);
		else
			fuse_reply_buf(req, buf + off, size < (size_t) (n - off) ? size : (size_t) (n - off));
		return;
	}
	if (off < 0 || (uint64_t) off >= dev.size)
	{
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if ((uint64_t) off + size > dev.size)
		size = dev.size - off;

	r = malloc(sizeof(PendingRead));
	if (r == NULL)
	{
		fuse_reply_err(req, ENOMEM);
		return;
	}
	r->req = req;
	r->off = off;
	r->size = size;
	r->next = NULL;

	t = now_ns();
	pthread_mutex_lock(&dev.lock);
	/*
	 * The slot that frees first is the one taken K reads ago: completion
	 * times are handed out in increasing order
	 */
	start = dev.slot_free_ns[dev.next_slot];
	if (start < t)
		start = t;
	r->arrival_ns = t;
	r->done_ns = start + dev.latency_ns;
	dev.slot_free_ns[dev.next_slot] = r->done_ns;
	dev.next_slot = (dev.next_slot + 1) % dev.slots;
	if (dev.tail)
		dev.tail->next = r;
	else
		dev.head = r;
	dev.tail = r;
	dev.outstanding++;
	if (dev.outstanding > dev.max_outstanding)
		dev.max_outstanding = dev.outstanding;
	pthread_cond_signal(&dev.queued);
	pthread_mutex_unlock(&dev.lock);
}

/*
 * Apply one "key=value" (or "reset") setting of the control file; false
 * when it is not one
 */
static bool
apply_setting(const char *token)
{
	char	   *end;
	long long	v;

	if (strcmp(token, "reset") == 0)
	{
		reset_counters();
		return true;
	}
	if (strncmp(token, "slots=", 6) == 0)
	{
		errno = 0;
		v = strtoll(token + 6, &end, 10);
		if (errno || *end || end == token + 6 || v < 1 || v > MAX_SLOTS)
			return false;
		dev.slots = (int) v;
		reset_slots();
		return true;
	}
	if (strncmp(token, "latency_us=", 11) == 0)
	{
		errno = 0;
		v = strtoll(token + 11, &end, 10);
		if (errno || *end || end == token + 11 || v < 0 || v > MAX_LATENCY_US)
			return false;
		dev.latency_ns = (uint64_t) v * 1000;
		reset_slots();
		return true;
	}
	return false;
}

/*
 * write: the disk's bytes are copied at once; the control file's text is
 * parsed as whitespace-separated settings, all or none applied (EINVAL)
 */
static void
ld_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
		 off_t off, struct fuse_file_info *fi)
{
	if (ino == INO_CONTROL)
	{
		char		text[256];
		char	   *save = NULL;
		char	   *tok;
		bool		ok = true;
		int			old_slots;
		uint64_t	old_latency;

		if (size >= sizeof(text))
		{
			fuse_reply_err(req, EINVAL);
			return;
		}
		memcpy(text, buf, size);
		text[size] = '\0';
		pthread_mutex_lock(&dev.lock);
		old_slots = dev.slots;
		old_latency = dev.latency_ns;
		for (tok = strtok_r(text, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
			ok = ok && apply_setting(tok);
		if (!ok)
		{
			dev.slots = old_slots;
			dev.latency_ns = old_latency;
		}
		pthread_mutex_unlock(&dev.lock);
		if (ok)
			fuse_reply_write(req, size);
		else
			fuse_reply_err(req, EINVAL);
		return;
	}
	if (off < 0 || (uint64_t) off >= dev.size)
	{
		fuse_reply_err(req, ENOSPC);
		return;
	}
	if ((uint64_t) off + size > dev.size)
		size = dev.size - off;
	memcpy(dev.mem + off, buf, size);
	pthread_mutex_lock(&dev.lock);
	dev.writes++;
	dev.write_bytes += size;
	pthread_mutex_unlock(&dev.lock);
	fuse_reply_write(req, size);
}

/* flush and fsync: the memory is the medium, nothing to do */
static void
ld_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	fuse_reply_err(req, 0);
}

/* fsync */
static void
ld_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	fuse_reply_err(req, 0);
}

/*
 * fallocate: a punched hole (a discard through the loop device) gives its
 * memory back and reads as zeros; allocating is a no-op (all is there)
 */
static void
ld_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off, off_t len,
			 struct fuse_file_info *fi)
{
	long		page = sysconf(_SC_PAGESIZE);
	uint64_t	end;
	uint64_t	first;
	uint64_t	last;

	if (ino != INO_DISK)
	{
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	if (off < 0 || len <= 0 || (uint64_t) off >= dev.size)
	{
		fuse_reply_err(req, EINVAL);
		return;
	}
	end = (uint64_t) off + len > dev.size ? dev.size : (uint64_t) off + len;
	if (mode == 0 || mode == FALLOC_FL_KEEP_SIZE)
	{
		fuse_reply_err(req, 0);
		return;
	}
	if (mode != (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE))
	{
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	first = ((uint64_t) off + page - 1) / page * page;
	last = end / page * page;
	if (first >= last)
		memset(dev.mem + off, 0, end - off);
	else
	{
		memset(dev.mem + off, 0, first - off);
		madvise(dev.mem + first, last - first, MADV_DONTNEED);
		memset(dev.mem + last, 0, end - last);
	}
	fuse_reply_err(req, 0);
}

/*
 * A reply thread: takes the earliest read, sleeps until its completion
 * time and answers it with the file's bytes
 */
static void *
reply_thread(void *arg)
{
	struct sched_param sp = {.sched_priority = 1};

	/* wake on time: no timer slack, and ahead of ordinary work if allowed */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0)
	{
		pthread_mutex_lock(&dev.lock);
		dev.realtime = true;
		pthread_mutex_unlock(&dev.lock);
	}

	for (;;)
	{
		PendingRead *r;
		struct timespec ts;

		pthread_mutex_lock(&dev.lock);
		while (dev.head == NULL)
			pthread_cond_wait(&dev.queued, &dev.lock);
		r = dev.head;
		dev.head = r->next;
		if (dev.head == NULL)
			dev.tail = NULL;
		pthread_mutex_unlock(&dev.lock);

		ts.tv_sec = r->done_ns / 1000000000;
		ts.tv_nsec = r->done_ns % 1000000000;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		/* counted before the reply, which may bring the next read at once */
		pthread_mutex_lock(&dev.lock);
		dev.reads++;
		dev.read_bytes += r->size;
		dev.read_time_ns += r->done_ns - r->arrival_ns;
		dev.outstanding--;
		pthread_mutex_unlock(&dev.lock);
		fuse_reply_buf(r->req, dev.mem + r->off, r->size);
		free(r);
	}
	return NULL;
}

static const struct fuse_lowlevel_ops ld_ops = {
	.init = ld_init,
	.lookup = ld_lookup,
	.getattr = ld_getattr,
	.setattr = ld_setattr,
	.readdir = ld_readdir,
	.open = ld_open,
	.read = ld_read,
	.write = ld_write,
	.flush = ld_flush,
	.fsync = ld_fsync,
	.fallocate = ld_fallocate,
};

/* Print the usage and exit with status */
static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
			"usage: latency_disk MOUNTPOINT --size BYTES --slots K --latency-us L\n"
			"                    [--owner UID:GID] [--foreground]\n"
			"  --size        the disk file's size in bytes (a multiple of 4096)\n"
			"  --slots       reads served at once, 1 to %d\n"
			"  --latency-us  each read's latency, 0 to %d microseconds\n"
			"  --owner       owner of the control file (default: root)\n",
			MAX_SLOTS, MAX_LATENCY_US);
	exit(status);
}

/* Parse a number argument within [min, max], or exit naming it */
static long long
number_arg(const char *name, const char *text, long long min, long long max)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || *end || end == text || v < min || v > max)
	{
		fprintf(stderr, "latency_disk: %s must be a number from %lld to %lld, not \"%s\"\n",
				name, min, max, text);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"size", required_argument, NULL, 's'},
		{"slots", required_argument, NULL, 'k'},
		{"latency-us", required_argument, NULL, 'l'},
		{"owner", required_argument, NULL, 'o'},
		{"foreground", no_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}
	};
	char	   *fuse_argv[] = {argv[0], "-o",
		"allow_other,default_permissions,fsname=latency_disk,subtype=latency_disk", NULL};
	struct fuse_args args = FUSE_ARGS_INIT(3, fuse_argv);
	struct fuse_session *se;
	struct fuse_loop_config *cfg;
	const char *mountpoint;
	bool		foreground = false;
	int			c;
	int			rc;

	dev.slots = 0;
	dev.size = 0;
	dev.latency_ns = UINT64_MAX;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
	{
		switch (c)
		{
			case 's':
				dev.size = (uint64_t) number_arg("--size", optarg, 4096, (long long) 1 << 40);
				if (dev.size % 4096 != 0)
				{
					fprintf(stderr, "latency_disk: --size must be a multiple of 4096\n");
					return 2;
				}
				break;
			case 'k':
				dev.slots = (int) number_arg("--slots", optarg, 1, MAX_SLOTS);
				break;
			case 'l':
				dev.latency_ns = (uint64_t) number_arg("--latency-us", optarg, 0, MAX_LATENCY_US) * 1000;
				break;
			case 'o':
				{
					unsigned	u,
								g;
					char		extra;

					if (sscanf(optarg, "%u:%u%c", &u, &g, &extra) != 2)
					{
						fprintf(stderr, "latency_disk: --owner must be UID:GID, not \"%s\"\n", optarg);
						return 2;
					}
					dev.owner_uid = u;
					dev.owner_gid = g;
				}
				break;
			case 'f':
				foreground = true;
				break;
			case 'h':
				usage(0);
				break;
			default:
				usage(2);
		}
	}
	if (optind != argc - 1 || dev.size == 0 || dev.slots == 0 || dev.latency_ns == UINT64_MAX)
		usage(2);
	mountpoint = argv[optind];

	dev.mem = mmap(NULL, dev.size, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (dev.mem == MAP_FAILED)
	{
		perror("latency_disk: mmap");
		return 1;
	}

	se = fuse_session_new(&args, &ld_ops, sizeof(ld_ops), NULL);
	if (se == NULL)
		return 1;
	if (fuse_set_signal_handlers(se) != 0)
		return 1;
	if (fuse_session_mount(se, mountpoint) != 0)
		return 1;
	/* the parent returns once mounted; threads start in the daemon */
	if (fuse_daemonize(foreground) != 0)
		return 1;

	for (int i = 0; i < REPLY_THREADS; i++)
	{
		pthread_t	th;

		if (pthread_create(&th, NULL, reply_thread, NULL) != 0)
		{
			perror("latency_disk: pthread_create");
			fuse_session_unmount(se);
			return 1;
		}
		pthread_detach(th);
	}

	cfg = fuse_loop_cfg_create();
	fuse_loop_cfg_set_clone_fd(cfg, 0);
	fuse_loop_cfg_set_max_threads(cfg, 64);
	fuse_loop_cfg_set_idle_threads(cfg, 8);
	rc = fuse_session_loop_mt(se, cfg);
	fuse_loop_cfg_destroy(cfg);

	fuse_session_unmount(se);
	fuse_remove_signal_handlers(se);
	fuse_session_destroy(se);
	return rc ? 1 : 0;
}
