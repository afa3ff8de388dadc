/*-------------------------------------------------------------------------
 *
 * wal_pattern.h
 *	  The settings of a run that writes as PostgreSQL's WAL writer does.
 *
 * PostgreSQL writes WAL in XLOG_BLCKSZ (8 kB) pages, sequentially, into a
 * segment of wal_segment_size bytes that was allocated in full beforehand
 * (a new or recycled file), and makes each flush durable by the method of
 * wal_sync_method: buffered writes followed by fdatasync() or fsync(), or
 * a file opened with O_DSYNC (open_datasync) or O_SYNC (open_sync), with
 * O_DIRECT as well when nothing else reads the WAL back soon.  A suite test
 * with sync_method "wal" (the oltp suite's commit test) runs that way.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_WAL_PATTERN_H
#define IOBENCH_WAL_PATTERN_H

#include "postgres.h"

#include "run_validate.h"

/*
 * Make *params write like the WAL writer with wal_sync_method "method", or
 * with the server's own wal_sync_method and direct-I/O rule when method is
 * NULL: sequential writes of one WAL page into one file of the server's
 * wal_segment_size, wrapping at its end, one sync (or a synchronous write)
 * per page, with pwrite() (engine psync) as the server writes.  Returns a sentence saying what was chosen, for the suite's
 * notes.  An unknown method is an ERROR naming argument "wal_sync_method".
 */
extern char *iob_wal_pattern(const char *method, IobRunParams *params);

/* Check a wal_sync_method argument (NULL is fine: the server's) */
extern void iob_check_wal_sync_method(const char *method);

#endif							/* IOBENCH_WAL_PATTERN_H */
