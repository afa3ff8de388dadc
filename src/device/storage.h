/*-------------------------------------------------------------------------
 *
 * storage.h
 *	  What lies under a directory: block device, file system, mount point
 *	  (storage.c), as a run records it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_STORAGE_H
#define IOBENCH_STORAGE_H

#include "postgres.h"

typedef struct IobStorageInfo
{
	char		device[64];		/* e.g. "vda", "nvme0n1p2", "tmpfs" */
	char		filesystem[32]; /* e.g. "ext4" */
	char		mount_point[MAXPGPATH];
} IobStorageInfo;

/* Describe the storage under "dir"; every field is filled */
extern void iob_describe_storage(const char *dir, IobStorageInfo *info);

#endif							/* IOBENCH_STORAGE_H */
