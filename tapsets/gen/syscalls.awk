# SPDX-License-Identifier: GPL-2.0-or-later
# Makes tapsets/linux/syscalls.stp (syscall.NAME and .return),
# syscalls_nd.stp (the same probes under SystemTap's other family names)
# and syscalls_names.stp (syscall_name(), the number -> name table)
# from one table, syscalls.tbl, and its hand-written exceptions,
# syscalls.fix.  Run by `make syscall-tapsets`; the output is committed,
# so stp reads the tapsets without a build step.
#
#   awk -v what=entry|nd|names -f syscalls.awk syscalls.fix syscalls.tbl
#
# A table line: SYSTAPNAME KERNELNAME NR SINCE RETFMT ARG...
#   SINCE  "-" for both kernel lines, or the first kernel version with it
#   RETFMT return_str's format: 1 decimal, 2 hex (calls returning addresses)
#   ARG    VAR:KIND[@STRVAR], the system call's arguments in order (register
#          $arg1..$arg6); KIND says how VAR is read and shown in argstr:
#     int long uint ulong   a number (int: the low 32 bits, sign-extended)
#     ptr                   a user address, shown in hex
#     mode                  a file mode, shown in octal
#     str                   a user string: VAR is it quoted, VAR_unquoted
#                           plain, VAR_uaddr the address
#     lstr                  VAR the address, STRVAR (VAR_str) the string
#                           quoted, STRVAR_unquoted plain
#     argv envc             execve's argument list and environment count
#     cs cl                 a string / number SystemTap names for a call
#                           x86-64 lacks (the alias is over `never`)
#     other                 a decoder in syscall_args.stp (see dec[]):
#                           VAR the number, STRVAR (VAR_str) its name
# KERNELNAME "-" marks a name with no x86-64 system call.  Two lines with
# one SYSTAPNAME (pipe: pipe and pipe2) make one alias over both calls.
# A fix line: NAME<TAB>STATEMENTS adds statements to NAME's entry body;
# NAME!argstr<TAB>EXPR gives its argstr.

BEGIN {
	FS = "[ \t]+"
	# decoder kind -> "function width": width s32 reads the low 32
	# bits sign-extended (an int argument), l the whole register
	split("dfd:_sc_dfd_str:s32 sig:_signal_name:s32 clock:_sc_clockid_str:s32 " \
	      "oflags:_sc_open_flags_str:s32 atflags:_sc_at_flags_str:s32 " \
	      "amode:_sc_access_mode_str:s32 prot:_sc_prot_str:l " \
	      "mapflags:_sc_mmap_flags_str:l clone:_sc_clone_flags_str:l " \
	      "sfamily:_sc_sock_family_str:s32 stype:_sc_sock_type_str:s32 " \
	      "wopts:_sc_wait_opts_str:s32 fcntl:_sc_fcntl_cmd_str:s32 " \
	      "whence:_sc_whence_str:s32 sighow:_sc_sigprocmask_how_str:s32 " \
	      "itimer:_sc_itimer_which_str:s32 rlimit:_sc_rlimit_str:s32 " \
	      "msgflags:_sc_msg_flags_str:s32 epollop:_sc_epoll_op_str:s32 " \
	      "shuthow:_sc_shutdown_how_str:s32 madv:_sc_madvise_str:s32 " \
	      "archprctl:_sc_arch_prctl_str:s32 hex:_sc_hex_str:l num:_sc_num_str:s32 " \
	      "xattrflags:_stp_xattr_flags_str:s32",
	      d, " ")
	for (i = 1; i in d; i++) {
		split(d[i], p, ":")
		dec[p[1]] = p[2]
		decw[p[1]] = p[3]
	}
}

