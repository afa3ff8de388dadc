/*-------------------------------------------------------------------------
 *
 * engine.c
 *	  What every I/O engine shares: names, wait events, the table of each
 *	  engine kind, the rules of the engines that read the run's files, and
 *	  the choice of the engine a run uses (with the fallback from io_uring
 *	  to psync).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/wait_event.h"

#include "engine.h"
#include "base/base.h"

/* Engine names as the "engine" argument and the result row spell them */
const char *const iob_engine_names[] = {"auto", "io_uring", "psync", "postgres"};

/* I/O kinds as the results name them (engine.h) */
const char *const iob_op_names[IOB_NUM_OP_KINDS] = {"read", "write", "fsync"};

/* Name of an engine kind; "unknown" for no kind */
const char *
iob_engine_kind_name(IobEngineKind kind)
{
	if ((int) kind < 0 || kind >= IOB_NUM_ENGINE_KINDS)
		return "unknown";
	return iob_engine_names[kind];
}

/*
 * The operations table of an engine kind.  "auto" (not resolved yet) gives
 * io_uring's: the two file engines have the same flags and rules, and
 * differ only in how a worker issues its I/O, decided once resolved.
 */
const IobEngineOps *
iob_engine_ops(IobEngineKind kind)
{
	switch (kind)
	{
		case IOB_ENGINE_AUTO:
		case IOB_ENGINE_IO_URING:
			return &iob_engine_uring;
		case IOB_ENGINE_PSYNC:
			return &iob_engine_psync;
		case IOB_ENGINE_POSTGRES:
			return &iob_engine_postgres;
	}
	elog(ERROR, "invalid engine kind %d", (int) kind);
	return NULL;				/* keep the compiler quiet */
}

/*
 * The rules of the engines that read the run's files (psync, io_uring)
 * beyond what every run checks: the server's read settings are engine
 * "postgres"'s alone.
 */
void
iob_engine_check_file_work(const IobEngineWork *work)
{
	if (work->io_concurrency_given || work->io_combine_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"%s\" applies only to engine \"postgres\"",
						work->io_concurrency_given ? "effective_io_concurrency" : "io_combine_limit"),
				 errdetail("It sets how the server's own read path reads; the other engines read the files themselves, with iodepth I/Os in flight."),
				 errhint("Use engine => 'postgres', or iodepth for the other engines.")));
}

/*
 * The wait event a worker reports while an op of this kind is under way:
 * the ones a backend reports for data-file I/O, so every wait tool sees
 * iobench's workers as it sees real backends.
 */
uint32
iob_op_wait_event(IobOpKind kind)
{
	switch (kind)
	{
		case IOB_OP_READ:
			return WAIT_EVENT_DATA_FILE_READ;
		case IOB_OP_WRITE:
			return WAIT_EVENT_DATA_FILE_WRITE;
		case IOB_OP_FSYNC:
			return WAIT_EVENT_DATA_FILE_SYNC;
	}
	return WAIT_EVENT_DATA_FILE_READ;
}

/*
 * Is io_uring there for a run that asks for engine "requested" ("auto" or
 * "io_uring")?  Returns 0 when it is.  Otherwise raises the ERROR that
 * engine => 'io_uring' gets, or, for "auto", returns the errno saying why
 * not and leaves errno set to it (for %m), so that the caller can fall back
 * and say so.  iobench.io_uring = off makes it unavailable (EPERM).
 */
int
iob_engine_uring_unavailable(IobEngineKind requested)
{
	int			uring_errno;

	Assert(requested == IOB_ENGINE_AUTO || requested == IOB_ENGINE_IO_URING);
	uring_errno = !iobench_io_uring ? EPERM : iob_engine_uring.probe();
	errno = uring_errno;
	if (uring_errno != 0 && requested == IOB_ENGINE_IO_URING)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("io_uring is not available: %m"),
				 !iobench_io_uring ?
				 errdetail("iobench.io_uring is off.") :
				 errdetail("The kernel refused to create an io_uring instance (kernel.io_uring_disabled, a container's seccomp profile, or an old kernel)."),
				 errhint("Use engine => 'psync' or engine => 'auto'.")));
	return uring_errno;
}

/*
 * The engine a run with this "engine" argument and iodepth uses: postgres
 * as asked; psync only
 * at iodepth 1; io_uring only where it is available; "auto" takes io_uring
 * when it is, and otherwise psync with a NOTICE saying why — or an ERROR
 * at iodepth above 1, since psync would measure a different load than the
 * one asked for.
 */
IobEngineKind
iob_engine_resolve(IobEngineKind requested, int iodepth)
{
	/* the server's read path has its own rules (its ops->check_work) */
	if (requested == IOB_ENGINE_POSTGRES)
		return IOB_ENGINE_POSTGRES;
	if (requested == IOB_ENGINE_PSYNC)
	{
		if (iodepth > 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("engine \"psync\" supports only iodepth 1"),
					 errhint("Use engine => 'io_uring' or engine => 'auto' for iodepth %d.",
							 iodepth)));
		return IOB_ENGINE_PSYNC;
	}

	if (iob_engine_uring_unavailable(requested) == 0)
		return IOB_ENGINE_IO_URING;

	/* "auto" without io_uring; errno says why */
	if (iodepth > 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("iodepth %d needs io_uring, which is not available: %m",
						iodepth),
				 !iobench_io_uring ? errdetail("iobench.io_uring is off.") : 0,
				 errhint("Use iodepth => 1 with engine \"psync\", and more workers for more outstanding I/O.")));
	ereport(NOTICE,
			(errmsg("io_uring is not available (%m); using engine \"psync\""),
			 !iobench_io_uring ? errdetail("iobench.io_uring is off.") : 0));
	return IOB_ENGINE_PSYNC;
}
