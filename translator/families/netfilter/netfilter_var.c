// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A netfilter probe's variables.  The hook function (netfilter_kmod.c)
 * keeps its arguments as u64s in an array (netfilter_family.h's enum nf_arg)
 * that CONTEXT->entry points to while the handler runs, as a
 * tracepoint's callback does; so the typed ones ($hooknum, $skb,
 * $indev, $outdev, $okfn, with their member chains and $$parms) are
 * read as a tracepoint's arguments are, by btf_var.c, typed by the
 * kernel's BTF: nf_hookfn's skb parameter and struct nf_hook_state's
 * members.  $in and $out are SystemTap's names for $indev and $outdev.
 *
 * Of these only $verdict, what the hook returns, can be written, and
 * only in guru mode (resolve.c checks that): it is the array's last
 * element.  $indev_name and $outdev_name are the devices' names, ""
 * for none, read at the offset BTF gives struct net_device's name.
 */
#include "netfilter_family.h"
#include "../../btf/btf.h"

#include <bpf/btf.h>
#include <string.h>

static const char *const all_names =
	"$hooknum $skb $in $out $indev $outdev $indev_name $outdev_name $okfn $verdict";

/* The typed arguments as a tracepoint's, for btf_var.c; NULL and *why
 * when the kernel's BTF lacks them. */
static const struct tracepoint_info *typed_args(struct elab *e, const char **why)
{
	static const char *const names[] = { "hooknum", "skb", "indev", "outdev", "okfn" };
	static const char *const members[] = { NULL, NULL, "in", "out", "okfn" };
	static struct tracepoint_info *info;
	const struct btf_type *fn;
	struct kbtf *kb;
	int32_t td, st, ui;
	int64_t off;
	int bit, bits;

	if (info)
		return info;
	if (!(kb = kbtf_load(e->s, why)))
		return NULL;
	td = btf__find_by_name_kind(kb->btf, "nf_hookfn", BTF_KIND_TYPEDEF);
	st = btf__find_by_name_kind(kb->btf, "nf_hook_state", BTF_KIND_STRUCT);
	fn = td > 0 ? btf__type_by_id(kb->btf, btf__type_by_id(kb->btf, td)->type) : NULL;
	if (st <= 0 || !fn || !btf_is_func_proto(fn) || btf_vlen(fn) < 3) {
		*why = "its BTF has no nf_hookfn or struct nf_hook_state";
		return NULL;
	}
	info = ar_alloc(sizeof(*info));
	info->btf = kb->btf;
	info->name = "netfilter";
	info->nargs = NF_ARG_VERDICT;
	info->arg_names = (const char **)names;
	info->arg_types = ar_alloc(NF_ARG_VERDICT * sizeof(*info->arg_types));
	ui = btf__find_by_name_kind(kb->btf, "unsigned int", BTF_KIND_INT);
	info->arg_types[NF_ARG_HOOKNUM] = ui > 0 ? (uint32_t)ui : 0;
	info->arg_types[NF_ARG_SKB] = btf_params(fn)[1].type;
	for (int i = NF_ARG_INDEV; i <= NF_ARG_OKFN; i++)
		if (!btf_find_member(kb->btf, (uint32_t)st, members[i], &info->arg_types[i], &off,
				     &bit, &bits))
			info->arg_types[i] = 0;	/* void: an error when used */
	return info;
}

static int fail(const struct node *n, int quiet, const char *msg)
{
	if (!quiet)
		sem_error(&n->loc, "%s", msg);
	return 0;
}

/* n's value as a function of embedded C (body), as btf_var.c makes
 * them; a setter takes the value to write as its parameter. */
static int make_function(struct node *n, enum type ret, int setter, const char *body)
{
	static int counter;
	struct node *fd = genfn_new(&n->loc, ar_printf("__nfvar_%d", counter++), ret,
				    ar_printf("%s%s", setter ? "\n" : " /* pure */\n", body));

	if (setter)
		genfn_param(fd, "value", T_LONG);
	n->ref = fd;
	n->args.len = 0;
	return 1;
}

static int verdict(struct node *n, int write, int quiet)
{
	const char *slot = ar_printf("((u64 *)CONTEXT->entry)[%d]", NF_ARG_VERDICT);

	if (n->comps.len || n->addr || n->pretty)
		return fail(n, quiet, "'$verdict' is a number (NF_DROP 0, NF_ACCEPT 1, ...): "
			    "it has no members, address or text");
	if (write)
		return make_function(n, T_LONG, 1, ar_printf("\t%s = (u32)STAP_ARG_value;\n"
							     "\tSTAP_RETVALUE = STAP_ARG_value;\n",
							     slot));
	return make_function(n, T_LONG, 0, ar_printf("\tSTAP_RETVALUE = (int64_t)(u32)%s;\n", slot));
}

