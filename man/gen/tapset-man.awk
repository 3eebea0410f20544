# tapset-man.awk: section 3stp man pages from the tapsets' doc comments.
#
#   awk -v out=build/man/man3 -f man/gen/tapset-man.awk tapsets/*.stp ...
#   awk -v check=1 -f man/gen/tapset-man.awk tapsets/*.stp ...
#
# One pass over each file.  A definition is a line starting at column 0
# with `function NAME` or `probe NAME[, NAME...] =` (or `+=`); its doc
# comment is the `/* ... */` block or the `//` lines ending on the line
# directly above it (preprocessor lines `%( %? %: %)` may sit between).
# Pages are written at the end, one per name: a name defined more than
# once (overloads, per-kernel variants, an alias over several points)
# gets one page listing every signature, described by the first comment.
# A multi-name alias's page is written under each of its names (a copy,
# not a `.so` link, so that `man -l` of any of them works).
#
# With check=1 no page is written; each public definition (name not
# starting with `_`, not `private`) that has no comment, and no other
# definition of its name in the same file has one, is printed as
# FILE:LINE and the exit status is 1.

BEGIN {
	ndefs = 0
	if (!check && out == "") {
		print "tapset-man.awk: set -v out=DIR or -v check=1" > "/dev/stderr"
		exit 2
	}
}

FNR == 1 { reset_doc(); in_c = 0; in_doc = 0; hdr = ""; body = 0 }

# ---- skipping: embedded C at top level ----

in_c { if ($0 ~ /^%}/) in_c = 0; next }

# ---- collecting a definition's header, then an alias body ----

hdr != "" {
	hdr = hdr "\n" $0
	if (header_done()) finish_header()
	else if (FNR - hdr_line > 40) {
		# a header this long is one this script misread: say where
		printf "%s:%d: tapset-man.awk: no body after this definition\n",
		       FILENAME, hdr_line > "/dev/stderr"
		failed = 1
		exit 2
	}
	next
}

body > 0 { scan_body_text($0); next }

# ---- doc comments ----

in_doc {
	if ($0 ~ /\*\//) {
		line = $0; sub(/\*\/.*/, "", line); add_doc(line)
		in_doc = 0; doc_end = FNR
	} else
		add_doc($0)
	next
}

/^\/\*/ {
	reset_doc()
	line = $0; sub(/^\/\*+/, "", line)
	if (line ~ /\*\//) {
		sub(/\*\/.*/, "", line); add_doc(line); doc_end = FNR
	} else {
		add_doc(line); in_doc = 1
	}
	next
}

/^\/\// {
	if (doc_end != FNR - 1 || !doc_slash) reset_doc()
	line = $0; sub(/^\/\/+/, "", line); add_doc(line)
	doc_slash = 1; doc_end = FNR
	next
}

# Preprocessor lines keep a comment attached to what follows them.
/^%[(?:)]/ { if (doc_end == FNR - 1) doc_end = FNR; next }

/^%\{/ { if ($0 !~ /%}/) in_c = 1; reset_doc(); next }

/^(private[ \t]+)?function[ \t]/ || /^probe[ \t]/ {
	hdr = $0; hdr_line = FNR
	hdr_doc = (doc_end == FNR - 1) ? doc : ""
	hdr_has_doc = (doc_end == FNR - 1)
	reset_doc()
	if (header_done()) finish_header()
	next
}

{ reset_doc() }

function reset_doc() { doc = ""; doc_end = -1; doc_slash = 0; in_doc = 0 }

function add_doc(s) {
	sub(/^[ \t]*\*?/, "", s)	# a block comment's leading " * "
	sub(/^ /, "", s)
	sub(/[ \t]+$/, "", s)
	doc = doc (doc == "" ? "" : "\n") s
}

