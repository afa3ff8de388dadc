/*-------------------------------------------------------------------------
 *
 * files.h
 *	  The test files of a run: where they live, making, filling, removing.
 *
 * Files live in the tablespace's temporary-file directory (what PostgreSQL
 * uses for temporary files in that tablespace) and carry the temporary-file
 * name prefix, "pgsql_tmp<launcher pid>.iobench.<run>.<n>", so the server's
 * own start-up clean-up removes whatever a crash leaves behind.  Nothing
 * else in the tablespace is ever touched.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_FILES_H
#define IOBENCH_FILES_H

#include "postgres.h"

#include "storage/lock.h"

#include "run_shared.h"

extern void iob_temp_dir_for_tablespace(Oid spcoid, char *path);
extern void iob_check_free_space(const IobRunParams *params, const char *dir);
extern void iob_check_group_free_space(const IobRunParams *params, const char *dir);
extern void iob_file_path(const IobRunShared *run, int index, char *path);
extern void iob_allocate_files(IobRunShared *run);
extern void iob_create_files(IobRunShared *run);
extern void iob_remove_files(const IobRunShared *run);
extern void iob_check_direct_io(const IobRunShared *run);
extern int	iob_open_file(const IobRunShared *run, int index, bool writable);

#endif							/* IOBENCH_FILES_H */
