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

#include "results/histogram.h"
#include "run_options.h"

#define IOB_KEY_GROUP	5

/* One worker's figures for one tablespace of the group */
typedef struct IobGroupStats
{
	IobHistogram hist[IOB_NUM_OP_KINDS];
	uint64		bytes[IOB_NUM_OP_KINDS];
} IobGroupStats;

/*
 * A tablespace by name that the current user may create files in (the
 * database's default needs no grant); its OID.
 */
extern Oid	iob_check_tablespace(const char *spcname);

/*
 * A contender of iobench.suite(): a tablespace, or a group written as its
 * tablespaces joined by "+" ('raid1a+raid1b') when no tablespace has that
 * name.  iob_check_contender() raises the errors iobench.run() raises for
 * its tablespace or tablespaces; iob_contender_params() sets *params to
 * run on it, with at least one file per tablespace of a group.
 */
extern void iob_check_contender(const char *contender);
extern void iob_contender_params(const char *contender, IobRunParams *params);

/* Tablespaces of the run: 1 for a single one */
static inline int
iob_group_size(const IobRunParams *params)
{
	return params->ngroup > 0 ? params->ngroup : 1;
}

/* Files of the run in member g of the group */
static inline int
iob_group_files(const IobRunParams *params, int g)
{
	int			n = iob_group_size(params);

	return params->files / n + (g < params->files % n ? 1 : 0);
}

#endif							/* IOBENCH_TABLESPACE_GROUP_H */
