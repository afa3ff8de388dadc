/*-------------------------------------------------------------------------
 *
 * tablespace_group.c
 *	  The "tablespaces" argument of iobench.run() (tablespace_group.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/tablespace.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "run_args.h"
#include "tablespace_group.h"

/* See tablespace_group.h */
Name
iob_tablespace_names_arg(FunctionCallInfo fcinfo, int argno, int max, int *n)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(argno);
	Datum	   *elems;
	bool	   *nulls;
	Name		names;
	int			i;
	int			j;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"tablespaces\" must be a one-dimensional array"),
				 errdetail("It has %d dimensions.", ARR_NDIM(arr))));
	deconstruct_array(arr, NAMEOID, NAMEDATALEN, false, TYPALIGN_CHAR,
					  &elems, &nulls, n);
	if (*n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"tablespaces\" must name at least one tablespace")));
	if (*n > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"tablespaces\" names %d tablespaces, more than %d",
						*n, max)));
	names = palloc(sizeof(NameData) * *n);
	for (i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("argument \"tablespaces\" must not contain nulls")));
		namestrcpy(&names[i], NameStr(*DatumGetName(elems[i])));
		for (j = 0; j < i; j++)
			if (strcmp(NameStr(names[j]), NameStr(names[i])) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("tablespace \"%s\" appears more than once in argument \"tablespaces\"",
								NameStr(names[i]))));
	}
	return names;
}

/* See tablespace_group.h */
void
iob_tablespace_group_arg(FunctionCallInfo fcinfo, int argno, IobRunParams *params)
{
	Name		names;
	int			n;
	int			i;

	if (PG_ARGISNULL(argno))
		return;
	if (strcmp(NameStr(params->tablespace), "pg_default") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("arguments \"tablespace\" and \"tablespaces\" cannot both be given"),
				 errhint("Name the group's tablespaces in \"tablespaces\" only.")));
	names = iob_tablespace_names_arg(fcinfo, argno, IOB_MAX_GROUP, &n);
	for (i = 0; i < n; i++)
	{
		params->group_names[i] = names[i];
		params->group_oids[i] = iob_check_tablespace(NameStr(names[i]));
	}
	params->ngroup = n;
	params->tablespace_oid = params->group_oids[0];
	params->tablespace = params->group_names[0];
}

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

/* See tablespace_group.h */
void
iob_check_group(const IobRunParams *params)
{
	if (params->ngroup > 0 && params->files < params->ngroup)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("files %d is fewer than the %d tablespaces of argument \"tablespaces\"",
						params->files, params->ngroup),
				 errdetail("The files are spread over the tablespaces, one by one: each needs one at least."),
				 errhint("Use files => %d or more.", params->ngroup)));
}
