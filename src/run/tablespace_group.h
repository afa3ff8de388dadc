/*-------------------------------------------------------------------------
 *
 * tablespace_group.h
 *	  Several tablespaces in one run, as a filegroup spreads its files.
 *
 * iobench.run(tablespaces => ARRAY['a', 'b']) puts file i of the run in
 * tablespace i % n (round robin, as SQL Server fills the files of a
 * filegroup), so every worker's I/O goes to all of them in one measured
 * period.  Each worker keeps, besides its own figures, a histogram and
 * byte counts per tablespace (IOB_KEY_GROUP of the run's segment), so the
 * stored run has the aggregate in iobench.runs and each tablespace's
 * figures in iobench.run_tablespaces.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_TABLESPACE_GROUP_H
#define IOBENCH_TABLESPACE_GROUP_H

#include "postgres.h"

#include "results/results.h"
#include "run_validate.h"

#define IOB_KEY_GROUP	5

/*
 * A contender of iobench.suite(): a tablespace, or a group written as its
 * tablespaces joined by "+" ('raid1a+raid1b') when no tablespace has that
 * name.  iob_check_contender() raises the errors iobench.run() raises for
 * its tablespace or tablespaces; iob_contender_params() sets *params to
 * run on it, with at least one file per tablespace of a group.
 */
extern void iob_check_contender(const char *contender);
extern void iob_contender_params(const char *contender, IobRunParams *params);

#endif							/* IOBENCH_TABLESPACE_GROUP_H */
