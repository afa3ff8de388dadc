/*-------------------------------------------------------------------------
 *
 * wait_table.c
 *	  The wait table: fixed-capacity totals per wait type (see
 *	  wait_table.h).  Pure data structure: no process is read here.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"

#include "wait_table.h"

/* Index slots for a capacity: a power of two, at least twice the capacity */
static int
iob_wait_table_nslots(int capacity)
{
	int			nslots = 16;

	while (nslots < 2 * capacity)
		nslots <<= 1;
	return nslots;
}

/* Bytes needed by a table of "capacity" entries, header included */
Size
iob_wait_table_size(int capacity)
{
	Size		size;

	size = MAXALIGN(sizeof(IobWaitTable));
	size = add_size(size, MAXALIGN(mul_size(sizeof(IobWaitEntry), capacity)));
	size = add_size(size, mul_size(sizeof(int32),
								   iob_wait_table_nslots(capacity)));
	return size;
}

/* The entry array that follows the header */
IobWaitEntry *
iob_wait_table_entries(IobWaitTable *table)
{
	return (IobWaitEntry *) ((char *) table + MAXALIGN(sizeof(IobWaitTable)));
}

/* The index that follows the entries */
static inline int32 *
iob_wait_table_index(IobWaitTable *table)
{
	return (int32 *) ((char *) iob_wait_table_entries(table) +
					  MAXALIGN(sizeof(IobWaitEntry) * table->capacity));
}

/* Set up an empty table in a block of iob_wait_table_size(capacity) bytes */
void
iob_wait_table_init(IobWaitTable *table, int capacity)
{
	table->capacity = capacity;
	table->nslots = iob_wait_table_nslots(capacity);
	iob_wait_table_clear(table);
}

/* Forget every entry and the overflow */
void
iob_wait_table_clear(IobWaitTable *table)
{
	int32	   *index = iob_wait_table_index(table);
	int			i;

	for (i = 0; i < table->nslots; i++)
		index[i] = -1;
	table->nentries = 0;
	table->overflow_deltas = 0;
	memset(&table->overflow, 0, sizeof(IobWaitEntry));
	table->overflow.key = IOB_KEY_OVERFLOW;
}

/* Hash of a key (both halves matter: flavours share wait_event_info 0) */
static inline uint32
iob_wait_key_hash(uint64 key)
{
	return murmurhash32(IOB_WAIT_KEY_INFO(key) ^
						((uint32) (key >> 32) * 0x9E3779B9U));
}

/*
 * The entry of a key, created if there is room; NULL when the table is
 * full.  Linear probing over at most twice as many slots as entries, so a
 * free slot always exists and probes stay short.
 */
static IobWaitEntry *
iob_wait_table_lookup(IobWaitTable *table, uint64 key)
{
	IobWaitEntry *entries = iob_wait_table_entries(table);
	int32	   *index = iob_wait_table_index(table);
	uint32		mask = table->nslots - 1;
	uint32		pos = iob_wait_key_hash(key) & mask;

	for (;;)
	{
		int32		e = index[pos];

		if (e < 0)
			break;
		if (entries[e].key == key)
			return &entries[e];
		pos = (pos + 1) & mask;
	}

	if (table->nentries >= table->capacity)
		return NULL;

	index[pos] = table->nentries;
	memset(&entries[table->nentries], 0, sizeof(IobWaitEntry));
	entries[table->nentries].key = key;
	return &entries[table->nentries++];
}

/*
 * Add a tick's deltas to a table; keys that find no room go to overflow.
 * A tick lists processes in PGPROC order, and neighbours often share a
 * state (idle sessions in ClientRead): a run of the same key is looked up
 * once.
 */
void
iob_wait_table_apply(IobWaitTable *table, const IobWaitDelta *deltas,
					 int ndeltas)
{
	IobWaitEntry *e = NULL;
	uint64		last_key = 0;
	int			i;

	for (i = 0; i < ndeltas; i++)
	{
		const IobWaitDelta *d = &deltas[i];

		if (e == NULL || d->key != last_key)
		{
			last_key = d->key;
			e = iob_wait_table_lookup(table, d->key);
			if (e == NULL)
				e = &table->overflow;
		}
		if (e == &table->overflow)
			table->overflow_deltas++;
		e->wait_ns += d->wait_ns;
		if (d->signal_known)
			e->signal_ns += d->signal_ns;
		else
			e->nosignal_ns += d->wait_ns;
		e->count += d->entries;
	}
}

/* A private table of "capacity" entries, in CurrentMemoryContext */
IobWaitTable *
iob_wait_table_create(int capacity)
{
	IobWaitTable *table = palloc(iob_wait_table_size(capacity));

	iob_wait_table_init(table, capacity);
	return table;
}