FILENAME ~ /\.fix$/ {
	if ($0 ~ /^#/ || $0 == "")
		next
	key = $1
	rest = $0
	sub(/^[^\t]*\t/, "", rest)
	if (key ~ /!argstr$/) {
		sub(/!argstr$/, "", key)
		fixarg[key] = rest
	} else {
		fixbody[key] = fixbody[key] "\t" rest "\n"
	}
	next
}

/^#/ || NF < 5 { next }

{
	s = $1
	if (!(s in seen)) {
		seen[s] = 1
		names[++nnames] = s
	}
	k = ++nk[s]
	kname[s, k] = $2
	nr[s, k] = $3
	since[s, k] = $4
	retfmt[s] = $5
	na[s, k] = NF - 5
	for (i = 6; i <= NF; i++)
		spec[s, k, i - 5] = $i
}

# reg(kind width, n): the expression reading argument register n
function reg(w, n) {
	if (w == "s32")
		return "_sc_s32($arg" n ")"
	if (w == "u32")
		return "$arg" n " & 0xffffffff"
	return "$arg" n
}

# one argument: sets body (statements), fmt and args (argstr's parts)
# and records each variable's type in vtype[]
function arg(sp, n, s,    v, kind, sv, at) {
	v = sp
	sub(/:.*/, "", v)
	kind = sp
	sub(/^[^:]*:/, "", kind)
	sv = v "_str"
	if (kind ~ /@/) {
		sv = kind
		sub(/^[^@]*@/, "", sv)
		sub(/@.*/, "", kind)
	}
	if (kind == "int" || kind == "long" || kind == "uint" || kind == "ulong") {
		w = (kind == "int") ? "s32" : (kind == "uint") ? "u32" : "l"
		body = body "\t" v " = " reg(w, n) "\n"
		vtype[s, v] = "l"
		part((kind ~ /^u/) ? "%u" : "%d", v)
	} else if (kind == "ptr") {
		body = body "\t" v " = $arg" n "\n"
		vtype[s, v] = "l"
		part("%p", v)
	} else if (kind == "mode") {
		body = body "\t" v " = $arg" n " & 0xffffffff\n"
		vtype[s, v] = "l"
		part("%#o", v)
	} else if (kind == "str") {
		body = body "\t" v "_uaddr = $arg" n "\n"
		body = body "\t" v " = _sc_ustr_q(" v "_uaddr)\n"
		body = body "\t" v "_unquoted = user_string(" v "_uaddr, \"\")\n"
		vtype[s, v "_uaddr"] = "l"
		vtype[s, v] = vtype[s, v "_unquoted"] = "s"
		part("%s", v)
	} else if (kind == "lstr") {
		body = body "\t" v " = $arg" n "\n"
		body = body "\t" sv " = _sc_ustr_q(" v ")\n"
		body = body "\t" sv "_unquoted = user_string(" v ", \"\")\n"
		vtype[s, v] = "l"
		vtype[s, sv] = vtype[s, sv "_unquoted"] = "s"
		part("%s", sv)
	} else if (kind == "argv") {
		body = body "\t" v " = _sc_argv($arg" n ")\n"
		vtype[s, v] = "s"
		part("%s", v)
	} else if (kind == "envc") {
		body = body "\t" v " = _sc_envc($arg" n ")\n"
		vtype[s, v] = "s"
		part("%s", v)
	} else if (kind == "cs" || kind == "cl") {
		body = body "\t" v " = " ((kind == "cs") ? "\"\"" : "0") "\n"
		vtype[s, v] = (kind == "cs") ? "s" : "l"
	} else if (kind in dec) {
		body = body "\t" v " = " reg(decw[kind], n) "\n"
		body = body "\t" sv " = " dec[kind] "(" v ")\n"
		vtype[s, v] = "l"
		vtype[s, sv] = "s"
		part("%s", sv)
	} else {
		printf("syscalls.awk: %s: unknown kind '%s'\n", s, kind) > "/dev/stderr"
		bad = 1
	}
}

function part(f, e) {
	fmt = fmt (fmt == "" ? "" : ", ") f
	args = args ", " e
}

# the entry body of line k of name s (without name's assignment)
function entry_body(s, k,    i) {
	body = fmt = args = ""
	for (i = 1; i <= na[s, k]; i++)
		arg(spec[s, k, i], i, s)
	if (s in fixbody)
		body = body fixbody[s]
	if (s in fixarg)
		body = body "\targstr = " fixarg[s] "\n"
	else if (fmt == "")
		body = body "\targstr = \"\"\n"
	else
		body = body "\targstr = sprintf(\"" fmt "\"" args ")\n"
	return body
}

function guard_open(s, k) {
	return (since[s, k] == "-") ? "" : "%( kernel_v >= \"" since[s, k] "\" %?\n"
}
function guard_close(s, k) {
	return (since[s, k] == "-") ? "" : "%)\n"
}

function ret_body(s) {
	if (kname[s, 1] == "-")
		return "\tretval = 0\n\tretstr = \"\"\n"
	return "\tretval = $ret\n\tretstr = return_str(" retfmt[s] ", retval)\n"
}

# every variable any line of s sets, in name order, at its zero value:
# each call's alias then lists the same variables in the same order (-L),
# and has those only the other calls set
function defaults(s,    key, parts, v, n, i, j, t, out) {
	n = 0
	for (key in vtype) {
		split(key, parts, SUBSEP)
		if (parts[1] == s)
			v[++n] = parts[2]
	}
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	out = ""
	for (i = 1; i <= n; i++)
		out = out "\t" v[i] " = " (vtype[s, v[i]] == "s" ? "\"\"" : "0") "\n"
	return out
}

function emit_entry(s,    k, b, lst, pt) {
	if (nk[s] == 1) {
		b = entry_body(s, 1)
		pt = (kname[s, 1] == "-") ? "never" : "kernel.syscall(" nr[s, 1] ")"
		printf("/* syscall.%s - entry to the %s system call%s.\n * Variables: name, argstr and its arguments. */\n",
		       s, s, (pt == "never") ? " (x86-64 has none: it never fires)" : "")
		printf("%sprobe syscall.%s = %s {\n\tname = \"%s\"\n%s}\n", guard_open(s, 1),
		       s, pt, s, b)
		printf("/* syscall.%s.return - return from the %s system call.\n * Variables: name, retval, retstr. */\n", s, s)
		printf("probe syscall.%s.return = %s {\n\tname = \"%s\"\n%s}\n%s",
		       s, (pt == "never") ? pt : pt ".return", s, ret_body(s), guard_close(s, 1))
		return
	}
	# one alias over several calls: each call its own private alias,
	# setting every variable any of them sets
	for (k = 1; k <= nk[s]; k++) {
		delete vtype
		bodies[k] = entry_body(s, k)
		for (key in vtype) {
			split(key, pp, SUBSEP)
			alltype[s, pp[2]] = vtype[key]
		}
	}
	for (k = 1; k <= nk[s]; k++) {
		delete vtype
		for (key in alltype) {
			split(key, pp, SUBSEP)
			if (pp[1] == s)
				vtype[key] = alltype[key]
		}
		printf("%sprobe __syscall.%s = kernel.syscall(%d) {\n\tname = \"%s\"\n%s%s}\n",
		       guard_open(s, k), kname[s, k], nr[s, k], kname[s, k], defaults(s), bodies[k])
		printf("probe __syscall.%s.return = kernel.syscall(%d).return {\n\tname = \"%s\"\n%s}\n%s",
		       kname[s, k], nr[s, k], kname[s, k], ret_body(s), guard_close(s, k))
	}
	lst = ""
	for (k = 1; k <= nk[s]; k++)
		lst = lst (k > 1 ? ", " : "") "__syscall." kname[s, k] (since[s, k] == "-" ? "" : "?")
	printf("/* syscall.%s - entry to the %s system call (over the calls %s).\n * Variables: name, argstr and its arguments. */\n", s, s, lst)
	printf("probe syscall.%s = %s { }\n", s, lst)
	gsub(/(\?|,|$)/, ".return&", lst)
	gsub(/\.return\.return/, ".return", lst)
	printf("/* syscall.%s.return - return from the %s system call.\n * Variables: name, retval, retstr. */\n", s, s)
	printf("probe syscall.%s.return = %s { }\n", s, lst)
}

# syscall_name(): a table indexed by the kernel's own __NR_* macros, each
# behind #ifdef so that a call the target lacks drops out
function emit_names(    i, k, s) {
	print "// SPDX-License-Identifier: GPL-2.0-or-later"
	print "// The names of the x86-64 system calls by number, from the target"
	print "// kernel's __NR_* macros.  GENERATED by tapsets/gen/syscalls.awk from"
	print "// tapsets/gen/syscalls.tbl."
	print ""
	print "%{"
	print "#include <asm/unistd.h>"
	print ""
	print "static const char *const stp_syscall_names[] = {"
	for (i = 1; i <= nnames; i++) {
		s = names[i]
		for (k = 1; k <= nk[s]; k++) {
			if (kname[s, k] == "-")
				continue
			printf("#ifdef __NR_%s\n\t[__NR_%s] = \"%s\",\n#endif\n", kname[s, k], kname[s, k], kname[s, k])
		}
	}
	print "};"
	print "%}"
	print ""
	emit_names_bpf()
	print "/* The name of x86-64 system call number nr (\"read\" for 0), or"
	print " * \"sys_\" and the number for one the target kernel does not have. */"
	print "function syscall_name:string (nr:long) %{ /* pure */"
	print "\tlong nr = STAP_ARG_nr;"
	print ""
	print "\tif (nr >= 0 && nr < (long)ARRAY_SIZE(stp_syscall_names) && stp_syscall_names[nr])"
	print "\t\tstrscpy(STAP_RETVALUE, stp_syscall_names[nr], MAXSTRINGLEN);"
	print "\telse"
	print "\t\tsnprintf(STAP_RETVALUE, MAXSTRINGLEN, \"sys_%ld\", nr);"
	print "%}"
	print "%)"
}

# syscall_name()'s BPF flavour: the table in the function (the kernel side
# has no top-level C), of arrays (BPF's data holds no pointers)
function emit_names_bpf(    i, k, s) {
	print "%( runtime == \"bpf\" %?"
	print "/* The name of x86-64 system call number nr (\"read\" for 0), or"
	print " * \"sys_\" and the number for one the target kernel does not have. */"
	print "function syscall_name:string (nr:long) %{ /* pure */ /* bpf */"
	print "\tstatic const char names[][32] = {"
	for (i = 1; i <= nnames; i++) {
		s = names[i]
		for (k = 1; k <= nk[s]; k++) {
			if (kname[s, k] == "-")
				continue
			printf("#ifdef __NR_%s\n\t\t[__NR_%s] = \"%s\",\n#endif\n", kname[s, k], kname[s, k], kname[s, k])
		}
	}
	print "\t};"
	print "\tint64_t nr = STAP_ARG_nr;"
	print "\tint pos;"
	print ""
	print "\tif (nr >= 0 && nr < (int64_t)(sizeof(names) / sizeof(names[0])) && names[nr][0]) {"
	print "\t\tstp_kend(STAP_RETVALUE, stp_kcat(STAP_RETVALUE, 0, names[nr]));"
	print "\t} else {"
	print "\t\tpos = stp_kcat(STAP_RETVALUE, 0, \"sys_\");"
	print "\t\tstp_kfmt_int(STAP_RETVALUE + pos, nr, 10, STP_F_SIGN, -1, -1);"
	print "\t}"
	print "%}"
	print "%:"
}

END {
	if (what == "entry") {
		print "// SPDX-License-Identifier: GPL-2.0-or-later"
		print "// syscall.NAME and syscall.NAME.return for every x86-64 system call,"
		print "// over kernel.syscall(NR).  GENERATED by tapsets/gen/syscalls.awk from"
		print "// tapsets/gen/syscalls.tbl: edit those, then run `make syscall-tapsets`."
		for (i = 1; i <= nnames; i++)
			emit_entry(names[i])
	} else if (what == "names") {
		emit_names()
	} else {
		print "// SPDX-License-Identifier: GPL-2.0-or-later"
		print "// SystemTap's other names for the system call probes: nd_syscall,"
		print "// nd1_syscall, nd2_syscall, dw_syscall and tp_syscall are syscall."
		print "// GENERATED by tapsets/gen/syscalls.awk from tapsets/gen/syscalls.tbl."
		split("nd_syscall nd1_syscall nd2_syscall dw_syscall tp_syscall", fam, " ")
		for (i = 1; i <= nnames; i++) {
			s = names[i]
			g1 = guard_open(s, 1)
			for (f = 1; f <= 5; f++)
				printf("%s/* %s.%s - SystemTap's other name for syscall.%s. */\n" \
				       "probe %s.%s = syscall.%s { }\n" \
				       "/* %s.%s.return - SystemTap's other name for syscall.%s.return. */\n" \
				       "probe %s.%s.return = syscall.%s.return { }\n%s",
				       g1, fam[f], s, s, fam[f], s, s, fam[f], s, s, fam[f], s, s, guard_close(s, 1))
		}
	}
	exit bad
}
