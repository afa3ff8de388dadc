/*-------------------------------------------------------------------------
 *
 * space.h
 *	  The free space of the file system under a directory, and the lock
 *	  that makes a free-space check and the space it grants one step.
 *
 * A run's files (run/files.c) and engine "postgres"'s relation
 * (engine/engine_postgres_relation.c) are refused, before a byte is
 * written, when the file system under them lacks room for them plus a
 * safety margin; whoever checks and then takes the space holds the file
 * system's space lock from the check until the space is taken, so two
 * runs never both count the same free space.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_SPACE_H
#define IOBENCH_SPACE_H

#include "postgres.h"

#include "storage/lock.h"

/*
 * The free space of the file system under "dir" into *avail, and the
 * safety margin kept on it into *margin
 */
extern void iob_free_space(const char *dir, uint64 *avail, uint64 *margin);

/* Where a tablespace lives, for messages: its location, or the data directory */
extern char *iob_tablespace_location(Oid spcoid);

/* Refuse to grow a relation past the free space less the margin (space.c) */
extern void iob_check_relation_space(const char *tablespace, Oid spcoid, const char *dir,
									 const char *relation, uint64 added, uint64 size);

/*
 * The lock that makes a free-space check and the space it grants one step,
 * per file system (the file system under "dir"): whoever checks the free
 * space and then takes it (allocates files, extends a relation) holds it
 * from the check until the space is taken.  A transaction-level lock: an
 * error releases it.
 */
extern void iob_space_lock(const char *dir, LOCKTAG *tag);
extern void iob_space_unlock(const LOCKTAG *tag);

#endif							/* IOBENCH_SPACE_H */
