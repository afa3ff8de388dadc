/*-------------------------------------------------------------------------
 *
 * base.h
 *	  The base subsystem's public header: PostgreSQL glue every subsystem uses.
 *
 * base is the bottom level (tools/include_graph.sh): it includes no other
 * subsystem.  Its parts are independent tools, each with its own header:
 * the iobench.* settings (settings.h), the differences between PostgreSQL
 * releases (compat.h, the only file that tests the server's version), the clock,
 * SPI as the extension's owner, subtransactions, privileges, dynamic
 * background workers, and the helpers of SQL entry points and arguments.
 * Other subsystems include this header, never those parts one by one.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_BASE_H
#define IOBENCH_BASE_H

#include "compat.h"
#include "clock.h"
#include "settings.h"
#include "sql_args.h"
#include "sql_entry.h"
#include "owner_spi.h"
#include "subxact.h"
#include "privileges.h"
#include "dynworker.h"

#endif							/* IOBENCH_BASE_H */
