/*-------------------------------------------------------------------------
 *
 * space.c
 *	  The free space of the file system under a directory, the safety
 *	  margin kept on it, and the lock that makes a check and the space it
 *	  grants one step (space.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include "miscadmin.h"
#include "storage/lock.h"
#include "utils/builtins.h"

#include "base/base.h"
#include "space.h"

/*
 * Free space kept beyond what a run takes: at least 32 MB, or 1 % of the
 * file system, so a benchmark never fills a disk the database lives on.
 */
#define SAFETY_MARGIN_MIN	((uint64) 32 * 1024 * 1024)
#define SAFETY_MARGIN_PCT	1

/*
 * Where a tablespace lives, for messages: its location, or the data
 * directory for pg_default.
 */
char *
iob_tablespace_location(Oid spcoid)
{
	char	   *location;

	location = text_to_cstring(DatumGetTextPP(DirectFunctionCall1(pg_tablespace_location,
																  ObjectIdGetDatum(spcoid))));
	if (location[0] == '\0')
		return psprintf("the data directory, %s", DataDir);
	return location;
}

/*
 * The free space of the file system under "dir" into *avail, and the
 * safety margin kept on it into *margin
 */
void
iob_free_space(const char *dir, uint64 *avail, uint64 *margin)
{
	struct statvfs vfs;
	uint64		total;

	if (statvfs(dir, &vfs) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file system of directory \"%s\": %m", dir)));
	*avail = (uint64) vfs.f_bavail * vfs.f_frsize;
	total = (uint64) vfs.f_blocks * vfs.f_frsize;
	*margin = Max(SAFETY_MARGIN_MIN, total / 100 * SAFETY_MARGIN_PCT);
}

/*
 * Refuse, before writing a byte, to grow relation "relation" in "dir" (a
 * database directory of tablespace "tablespace") by "added" bytes to
 * "size" bytes when the file system lacks room for it plus the safety
 * margin (engine "postgres"'s relation)
 */
void
iob_check_relation_space(const char *tablespace, Oid spcoid, const char *dir,
						 const char *relation, uint64 added, uint64 size)
{
	uint64		avail;
	uint64		margin;

	iob_free_space(dir, &avail, &margin);
	if (added + margin > avail)
		ereport(ERROR,
				(errcode(ERRCODE_DISK_FULL),
				 errmsg("not enough free space in tablespace \"%s\" for the relation of engine \"postgres\"",
						tablespace),
				 errdetail("Relation %s needs %s more to reach %s, and %s are kept free as a safety margin, but only %s are available at %s.",
						   relation, iob_size_pretty((int64) added),
						   iob_size_pretty((int64) size),
						   iob_size_pretty((int64) margin),
						   iob_size_pretty((int64) avail),
						   iob_tablespace_location(spcoid)),
				 errhint("Use a smaller \"file_size\", or free space in the tablespace; iobench.drop_read_targets() removes the relations that runs of engine \"postgres\" keep.")));
}

/*
 * The lock that makes the free-space check and the space it grants one
 * step: an advisory lock of PostgreSQL's lock manager keyed by the file
 * system's device number, in database 0 so runs from every database meet
 * on it, and with this last key field so it never equals a lock taken with
 * pg_advisory_lock() (which uses 1 and 2 there).  It needs no preload, a
 * cancel while waiting for it works, and an error releases it.
 */
#define IOB_SPACE_LOCK_FIELD4	0x10BE

/* See space.h */
void
iob_space_lock(const char *dir, LOCKTAG *tag)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat directory \"%s\": %m", dir)));
	SET_LOCKTAG_ADVISORY(*tag, InvalidOid, (uint32) ((uint64) st.st_dev >> 32),
						 (uint32) st.st_dev, IOB_SPACE_LOCK_FIELD4);
	(void) LockAcquire(tag, ExclusiveLock, false, false);
}

/* See space.h */
void
iob_space_unlock(const LOCKTAG *tag)
{
	LockRelease(tag, ExclusiveLock, false);
}
