/*-------------------------------------------------------------------------
 *
 * device.h
 *	  The device subsystem's public header: the block device and file
 *	  system under a tablespace.
 *
 * Its counters, second by second (diskstats.h), its free space with the
 * lock that claims it (space.h), and what it is: device, file system,
 * mount point (storage.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef IOBENCH_DEVICE_H
#define IOBENCH_DEVICE_H

#include "diskstats.h"
#include "space.h"
#include "storage.h"

#endif							/* IOBENCH_DEVICE_H */
