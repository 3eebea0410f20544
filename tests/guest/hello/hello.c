// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest module: says hello on load and goodbye on unload.  It shows
 * that a module built on the host against a kernel line's headers loads in
 * that line's guest (tests/guest/hello.sh), and it is the floor pass-4
 * build times are measured against.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init hello_init(void)
{
	pr_info("stp-hello: hello from %s\n", THIS_MODULE->name);
	return 0;
}

static void __exit hello_exit(void)
{
	pr_info("stp-hello: goodbye from %s\n", THIS_MODULE->name);
}

module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stp test module: hello on load");
