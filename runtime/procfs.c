// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procfs probes: files under /proc/systemtap/MODULE/, made when the
 * probes are armed and removed when they are disarmed.
 *
 * /proc/systemtap is shared by every stp (and SystemTap) module: it is
 * made when it is not there yet, and never removed (procfs cannot say
 * whether another module still has files in it).  Its existence is
 * looked up by path first because making a directory that exists is a
 * kernel warning; two modules arming their first procfs probes at the
 * same instant on a fresh boot can still race there.
 *
 * Each open of a file gets its own buffer (allocated by open(), never
 * in a probe).  The first read() runs the read probe, which fills it
 * through $value; that read and the next ones return the text, so a
 * reader with a small buffer gets all of it.  Each write() runs every
 * write probe on what was written, at most MAXSTRINGLEN - 1 bytes (and
 * less than a read probe's maxsize): a longer write is taken by parts,
 * as write() may.  Probes run in the reader's or writer's process
 * context, through the normal hit path (locks, MAXACTION, errors).
 * These return -EIO: a read whose probe failed before giving anything,
 * a write whose probe failed, and a read (write) of a file without a
 * read (write) probe, which root may open whatever its mode.
 *
 * proc_remove() waits for the reads and writes under way and releases
 * the files still open, so nothing runs here once the probes are
 * disarmed.
 */
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

struct stp_procfs_open {
	const struct stp_procfs_file *f;
	struct mutex lock;		/* one read or write of it at a time */
	int filled;			/* the read probe ran */
	size_t chunk;			/* most bytes one write() takes */
	struct stp_procfs_data d;
	char buf[];
};

static struct proc_dir_entry *stp_procfs_dir;	/* /proc/systemtap/MODULE */

static int stp_procfs_open(struct inode *inode, struct file *file)
{
	const struct stp_procfs_file *f = pde_data(inode);
	size_t rsize = f->read ? f->bufsize : 0;
	size_t chunk, size;
	struct stp_procfs_open *o;

	/* what one write() takes: less than MAXSTRINGLEN and maxsize */
	chunk = min_t(size_t, MAXSTRINGLEN, rsize ? rsize : MAXSTRINGLEN) - 1;
	chunk = max_t(size_t, chunk, 1);
	size = max_t(size_t, rsize, chunk + 1);

	/* not zeroed: a maxsize may be large, and the buffer is filled
	 * before it is read */
	o = kvmalloc(sizeof(*o) + size, GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->chunk = chunk;
	o->d.buf = o->buf;
	mutex_init(&o->lock);
	file->private_data = o;
	return 0;
}

static int stp_procfs_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

/* The read probe, into o's buffer, once per open. */
static int stp_procfs_fill(struct stp_procfs_open *o)
{
	o->d.size = o->f->bufsize;
	o->d.len = 0;
	o->d.buf[0] = '\0';
	if (stp_run_probe(o->f->read, NULL, &o->d) && !o->d.len)
		return -EIO;
	o->filled = 1;
	return 0;
}

static ssize_t stp_procfs_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *pos)
{
	struct stp_procfs_open *o = file->private_data;
	ssize_t rc = 0;

	if (!o->f->read)
		return -EIO;
	mutex_lock(&o->lock);
	if (!o->filled)
		rc = stp_procfs_fill(o);
	if (!rc)
		rc = simple_read_from_buffer(ubuf, count, pos, o->d.buf,
					     o->d.len);
	mutex_unlock(&o->lock);
	return rc;
}

static ssize_t stp_procfs_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *pos)
{
	struct stp_procfs_open *o = file->private_data;
	size_t n = min(count, o->chunk);
	ssize_t rc = n;
	int i;

	if (!o->f->nwrites)
		return -EIO;
	if (!n)
		return 0;
	mutex_lock(&o->lock);
	if (copy_from_user(o->d.buf, ubuf, n)) {
		rc = -EFAULT;
		goto out;
	}
	o->d.buf[n] = '\0';
	o->d.len = strlen(o->d.buf);
	o->d.size = n + 1;
	for (i = 0; i < o->f->nwrites; i++)
		if (stp_run_probe(o->f->writes[i], NULL, &o->d))
			rc = -EIO;
	if (rc > 0)
		*pos += rc;
	o->filled = 0;		/* the next read runs the read probe anew */
out:
	mutex_unlock(&o->lock);
	return rc;
}

static const struct proc_ops stp_procfs_ops = {
	.proc_open = stp_procfs_open,
	.proc_read = stp_procfs_read,
	.proc_write = stp_procfs_write,
	.proc_lseek = generic_file_llseek,
	.proc_release = stp_procfs_release,
};

/* /proc/systemtap, made when it is not there (see above). */
static void stp_procfs_top(void)
{
	struct path p;

	if (!kern_path("/proc/systemtap", LOOKUP_DIRECTORY, &p)) {
		path_put(&p);
		return;
	}
	proc_mkdir("systemtap", NULL);
}

static void stp_procfs_disarm(void)
{
	if (!stp_procfs_dir)
		return;
	proc_remove(stp_procfs_dir);
	stp_procfs_dir = NULL;
}

/* The module's directory, its subdirectories, its files; 0 or -ENOMEM. */
static int stp_procfs_make(const char **what)
{
	const struct stp_procfs_file *f;
	int i;

	*what = "systemtap/" KBUILD_MODNAME;
	stp_procfs_dir = proc_mkdir(*what, NULL);
	if (!stp_procfs_dir)
		return -ENOMEM;
	for (i = 0; i < STP_NPROCFS_DIRS; i++) {
		*what = stp_procfs_dirs[i];
		if (!proc_mkdir(*what, stp_procfs_dir))
			return -ENOMEM;
	}
	for (i = 0; i < STP_NPROCFS; i++) {
		f = &stp_procfs_files[i];
		*what = f->path;
		if (!proc_create_data(f->path, f->mode, stp_procfs_dir,
				      &stp_procfs_ops, (void *)f))
			return -ENOMEM;
	}
	return 0;
}

static int stp_procfs_arm(void)
{
	const char *what;
	int rc;

	if (!STP_NPROCFS)
		return 0;
	stp_procfs_top();
	rc = stp_procfs_make(&what);
	if (!rc)
		return 0;
	stp_ctl_printf(STP_MSG_ERROR, "ERROR: cannot make /proc/%s%s%s\n",
		       stp_procfs_dir ? "systemtap/" KBUILD_MODNAME : "",
		       stp_procfs_dir ? "/" : "", what);
	stp_procfs_disarm();
	return rc;
}
