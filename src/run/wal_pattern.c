/*-------------------------------------------------------------------------
 *
 * wal_pattern.c
 *	  Runs that write as PostgreSQL's WAL writer does (wal_pattern.h).
 *
 * When O_DIRECT: PostgreSQL 15 adds it to open_datasync and open_sync only
 * when wal_level is minimal (no archiver or WAL sender reads the WAL back,
 * which would then come from the disk), never to fsync and fdatasync
 * (xlog.c, get_sync_bit()).  From PostgreSQL 16 the developer setting
 * debug_io_direct = wal decides, for every method.  A method the caller
 * names is taken as pg_test_fsync measures it: open_datasync and open_sync
 * with O_DIRECT, fsync and fdatasync buffered.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "utils/guc.h"

#include "base/base.h"
#include "wal_pattern.h"

/* The wal_sync_method values Linux has (fsync_writethrough is Windows') */
static const char *const wal_methods = "\"fsync\", \"fdatasync\", \"open_datasync\", \"open_sync\"";

/* See wal_pattern.h */
void
iob_check_wal_sync_method(const char *method)
{
	IobSyncMethod m;

	if (method != NULL && !iob_sync_method_by_name(method, &m))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for argument \"wal_sync_method\": \"%s\"", method),
				 errhint("Valid values are %s, or NULL for the server's wal_sync_method.",
						 wal_methods)));
}

/* Would the server open its WAL with O_DIRECT under sync method m? */
static bool
server_wal_direct(IobSyncMethod m)
{
#ifdef IOB_HAVE_DEBUG_IO_DIRECT
	const char *io_direct = GetConfigOption("debug_io_direct", true, false);

	(void) m;
	return io_direct != NULL && strstr(io_direct, "wal") != NULL;
#else
	return iob_sync_method_is_open(m) && !XLogIsNeeded();
#endif
}

/* See wal_pattern.h */
char *
iob_wal_pattern(const char *method, IobRunParams *params)
{
	const char *name = method;
	IobSyncMethod m;

	iob_check_wal_sync_method(method);
	if (name == NULL)
		name = GetConfigOption("wal_sync_method", false, false);
	if (!iob_sync_method_by_name(name, &m))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the server's wal_sync_method \"%s\" cannot be benchmarked", name),
				 errhint("Pass wal_sync_method, one of %s.", wal_methods)));

	params->rw = IOB_RW_WRITE;
	params->read_pct = 0;
	params->block_size = XLOG_BLCKSZ;
	params->workers = 1;
	params->iodepth = 1;
	params->files = 1;
	params->file_size = (uint64) wal_segment_size;
	params->sync_method = m;
	params->fsync_every = iob_sync_method_is_open(m) ? 0 : 1;
	/* pwrite() and a sync call, as the WAL writer does (io_uring would hand
	 * a synchronous write to a kernel worker thread) */
	params->engine = IOB_ENGINE_PSYNC;
	params->direct = method != NULL ? iob_sync_method_is_open(m) : server_wal_direct(m);

	return psprintf("as the WAL writer with wal_sync_method %s%s: %s %d kB writes into a %s segment%s",
					name, method == NULL ? " (the server's)" : "",
					params->direct ? "direct" : "buffered",
					XLOG_BLCKSZ / 1024,
					iob_size_pretty(wal_segment_size),
					iob_sync_method_is_open(m) ? ", each write synchronous" :
					psprintf(", %s after each", name));
}
