/*-------------------------------------------------------------------------
 *
 * files.c
 *	  The test files of a run: location, creation with incompressible
 *	  data, direct-I/O check, removal.  What lies under them is described
 *	  by storage.c.
 *
 * See files.h for the naming rule that lets the server's start-up clean-up
 * remove files a crash leaves behind.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_perm.h"
#include "common/pg_prng.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/lock.h"
#include "utils/builtins.h"

#include "files.h"
#include "tablespace_group.h"
#include "base/base.h"

/* Files are written in chunks of this size while being filled */
#define FILL_CHUNK		(1024 * 1024)

/*
 * Path (relative to the data directory) of the temporary-file directory of
 * a tablespace; made if missing, as PostgreSQL does for its own temp files.
 */
void
iob_temp_dir_for_tablespace(Oid spcoid, char *path)
{
	TempTablespacePath(path, spcoid);
	if (MakePGDirectory(path) < 0 && errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create directory \"%s\": %m", path)));
}

/*
 * Refuse to start, before writing a byte, when the file system under "dir"
 * (the temporary directory of the run's tablespace) lacks room for the
 * run's files plus the safety margin.  The message names the tablespace and
 * its location, not the internal path, and gives sizes as the user typed
 * them (iob_size_pretty).
 */
void
iob_check_free_space(const IobRunParams *params, const char *dir)
{
	uint64		needed = params->file_size * (uint64) params->files;
	uint64		avail;
	uint64		margin;

	iob_free_space(dir, &avail, &margin);
	if (needed + margin > avail)
		ereport(ERROR,
				(errcode(ERRCODE_DISK_FULL),
				 errmsg("not enough free space in tablespace \"%s\" for the benchmark files",
						NameStr(params->tablespace)),
				 errdetail_plural("The files need %s (%d file of %s) and %s are kept free as a safety margin, but only %s are available at %s.",
								  "The files need %s (%d files of %s) and %s are kept free as a safety margin, but only %s are available at %s.",
								  params->files,
								  iob_size_pretty((int64) needed), params->files,
								  iob_size_pretty((int64) params->file_size),
								  iob_size_pretty((int64) margin),
								  iob_size_pretty((int64) avail),
								  iob_tablespace_location(params->tablespace_oid)),
				 errhint("Use smaller or fewer files (arguments \"file_size\" and \"files\").")));
}

/* Path of file "index" of the run */
void
iob_file_path(const IobRunShared *run, int index, char *path)
{
	/* a group: file i in tablespace i % n (tablespace_group.h) */
	const char *dir = run->params.ngroup > 0 ?
		run->group_dirs[index % run->params.ngroup] : run->dir;

	snprintf(path, MAXPGPATH, "%s/%s.%d", dir, run->file_prefix, index);
}

/*
 * The free-space check of every tablespace of the run, each for its own
 * files (a run on one tablespace: iob_check_free_space(params, dir)).
 */
void
iob_check_group_free_space(const IobRunParams *params, const char *dir)
{
	int			g;

	if (params->ngroup == 0)
	{
		iob_check_free_space(params, dir);
		return;
	}
	for (g = 0; g < params->ngroup; g++)
	{
		IobRunParams member = *params;
		char		gdir[MAXPGPATH];

		member.tablespace_oid = params->group_oids[g];
		member.tablespace = params->group_names[g];
		member.files = iob_group_files(params, g);
		iob_temp_dir_for_tablespace(member.tablespace_oid, gdir);
		iob_check_free_space(&member, gdir);
	}
}

/*
 * iob_allocate_files() for the files of member g of n of the run's
 * tablespaces (all of them for a run on one tablespace), under the lock of
 * that tablespace's file system.
 */
static void
allocate_member_files(IobRunShared *run, int g, int n)
{
	LOCKTAG		tag;
	IobRunParams member = run->params;
	const char *dir = run->params.ngroup > 0 ? run->group_dirs[g] : run->dir;
	int			i;

	iob_space_lock(dir, &tag);

	if (run->params.ngroup > 0)
	{
		member.tablespace_oid = run->params.group_oids[g];
		member.tablespace = run->params.group_names[g];
		member.files = iob_group_files(&run->params, g);
	}
	iob_check_free_space(&member, dir);
	for (i = g; i < run->params.files; i += n)
	{
		char		path[MAXPGPATH];
		int			fd;
		int			rc;

		CHECK_FOR_INTERRUPTS();
		iob_file_path(run, i, path);
		fd = OpenTransientFile(path, O_CREAT | O_EXCL | O_WRONLY | PG_BINARY);
		if (fd < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not create file \"%s\": %m", path)));
		rc = posix_fallocate(fd, 0, (off_t) run->params.file_size);
		if (rc != 0)
		{
			errno = rc;
			ereport(ERROR,
					(errcode(rc == ENOSPC ? ERRCODE_DISK_FULL : ERRCODE_IO_ERROR),
					 errmsg("could not allocate %s for file \"%s\": %m",
							iob_size_pretty((int64) run->params.file_size), path)));
		}
		CloseTransientFile(fd);
	}
	iob_space_unlock(&tag);
}

