/*-------------------------------------------------------------------------
 *
 * dynworker.c
 *	  The dynamic background workers of a run: registering one, and its
 *	  first steps (dynworker.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "tcop/tcopprot.h"

#include "dynworker.h"

/* See dynworker.h */
void
iob_dynworker_prepare(BackgroundWorker *worker, const char *function,
					  const char *type, dsm_segment *seg)
{
	memset(worker, 0, sizeof(BackgroundWorker));
	worker->bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker->bgw_start_time = BgWorkerStart_ConsistentState;
	worker->bgw_restart_time = BGW_NEVER_RESTART;
	strlcpy(worker->bgw_library_name, "iobench", BGW_MAXLEN);
	strlcpy(worker->bgw_function_name, function, BGW_MAXLEN);
	strlcpy(worker->bgw_type, type, BGW_MAXLEN);
	worker->bgw_main_arg = UInt32GetDatum(dsm_segment_handle(seg));
	worker->bgw_notify_pid = MyProcPid;
	memcpy(worker->bgw_extra, &MyDatabaseId, sizeof(Oid));
}

/* See dynworker.h */
void
iob_dynworker_connect(const char *appname)
{
	Oid			dboid;

	memcpy(&dboid, MyBgworkerEntry->bgw_extra, sizeof(Oid));
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(dboid, InvalidOid, 0);
	pgstat_report_appname(appname);
}

/* See dynworker.h */
shm_toc *
iob_dynworker_attach(Datum main_arg, uint64 magic, uint64 other_magic,
					 dsm_segment **seg)
{
	shm_toc    *toc;

	*seg = dsm_attach(DatumGetUInt32(main_arg));
	if (*seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not map dynamic shared memory segment of the benchmark run")));
	toc = shm_toc_attach(magic, dsm_segment_address(*seg));
	if (toc == NULL && other_magic != 0)
		toc = shm_toc_attach(other_magic, dsm_segment_address(*seg));
	if (toc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("bad magic number in dynamic shared memory segment of the benchmark run")));
	return toc;
}