# A header is complete at its body's opening brace (`{` or `%{`), or, for a
# function, once its argument list is closed and a body may follow on the
# next line; an alias without `{` on its header lines has its body next.
function header_done(	t) {
	t = strip_strings(hdr)
	if (t ~ /^(private[ \t]+)?function/)
		return t ~ /\)[ \t]*(%?\{.*)?$/ && paren_depth(t) == 0
	return t ~ /\{/
}

function finish_header(	t, is_fn) {
	t = hdr
	is_fn = (strip_strings(t) ~ /^(private[ \t]+)?function/)
	if (is_fn)
		add_function(t)
	else if (strip_strings(t) ~ /^probe[^{]*=/)
		add_alias(t)
	hdr = ""
	body = 0
	if (is_fn) { body_skip_fn(t); return }
	if (cur_alias) {
		body = 0
		scan_body_text(substr(t, index(t, "{")))
	} else
		skip_body_text(t)
}

# ---- functions ----

function add_function(t,	name, sig, priv) {
	priv = (t ~ /^private/)
	sub(/^(private[ \t]+)?function[ \t]+/, "", t)
	sig = t
	sub(/[ \t]*%?\{.*$/, "", sig)	# the body's opening
	gsub(/[ \t]*\n[ \t]*/, " ", sig)
	name = sig; sub(/[ \t:(].*/, "", name)
	if (name ~ /^_/ || priv) { cur_alias = 0; return }
	define("function", name, sig)
	cur_alias = 0
}

# A script function's body `{ ... }` is skipped by brace depth; an embedded
# C body `%{ ... %}` by its closing line.
function body_skip_fn(t) {
	if (strip_strings(t) ~ /%\{/) {
		if (t !~ /%}/) in_c = 1
		return
	}
	skip_body_text(t)
}

function skip_body_text(t) {
	depth = brace_delta(t)
	body = depth > 0 ? 1 : 0
	cur_alias = 0
}

# ---- aliases ----

function add_alias(t,	lhs, rhs, names, n, i, pts, key) {
	lhs = t; sub(/\+?=.*/, "", lhs)
	sub(/^probe[ \t]+/, "", lhs); gsub(/[ \t\n]/, "", lhs)
	rhs = substr(t, index(t, "=") + 1)
	sub(/^[ \t]*/, "", rhs)
	rhs = cut_body(rhs)
	gsub(/[ \t]*\n[ \t]*/, " ", rhs)
	n = split(lhs, names, ",")
	cur_alias = 0
	if (names[1] ~ /^_/) return
	key = define("probe", names[1], rhs)
	for (i = 2; i <= n; i++)
		if (!((key SUBSEP names[i]) in has_name)) {
			has_name[key, names[i]] = 1
			others[key] = others[key] " " names[i]
		}
	cur_alias = key
}

function cut_body(s,	i, c, q, d, out) {
	d = 0; q = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q) { if (c == "\\") i++; else if (c == "\"") q = 0; continue }
		if (c == "\"") q = 1
		else if (c == "%" && substr(s, i + 1, 1) == "{") break
		else if (c == "{") break
	}
	out = substr(s, 1, i - 1)
	sub(/[ \t\n]+$/, "", out)
	return out
}

# Counts braces of an alias body, noting the names it assigns (its
# variables): `name = ...` and `name <<< ...` at the start of a statement.
function scan_body_text(t,	s, n, i, stmts, m, v) {
	if (body == 0) { depth = 0; body = 1 }
	s = strip_strings(t)
	gsub(/\/\*[^*]*\*+([^\/*][^*]*\*+)*\//, "", s)
	sub(/(\/\/|#).*/, "", s)
	n = split(s, stmts, /[;{}]/)
	for (i = 1; i <= n; i++) {
		m = stmts[i]
		sub(/^[ \t]+/, "", m)
		while (sub(/^(if[ \t]*\(.*\)|else)[ \t]*/, "", m))
			;
		if (match(m, /^[A-Za-z_][A-Za-z0-9_]*[ \t]*(=[^=]|=$|<<<)/)) {
			v = m; sub(/[ \t=<].*/, "", v)
			if (cur_alias && v !~ /^_/ && !((cur_alias SUBSEP v) in has_var)) {
				has_var[cur_alias SUBSEP v] = 1
				vars[cur_alias] = vars[cur_alias] (vars[cur_alias] == "" ? "" : " ") v
			}
		}
	}
	depth += brace_delta(t)
	if (depth <= 0) { body = 0; cur_alias = 0 }
}

# ---- the definitions, one record per name ----

function define(kind, name, sig,	key) {
	key = kind "::" name
	if (!(key in first_file)) {
		order[++ndefs] = key
		first_file[key] = FILENAME
		nsig[key] = 0
	}
	if (!seen_sig[key SUBSEP sig]++)
		sigs[key, ++nsig[key]] = sig
	if (hdr_has_doc && !(key in docs))
		docs[key] = hdr_doc
	if (hdr_has_doc)
		documented[key, FILENAME] = 1
	else {
		nbare++
		bare_key[nbare] = key; bare_where[nbare] = FILENAME ":" hdr_line
		bare_file[nbare] = FILENAME
	}
	return key
}

# ---- string helpers ----

function strip_strings(s,	out, i, c, q) {
	out = ""; q = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q) { if (c == "\\") i++; else if (c == "\"") q = 0; continue }
		if (c == "\"") { q = 1; out = out "\"\""; continue }
		out = out c
	}
	return out
}

function paren_depth(s,	t, o, c) {
	t = s; o = gsub(/\(/, "", t); t = s; c = gsub(/\)/, "", t)
	return o - c
}

function brace_delta(s,	t, o, c) {
	s = strip_strings(s)
	gsub(/\/\*[^*]*\*+([^\/*][^*]*\*+)*\//, "", s)
	sub(/\/\/.*/, "", s)
	t = s; o = gsub(/\{/, "", t); t = s; c = gsub(/\}/, "", t)
	return o - c
}

# roff: backslashes escaped, '-' a minus sign (options and code copy and
# paste as typed), a line's leading '.' or '\'' made literal.
function roff(s,	n, ls, i, out) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	n = split(s, ls, "\n")
	out = ""
	for (i = 1; i <= n; i++) {
		if (ls[i] ~ /^[.']/) ls[i] = "\\&" ls[i]
		out = out (i > 1 ? "\n" : "") ls[i]
	}
	return out
}

# ---- the pages ----

END {
	if (failed) exit 2
	if (check) exit check_all()
	for (i = 1; i <= ndefs; i++) write_pages(order[i])
}

function check_all(	i, bad) {
	bad = 0
	for (i = 1; i <= nbare; i++) {
		if ((bare_key[i], bare_file[i]) in documented) continue
		print bare_where[i] ": " bare_key[i] " has no doc comment"
		bad = 1
	}
	return bad
}

# The first sentence (to the first period followed by white space, outside
# parentheses and quotes, or the end of the first paragraph) is the NAME line; the
# rest is the DESCRIPTION.  A kernel-doc "NAME - " prefix (or "probe NAME - ",
# "function NAME - ") is dropped.
function split_doc(key,	name, d, p) {
	name = key; sub(/^[a-z]+::/, "", name)
	d = docs[key]
	sub(/^[ \t\n]+/, "", d)
	if (index(d, "probe " name " - ") == 1) d = substr(d, 7)
	if (index(d, "function " name " - ") == 1) d = substr(d, 10)
	if (index(d, name " - ") == 1) d = substr(d, length(name) + 4)
	p = index(d, "\n\n"); if (p == 0) p = length(d) + 1
	head = substr(d, 1, p - 1); rest = substr(d, p)
	p = sentence_end(head)
	if (p) {
		rest = substr(head, p + 1) rest
		head = substr(head, 1, p - 1)
	} else
		sub(/[.]$/, "", head)
	gsub(/[ \t]*\n[ \t]*/, " ", head)
	sub(/^[ \t\n]+/, "", rest); sub(/[ \t\n]+$/, "", rest)
}

function sentence_end(s,	i, c, d, q) {
	d = 0; q = 0
	for (i = 1; i < length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\"") q = !q
		else if (q) continue
		else if (c == "(") d++
		else if (c == ")") d--
		else if (c == "." && d <= 0 && substr(s, i + 1, 1) ~ /[ \t\n]/ &&
		    substr(s, i - 3, 4) !~ /^(e\.g\.|i\.e\.)$/ && substr(s, i - 2, 3) != "e.g")
			return i
	}
	return 0
}

# An alias's points, one per line, split at the commas between them.
function points(s,	i, c, q, d, out, start) {
	d = 0; q = 0; out = ""; start = 1
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q) { if (c == "\\") i++; else if (c == "\"") q = 0; continue }
		if (c == "\"") q = 1
		else if (c == "(") d++
		else if (c == ")") d--
		else if (c == "," && d == 0) {
			out = out substr(s, start, i - start + 1) "\n    "
			start = i + 1
			while (substr(s, start, 1) == " ") start++
		}
	}
	return out substr(s, start)
}

# The page of key, under its name and an alias's other names.
function write_pages(key,	page, n, names, i, f) {
	page = page_text(key)
	n = split(key " " others[key], names, " ")
	for (i = 1; i <= n; i++) {
		if (i > 1 && ("probe::" names[i]) in first_file) continue
		f = out "/" (i > 1 ? "probe::" : "") names[i] ".3stp"
		printf "%s", page > f
		close(f)
	}
}

function page_text(key,	kind, name, all, i, r, paras, np, j, t) {
	kind = key; sub(/::.*/, "", kind)
	name = key; sub(/^[a-z]+::/, "", name)
	all = name; t = others[key]; gsub(/ /, ", ", t); all = all t
	split_doc(key)
	if (head == "") head = (kind == "function" ? "tapset function " : "probe alias ") name
	t = sprintf(".TH \"%s\" 3stp \"\" stp \"stp tapset reference\"\n", roff(toupper(key)))
	t = t ".SH NAME\n"
	r = key; if (others[key] != "") { r = others[key]; gsub(/ /, ", probe::", r); r = key r }
	t = t roff(r) " \\- " roff(head) "\n"
	t = t ".SH SYNOPSIS\n.nf\n"
	for (i = 1; i <= nsig[key]; i++) {
		if (kind == "function")
			t = t roff(wrap("function " sigs[key, i])) "\n"
		else
			t = t roff("probe " all " = " points(sigs[key, i])) "\n"
	}
	t = t ".fi\n.SH DESCRIPTION\n"
	r = rest
	if (r == "") r = "Defined in the tapset " base(first_file[key]) "."
	else r = r "\n\nDefined in the tapset " base(first_file[key]) "."
	np = split(r, paras, /\n[ \t]*\n/)
	for (j = 1; j <= np; j++) {
		if (j > 1) t = t ".PP\n"
		sub(/^\n+/, "", paras[j])
		t = t roff(paras[j]) "\n"
	}
	if (kind == "probe" && vars[key] != "")
		t = t ".SH VALUES\n" roff(comma_list(vars[key])) "\n"
	return t ".SH SEE ALSO\n.BR stp (1),\n.BR stpprobes (7)\n"
}

# The tapset's path from tapsets/ on (what `stp -I` and the install use).
function base(p) { sub(/^.*tapsets\//, "", p); return p }

# A signature longer than a line, broken after commas.
function wrap(s,	out, line, n, parts, i) {
	if (length(s) <= 72) return s
	n = split(s, parts, ", ")
	out = ""; line = parts[1]
	for (i = 2; i <= n; i++) {
		if (length(line) + length(parts[i]) + 2 > 72) {
			out = out line ",\n"
			line = "    " parts[i]
		} else
			line = line ", " parts[i]
	}
	return out line
}

# Alias variables, named in a sentence.
function comma_list(s) { gsub(/ /, ", ", s); return "The alias sets " s "." }
