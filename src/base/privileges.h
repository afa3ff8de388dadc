/*-------------------------------------------------------------------------
 *
 * privileges.h
 *	  Who may run benchmarks and read results, and the errors that say
 *	  what to grant.
 *
 * The extension script creates the group role "iobench_user" (NOLOGIN,
 * cluster-wide, shared by every database that installs iobench) and grants
 * it everything a benchmark user needs; "GRANT iobench_user TO alice" is
 * the one step.  Every function of the API is also executable by PUBLIC
 * so that a caller without a grant reaches iob_require_grant() and gets a
 * HINT naming the grant, instead of PostgreSQL's bare "permission
 * denied": iobench_user, pg_monitor for the wait statistics of the
 * instance, or EXECUTE on the function itself for the owner's functions
 * (imports, fleet calls, resets and snapshots of the waits).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_PRIVILEGES_H
#define IOBENCH_PRIVILEGES_H

#include "postgres.h"

#include "compat.h"

/* The group role of benchmark users, created by the extension script */
#define IOB_USER_ROLE	"iobench_user"

extern void iob_require_grant(Oid fnoid);
pg_noreturn extern void iob_tablespace_denied(const char *spcname);
extern void iob_check_run_waits_scope(void);

/*
 * A tablespace by name that the current user may create files in (the
 * database's default needs no grant); its OID.
 */
extern Oid	iob_check_tablespace(const char *spcname);

#endif							/* IOBENCH_PRIVILEGES_H */
