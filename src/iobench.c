/*-------------------------------------------------------------------------
 *
 * iobench.c
 *	  Entry point: the module magic and _PG_init, which defines the
 *	  settings (settings.c) and calls each subsystem's start-up work.
 *
 * The top of the include graph: it may include every subsystem's public
 * header, and nothing includes it (tools/include_graph.sh).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "base/base.h"
#include "run/run.h"
#include "waits/waits.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* Define the settings, initialise each subsystem, reserve the prefix */
void
_PG_init(void)
{
	iob_define_settings();
	iob_run_limits_init();
	iob_wait_collector_init();
	MarkGUCPrefixReserved("iobench");
}
