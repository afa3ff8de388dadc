/*-------------------------------------------------------------------------
 *
 * storage.c
 *	  What lies under a directory: block device, file system, mount point
 *	  (storage.h).
 *
 * The mount table (/proc/self/mountinfo) names all three when the mount
 * holding the directory is visible from this process's root.  In a chroot
 * or a container whose root is not a mount point of its own, that mount is
 * outside the root and the kernel leaves its line out; then the file
 * system comes from statfs(), the device from the device numbers
 * (/sys/dev/block/MAJ:MIN, else "MAJ:MIN"), and the mount point is the
 * highest directory above the path on the same device.  Every field is
 * therefore filled, whatever the environment.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "storage/fd.h"

#include "storage.h"

/* statfs() f_type values of the file systems PostgreSQL is found on */
static const struct
{
	unsigned long magic;
	const char *name;
}			fs_magics[] = {
	{0xEF53, "ext4"},			/* ext2, ext3 and ext4 share it */
	{0x58465342, "xfs"},
	{0x9123683E, "btrfs"},
	{0x2FC12FC1, "zfs"},
	{0xF2F52010, "f2fs"},
	{0x01021994, "tmpfs"},
	{0x794C7630, "overlay"},
	{0x6969, "nfs"},
	{0xFF534D42, "cifs"},
	{0x65735546, "fuse"},
	{0xCA451A4E, "bcachefs"},
	{0x858458F6, "ramfs"},
	{0x5346544E, "ntfs"},
	{0x4D44, "vfat"},
};

/* Does "path" lie under mount point "mnt"? */
static bool
path_under(const char *path, const char *mnt)
{
	size_t		len = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return true;
	return strncmp(path, mnt, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

/*
 * Fill device (the mount source), filesystem and mount_point from the
 * longest visible mount point of device "dev" above "real".
 */
static void
from_mountinfo(const char *real, dev_t dev, IobStorageInfo *info)
{
	FILE	   *mi;
	char		line[4096];
	size_t		best_len = 0;

	mi = AllocateFile("/proc/self/mountinfo", "r");
	if (mi == NULL)
		return;
	while (fgets(line, sizeof(line), mi) != NULL)
	{
		unsigned int maj,
					min;
		char		mnt[MAXPGPATH];
		char		fstype[64];
		char		source[256];
		char	   *sep;

		/* id parent maj:min root mount-point options ... - fstype source opts */
		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &maj, &min, mnt) != 3)
			continue;
		if (makedev(maj, min) != dev || !path_under(real, mnt))
			continue;
		sep = strstr(line, " - ");
		if (sep == NULL || sscanf(sep + 3, "%63s %255s", fstype, source) != 2)
			continue;
		if (strlen(mnt) < best_len)
			continue;
		best_len = strlen(mnt);
		strlcpy(info->mount_point, mnt, sizeof(info->mount_point));
		strlcpy(info->filesystem, fstype, sizeof(info->filesystem));
		strlcpy(info->device, source, sizeof(info->device));
	}
	FreeFile(mi);
}

/* The file system type from statfs(): its name, or its magic in hex */
static void
from_statfs(const char *real, IobStorageInfo *info)
{
	struct statfs sfs;
	int			i;

	if (statfs(real, &sfs) != 0)
		return;
	for (i = 0; i < (int) lengthof(fs_magics); i++)
	{
		if ((unsigned long) sfs.f_type == fs_magics[i].magic)
		{
			strlcpy(info->filesystem, fs_magics[i].name, sizeof(info->filesystem));
			return;
		}
	}
	snprintf(info->filesystem, sizeof(info->filesystem), "0x%lx",
			 (unsigned long) sfs.f_type);
}

/*
 * The mount point as far as this process can see: the highest directory
 * above "real" (itself included) that is still on device "dev".
 */
static void
highest_on_device(const char *real, dev_t dev, IobStorageInfo *info)
{
	char		path[MAXPGPATH];
	char	   *slash;
	struct stat st;

	strlcpy(path, real, sizeof(path));
	strlcpy(info->mount_point, path, sizeof(info->mount_point));
	while ((slash = strrchr(path, '/')) != NULL)
	{
		if (slash == path)
			strcpy(path, "/");
		else
			*slash = '\0';
		if (stat(path, &st) != 0 || st.st_dev != dev)
			break;
		strlcpy(info->mount_point, path, sizeof(info->mount_point));
		if (strcmp(path, "/") == 0)
			break;
	}
}

/*
 * The kernel's name of a block device (vda, nvme0n1p2) from its numbers,
 * or false when /sys does not say.
 */
static bool
block_device_name(dev_t dev, char *name, size_t size)
{
	char		sys[64];
	char		target[MAXPGPATH];
	ssize_t		len;
	char	   *last;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	len = readlink(sys, target, sizeof(target) - 1);
	if (len <= 0)
		return false;
	target[len] = '\0';
	last = strrchr(target, '/');
	strlcpy(name, last ? last + 1 : target, size);
	return true;
}

/*
 * Describe the storage under "dir": the block device (or the mount source
 * for virtual file systems such as tmpfs and overlay), the file system type,
 * and the mount point.  See the file header for the fallbacks; this never
 * fails, and leaves a field empty only when "dir" cannot be stat'ed.
 */
void
iob_describe_storage(const char *dir, IobStorageInfo *info)
{
	struct stat st;
	char		real[PATH_MAX];

	memset(info, 0, sizeof(IobStorageInfo));
	if (stat(dir, &st) != 0 || realpath(dir, real) == NULL)
		return;

	from_mountinfo(real, st.st_dev, info);
	if (info->filesystem[0] == '\0')
		from_statfs(real, info);
	if (info->mount_point[0] == '\0')
		highest_on_device(real, st.st_dev, info);

	/* a real block device: name it as the kernel does */
	if (major(st.st_dev) != 0 &&
		!block_device_name(st.st_dev, info->device, sizeof(info->device)) &&
		info->device[0] == '\0')
		snprintf(info->device, sizeof(info->device), "%u:%u",
				 major(st.st_dev), minor(st.st_dev));
	/* a virtual file system (tmpfs, overlay) without a visible mount source */
	if (info->device[0] == '\0')
		strlcpy(info->device, info->filesystem, sizeof(info->device));
}
