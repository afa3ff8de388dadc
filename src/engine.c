/*-------------------------------------------------------------------------
 *
 * engine.c
 *	  What every I/O engine shares: names and wait events.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/wait_event.h"

#include "engine.h"

/* Name of an engine as the "engine" argument and the result row spell it */
const char *
iob_engine_kind_name(IobEngineKind kind)
{
	switch (kind)
	{
		case IOB_ENGINE_AUTO:
			return "auto";
		case IOB_ENGINE_IO_URING:
			return "io_uring";
		case IOB_ENGINE_PSYNC:
			return "psync";
	}
	return "unknown";
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
