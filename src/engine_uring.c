/*-------------------------------------------------------------------------
 *
 * engine_uring.c
 *	  Placeholder until the io_uring engine lands (issue 3): reports the
 *	  engine as not built, so "auto" falls back to psync with a NOTICE.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "engine.h"

/* No io_uring engine in this build yet */
const IobEngineOps *
iob_engine_uring_ops(void)
{
	return NULL;
}

/* io_uring cannot be used: not built */
int
iob_engine_probe_uring(void)
{
	return ENOSYS;
}
