/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF backend (--runtime=bpf), passes 3 to 5 from pass 2's
 * resolved program:
 *
 *   3 gen*.c   two C files from one generator: the kernel side (every
 *              probe but begin/end/error, for clang -target bpf) and
 *              the user side (begin/end/error and the tables of formats,
 *              errors and globals, for the host's cc)
 *   4 build.c  clang -target bpf -O2 -g; cc links the user side with
 *              the runner (staprun/bpf/, libstpbpf.a); cached by hash
 *   5 build.c  runs the linked runner on the object
 *
 * The user side is compiled C rather than an interpreter: the same
 * generator already writes the kernel side's C, and the user side only
 * differs in how it reaches maps (file descriptors, not map pointers).
 */
#ifndef STP_BPF_H
#define STP_BPF_H

#include "../elab/elab.h"

enum bx_side { BX_KERN, BX_USER };

/* What both sides share: print formats and error sites, by id. */
struct bx_tables {
	struct vec fmts;	/* const char *: the format, as C source */
	struct vec types;	/* const char *: 'l'/'s' per argument */
	struct vec errors;	/* const char *: the message, as text */
	struct vec whats;	/* const char *: what catch (e) gets */
};

/* One side's generation. */
struct bx {
	struct elab *e;
	enum bx_side side;
	struct bx_tables *t;
	struct sbuf code;	/* functions and probe handlers */
	struct sbuf ctx;	/* fields of struct stp_ctx */
	int ntemp;		/* string temporaries c->t0... */
	int nslot;		/* key and value slots */
	const char *pfx;	/* locals' prefix: "p3", "f2" */
	const char *pp;		/* the probe's name, for errors */
	struct function *fn;	/* the function being written, or NULL */
	int in_loop;
	const char *err_label;	/* where an error jumps: "out", or a catch */
	struct vec wanted;	/* struct function *: called on this side */
	int failed;
	/* foreach in a kernel probe: its body is a bpf_for_each_map_elem
	 * callback, written to hoist (before the functions and probes) */
	struct sbuf hoist;
	int in_cb;		/* writing a callback's body */
	int cb_loops;		/* loops opened inside it: break is theirs */
	int has_hrec;		/* struct stp_ctx has a histogram record */
	int want_what;		/* a kernel catch (e): stp_what() names error sites */
	/* frames.c: the kernel probes' own fields, overlaid */
	struct sbuf frames;
	/* gen_prefix.c: writing a prefix (hoist.c): no context yet */
	int prefix;
	struct vec pre_wanted;	/* struct function *: their flavours */
};

/* gen.c */
int bpf_translate(struct elab *e, struct sbuf *kern, struct sbuf *user);
int bx_side_of(const struct derived_probe *d);	/* BX_USER for begin/end/error */
int bx_global_index(struct bx *x, const struct symbol *s);
const char *bx_mapref(struct bx *x, const struct symbol *s);
void bx_refuse(struct bx *x, const struct loc *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int bx_error_site(struct bx *x, const struct loc *l, const char *what);
const char *bx_cstr(const char *s);

void bx_shared_decls(struct elab *e, struct sbuf *o);
void bx_functions(struct bx *x, struct sbuf *out);
void bx_ctx_struct(struct bx *x, struct sbuf *o);
void bx_probe_body(struct bx *x, struct derived_probe *d);
/* the kernel side's file; leaves the runner's attach table in x->code */
void bx_kern_file(struct bx *x, struct sbuf *o);

/* gen_expr.c: a long's C expression; a string's pointer expression */
const char *bx_long(struct bx *x, struct node *n);
/* An aggregate's index in the runtime's order (count, sum, min, max,
 * avg: runtime/bpf's stat reads), or -1 for one it has not (variance). */
int bx_agg_index(int at);
const char *bx_str(struct bx *x, struct node *n);
const char *bx_str_into(struct bx *x, struct node *n, const char *dst);
int bx_string_len(const struct elab *e);
int bx_key_is_comm(const struct elab *e, const struct symbol *g, int pos);
int bx_key_bytes(const struct elab *e, const struct symbol *g, int pos);
const char *bx_key_width(const struct elab *e, const struct symbol *g, int pos);
const char *bx_temp(struct bx *x);
const char *bx_key(struct bx *x, const struct symbol *s, struct vec *keys);
const char *bx_local(struct bx *x, const struct symbol *s);

/* gen_call.c */
const char *bx_call_long(struct bx *x, struct node *n);
const char *bx_call_str(struct bx *x, struct node *n);
const char *bx_print(struct bx *x, struct node *n);
int bx_fn_index(struct bx *x, struct function *f);
void bx_want_function(struct bx *x, struct function *f);

/* gen_fn.c: a script function, or pass 2's embedded C, as C */
void bx_function(struct bx *x, struct function *f);

/* gen_stmt.c */
void bx_stmt(struct bx *x, struct node *n, int depth);
/* gen_foreach.c: foreach over a global array in a kernel probe */
void bx_kern_foreach(struct bx *x, struct node *n, int d);
void bx_callback_body(struct bx *x, struct node *body, struct sbuf outer);

/* gen_hist.c: statistics with buckets */
enum { BX_HIST_NONE, BX_HIST_LOG, BX_HIST_LINEAR };
#define STP_BHIST_BUCKETS 128	/* shared.h's */
int bx_hist_of(struct bx *x, const struct symbol *s, int64_t v[3]);
const char *bx_hist_bucket(struct bx *x, const struct symbol *s, const char *v);
int bx_is_hist(const struct node *a);
const char *bx_hist_print(struct bx *x, struct node *h, const char *key,
			  const struct symbol *s);
int bx_is_hist_bucket(const struct node *a);	/* @hist_*(s)[i] */
const char *bx_hist_get(struct bx *x, struct node *n);
int bx_hist_nbuckets(struct bx *x, const struct symbol *s);
/* gen_expr.c */
const char *bx_hist_print_call(struct bx *x, struct node *h);
const struct symbol *bx_hist_stat(struct bx *x, struct node *h, const char **key);

/*
 * The probe families' BPF generators are in ../families/NAME/NAME_bpf*.c,
 * each family's row (family.h) naming its section, context, prologue and
 * epilogue; what the rest of the backend calls of them is declared in
 * their headers, included here.
 */
#include "../families/kprobe/kprobe_family.h"
#include "../families/uprobe/uprobe_family.h"
#include "../families/syscall/syscall_family.h"

/* flavour.c: a tapset function's BPF flavour, by its pragmas: the C
 * runs in a kernel probe, in user space, and calls the sampler */
enum { BXF_KERN = 1, BXF_USER = 2, BXF_SKETCH = 4 };
unsigned bx_flavour(const struct function *f);
/* call n of f's flavour written in place (a string into dst), or NULL */
const char *bx_inline_call(struct bx *x, struct node *n, struct function *f, const char *dst);

/* gen_sorted.c: a sorted or limited foreach in a kernel probe */
void bx_kern_sorted_foreach(struct bx *x, struct node *n);
void bx_sorted_decls(struct sbuf *o);
const char *bx_limit(struct bx *x, const struct foreach *fe);	/* "-1": none */

/* gen_prefix.c: a probe's prefix (elab.h's struct hoist) */
int bx_hoisted(const struct derived_probe *d);
/* the program's head: the prefix, then c looked up (entry, regs: what
 * struct stp_kctx gets) */
void bx_prefix(struct bx *x, struct derived_probe *d, const char *entry, const char *regs);
void bx_prefix_copy(struct bx *x, struct derived_probe *d);	/* its locals into c */
/* a call of f's flavour that takes its arguments by value */
const char *bx_prefix_call(struct bx *x, struct node *n, struct function *f);
void bx_prefix_functions(struct bx *x, struct sbuf *o);

/* gen_prologue.c: what the tapsets' BPF functions read of their probe, set
 * at the start of probe i's handler */
void bx_probe_prologue(struct bx *x, const struct derived_probe *d);
/* frames.c: the fields a kernel probe adds to struct stp_ctx after
 * bx_frame_begin become its struct in a union of them all (bx_frames) */
size_t bx_frame_begin(struct bx *x);
void bx_frame_end(struct bx *x, size_t mark, int i);
const char *bx_frames(struct bx *x);

/* ksprintf.c: sprintf and its kin in a kernel probe */
const char *bx_kern_sprintf(struct bx *x, struct node *n, const char *fmt, int first,
			    const char *decls);

/* build.c: passes 4 and 5 */
int bpf_build(struct session *s, const char *key, const char *kern, const char *user);
const char *bpf_cache_key(struct session *s);
int bpf_cached(const char *key);
int bpf_run(struct session *s, const char *key);

/* gen_sketch.c: STP_BPF_SKETCH for scripts that use chopstix.stp/vitals.stp */
void bx_sketch_defines(struct elab *e, struct sbuf *o);

#endif