/* $indev_name, $outdev_name: the device's name, "" without one. */
static int dev_name(struct elab *e, struct node *n, int arg, int quiet)
{
	const struct tracepoint_info *tp;
	const struct btf_type *ptr;
	const char *why = NULL;
	uint32_t dev, type;
	int64_t off;
	int bit, bits;

	if (n->comps.len || n->addr || n->pretty)
		return fail(n, quiet, ar_printf("'%s' is text: it has no members, address or "
						"text form", n->name));
	if (!(tp = typed_args(e, &why)))
		return fail(n, quiet, ar_printf("'%s' needs the kernel's BTF: %s", n->name, why));
	ptr = btf_peel(tp->btf, tp->arg_types[arg], NULL);
	if (!ptr || !btf_is_ptr(ptr) || !btf_peel(tp->btf, ptr->type, &dev) ||
	    !btf_find_member(tp->btf, dev, "name", &type, &off, &bit, &bits))
		return fail(n, quiet, "the kernel's BTF has no struct net_device's name");
	return make_function(n, T_STRING, 0, ar_printf(
		"\tunsigned long dev = (unsigned long)((u64 *)CONTEXT->entry)[%d];\n"
		"\tsize_t n = min_t(size_t, %lld, MAXSTRINGLEN - 1);\n\n"
		"\tSTAP_RETVALUE[0] = '\\0';\n"
		"\tif (dev && stp_tv_read(STAP_RETVALUE, dev + %lld, n, 0))\n"
		"\t\tSTAP_ERROR(\"kernel read fault at 0x%%016lx (addr)\", dev + %lld);\n"
		"\tSTAP_RETVALUE[n] = '\\0';\n",
		arg, (long long)btf__resolve_size(tp->btf, type), (long long)off, (long long)off));
}

/* The typed ones, by btf_var.c, under their own names ($in: $indev). */
static int typed(struct elab *e, struct derived_probe *d, struct node *n, const char *as,
		 int write, int quiet)
{
	struct derived_probe view = *d;
	struct node copy = *n;
	const char *why = NULL;

	if (write)
		return fail(n, quiet, ar_printf("'%s' cannot be written: of a netfilter probe's "
						"variables only $verdict can", n->name));
	if (!(view.tp = typed_args(e, &why)))
		return fail(n, quiet, ar_printf("'%s' needs the kernel's BTF: %s", n->name, why));
	copy.name = as;
	if (!btf_target(e, &view, &copy, 0, quiet))
		return 0;
	n->ref = copy.ref;
	n->args = copy.args;
	return 1;
}

int netfilter_target(struct elab *e, struct derived_probe *d, struct node *n, int write,
		     int quiet)
{
	const char *s = n->name;

	if (!strcmp(s, "$verdict"))
		return verdict(n, write, quiet);
	if (!strcmp(s, "$indev_name") || !strcmp(s, "$outdev_name"))
		return write ? fail(n, quiet, ar_printf("'%s' cannot be written", s)) :
		       dev_name(e, n, s[1] == 'i' ? NF_ARG_INDEV : NF_ARG_OUTDEV, quiet);
	if (!strcmp(s, "$in") || !strcmp(s, "$out"))
		return typed(e, d, n, s[1] == 'i' ? "$indev" : "$outdev", write, quiet);
	if (!strcmp(s, "$hooknum") || !strcmp(s, "$skb") || !strcmp(s, "$indev") ||
	    !strcmp(s, "$outdev") || !strcmp(s, "$okfn") || !strncmp(s, "$$parms", 7) ||
	    !strncmp(s, "$$vars", 6))
		return typed(e, d, n, s, write, quiet);
	return fail(n, quiet, ar_printf("netfilter probe has no '%s' (it has: %s)", s, all_names));
}

const char *netfilter_list_vars(struct elab *e, const struct derived_probe *d)
{
	const struct tracepoint_info *tp;
	const char *why = NULL;
	const char *t[NF_ARG_VERDICT] = { "long", "long", "long", "long", "long" };

	(void)d;
	if ((tp = typed_args(e, &why)))
		for (int i = 0; i < NF_ARG_VERDICT; i++)
			t[i] = btf_type_text(tp->btf, tp->arg_types[i]);
	return ar_printf(" $hooknum:%s $skb:%s $in:%s $out:%s $indev:%s $outdev:%s "
			 "$indev_name:string $outdev_name:string $okfn:%s $verdict:long",
			 t[NF_ARG_HOOKNUM], t[NF_ARG_SKB], t[NF_ARG_INDEV], t[NF_ARG_OUTDEV],
			 t[NF_ARG_INDEV], t[NF_ARG_OUTDEV], t[NF_ARG_OKFN]);
}

int netfilter_defined(struct elab *e, struct derived_probe *d, const struct node *n)
{
	struct node copy = *n;

	memset(&copy.args, 0, sizeof(copy.args));
	return netfilter_target(e, d, &copy, 0, 1);
}