/*
 * Create every file of the run at its full size, before a byte of data is
 * written: under the file system's space lock, check the free space (with
 * the safety margin) and allocate each file with posix_fallocate().  A run
 * started at the same moment on the same file system then checks after
 * this one's space is taken, and is refused up front instead of both
 * filling the disk.  The files are filled afterwards (iob_create_files),
 * outside the lock, over blocks already allocated.
 */
void
iob_allocate_files(IobRunShared *run)
{
	int			n = iob_group_size(&run->params);
	int			g;

	for (g = 0; g < n; g++)
		allocate_member_files(run, g, n);
}

/* Fill buf with pseudo-random bytes: incompressible and not deduplicable */
static void
fill_random(pg_prng_state *prng, char *buf, size_t len)
{
	uint64	   *words = (uint64 *) buf;
	size_t		i;

	for (i = 0; i < len / sizeof(uint64); i++)
		words[i] = pg_prng_uint64(prng);
}

/*
 * Fill every file of the run (made by iob_allocate_files) with
 * incompressible data, so reads never hit holes; then sync it and drop it
 * from the page cache, so the first reads of the run go to the device.
 * Honours cancel between chunks.  A file left half-written by an error is removed by the caller's
 * clean-up (iob_remove_files).
 */
void
iob_create_files(IobRunShared *run)
{
	char	   *chunk;
	pg_prng_state prng;
	int			i;

	chunk = palloc(FILL_CHUNK);
	pg_prng_seed(&prng, run->params.seed ^ UINT64CONST(0x5DEECE66D));

	for (i = 0; i < run->params.files; i++)
	{
		char		path[MAXPGPATH];
		int			fd;
		uint64		done = 0;

		iob_file_path(run, i, path);
		fd = OpenTransientFile(path, O_WRONLY | PG_BINARY);
		if (fd < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", path)));
		while (done < run->params.file_size)
		{
			size_t		len = Min((uint64) FILL_CHUNK, run->params.file_size - done);
			ssize_t		written;

			CHECK_FOR_INTERRUPTS();
			fill_random(&prng, chunk, len);
			written = pwrite(fd, chunk, len, (off_t) done);
			if (written != (ssize_t) len)
			{
				if (written >= 0)
					errno = ENOSPC;
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not write file \"%s\": %m", path)));
			}
			done += len;
		}
		/*
		 * Written back, so that the page cache can drop the file: dirty
		 * pages stay.  fdatasync(), not pg_fsync(), which does nothing
		 * under fsync = off and would leave every later read a cache hit.
		 */
		if (fdatasync(fd) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not fsync file \"%s\": %m", path)));
		(void) posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		CloseTransientFile(fd);
	}
	pfree(chunk);
}

/*
 * Remove every file of the run.  Never raises an error: it runs in error
 * clean-up; a file that cannot be removed is reported in the server log.
 */
void
iob_remove_files(const IobRunShared *run)
{
	int			i;

	for (i = 0; i < run->params.files; i++)
	{
		char		path[MAXPGPATH];

		iob_file_path(run, i, path);
		if (unlink(path) != 0 && errno != ENOENT)
			ereport(LOG,
					(errcode_for_file_access(),
					 errmsg("could not remove benchmark file \"%s\": %m", path)));
	}
}

/* iob_check_direct_io() for file "index" */
static void
check_direct_io_file(const IobRunShared *run, int index)
{
	int			fd;

	fd = iob_open_file(run, index, false);
	if (fd < 0)
	{
		char		path[MAXPGPATH];

		iob_file_path(run, index, path);
		if (errno == EINVAL)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("file system under tablespace \"%s\" does not support direct I/O",
							run->params.ngroup > 0 ?
							NameStr(run->params.group_names[index]) :
							NameStr(run->params.tablespace)),
					 errhint("Run with direct => false: buffered I/O, with the files evicted from the page cache before measuring.")));
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", path)));
	}
	close(fd);
}

/*
 * Fail early, with a hint, when the file system refuses O_DIRECT (tmpfs
 * before Linux 6.6, e.g. Debian 12's 6.1; some network file systems),
 * rather than in every worker.
 */
void
iob_check_direct_io(const IobRunShared *run)
{
	int			g;

	if (!run->params.direct)
		return;
	/* a file of each tablespace of a group */
	for (g = 0; g < iob_group_size(&run->params); g++)
		check_direct_io_file(run, g);
}


/*
 * Open file "index" of the run for the benchmark, with O_DIRECT when the
 * run asks for it, and for writing with O_DSYNC or O_SYNC when its
 * sync_method is open_datasync or open_sync.  Returns the descriptor, or
 * -1 with errno set.  A raw descriptor (not a PostgreSQL VFD) because
 * io_uring needs a stable fd.
 */
int
iob_open_file(const IobRunShared *run, int index, bool writable)
{
	char		path[MAXPGPATH];
	int			flags = writable ? O_RDWR : O_RDONLY;

	if (run->params.direct)
		flags |= O_DIRECT;
	if (writable && run->params.sync_method == IOB_SYNC_OPEN_DATASYNC)
		flags |= O_DSYNC;
	if (writable && run->params.sync_method == IOB_SYNC_OPEN_SYNC)
		flags |= O_SYNC;
	iob_file_path(run, index, path);
	return open(path, flags | PG_BINARY, 0);
}
