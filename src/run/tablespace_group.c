/*-------------------------------------------------------------------------
 *
 * tablespace_group.c
 *	  Tablespaces a run may use, and the groups of iobench.suite()'s
 *	  contenders (tablespace_group.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_tablespace_d.h"
#include "commands/tablespace.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"

#include "base/base.h"
#include "tablespace_group.h"

/*
 * Split contender "a+b" into *params' group; false when it names a
 * tablespace (or is no group), leaving *params alone.
 */
static bool
contender_group(const char *contender, IobRunParams *params)
{
	char	   *copy;
	char	   *tok;
	char	   *save;
	int			n = 0;
	int			j;

	if (strchr(contender, '+') == NULL ||
		OidIsValid(get_tablespace_oid(contender, true)))
		return false;
	/* every part names a tablespace: no empty name before, after or between */
	if (contender[0] == '+' || contender[strlen(contender) - 1] == '+' ||
		strstr(contender, "++") != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tablespace group \"%s\" has an empty tablespace name", contender),
				 errhint("A group names two or more tablespaces joined by \"+\", for example \"ts_a+ts_b\".")));
	copy = pstrdup(contender);
	for (tok = strtok_r(copy, "+", &save); tok != NULL; tok = strtok_r(NULL, "+", &save))
	{
		if (n == IOB_MAX_GROUP)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("tablespace group \"%s\" has more than %d tablespaces",
							contender, IOB_MAX_GROUP)));
		namestrcpy(&params->group_names[n], tok);
		for (j = 0; j < n; j++)
			if (strcmp(NameStr(params->group_names[j]), tok) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("tablespace \"%s\" appears more than once in tablespace group \"%s\"",
								tok, contender)));
		params->group_oids[n] = iob_check_tablespace(tok);
		n++;
	}
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tablespace group \"%s\" names no tablespace", contender)));
	params->ngroup = n;
	params->tablespace_oid = params->group_oids[0];
	params->tablespace = params->group_names[0];
	return true;
}

/* See tablespace_group.h */
void
iob_check_contender(const char *contender)
{
	IobRunParams p;

	memset(&p, 0, sizeof(p));
	if (!contender_group(contender, &p))
		(void) iob_check_tablespace(contender);
}

/* See tablespace_group.h */
void
iob_contender_params(const char *contender, IobRunParams *params)
{
	params->ngroup = 0;
	if (contender_group(contender, params))
		params->files = Max(params->files, params->ngroup);
	else
	{
		params->tablespace_oid = iob_check_tablespace(contender);
		namestrcpy(&params->tablespace, contender);
	}
}
