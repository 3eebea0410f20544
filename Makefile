# stp: a SystemTap-class tracer.  See README.md.
#
#   make            build stp
#   make deps       install the Debian packages the build and tests need
#   make check      every test; the last line is "N passed, N failed"
#   make fresh-check  what CI runs: make deps and make check in a clean
#                   Debian 12 root (tests/fresh-check.sh)
#   make demo       the main job, for a new user
#   make bench      benchmarks, written to tests/bench/results.txt
#   make fuzz       the parser fuzzer (clang, ASan, UBSan)
#   make man        the man pages, section 3stp made from the tapsets (build/man)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
TAPSETDIR = $(PREFIX)/share/stp/tapset
RUNTIMEDIR = $(PREFIX)/share/stp/runtime
SCRIPTDIR = $(PREFIX)/share/stp/scripts
WEBDIR = $(PREFIX)/share/stp/web
LIBEXECDIR = $(PREFIX)/libexec/stp
MANDIR = $(PREFIX)/share/man
DOCDIR = $(PREFIX)/share/doc/stp
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
# systemd looks here for units under /usr and /usr/local alike
UNITDIR = $(PREFIX)/lib/systemd/system

CC ?= gcc
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
CPPFLAGS += -DTAPSET_DIR='"$(TAPSETDIR)"' -DSCRIPT_DIR='"$(SCRIPTDIR)"'
CPPFLAGS += -DWEB_DIR='"$(WEBDIR)"'

B = build
# stp's libraries: libdw/libelf (DWARF, ELF), libbpf (BTF), and the
# decompressors of kernel images (xz, zstd, gzip) for their .BTF
STP_LIBS = -ldw -lelf -lbpf -llzma -lzstd -lz
# stp -i's prompt
STP_LIBS += -lreadline
PARSER_SRC = lib/mem.c lib/intern.c lib/pmap.c lib/vec.c lib/sbuf.c lib/text.c lib/tmp.c parser/diag.c parser/lex.c parser/preprocess.c \
	parser/parse.c parser/print.c parser/dump.c
DRIVER_SRC = translator/front/options.c translator/front/target.c translator/elab/tapset.c \
	translator/front/pass1.c translator/front/script_find.c translator/elab/library.c \
	translator/elab/libscan.c translator/elab/clone.c translator/elab/genfn.c \
	translator/symbols/ksyms.c translator/symbols/modsyms.c translator/symbols/cache.c \
	translator/symbols/cache_key.c translator/elab/walk.c translator/symbols/bigmem.c \
	translator/elab/probes.c translator/elab/resolve.c translator/dwarf/dwarf_find.c \
	translator/dwarf/dwarf_index.c translator/dwarf/dwarf_scan.c translator/dwarf/dwarf_cfa.c \
	translator/dwarf/dwarf_probe.c translator/dwarf/dwarf_loc.c translator/dwarf/dwarf_type.c \
	translator/dwarf/dwarf_var.c translator/dwarf/dwarf_header.c translator/symbols/elfsec.c translator/btf/btf_image.c \
	translator/btf/btf_load.c translator/btf/btf_type.c translator/btf/btf_var.c \
	translator/btf/btf_pretty.c translator/btf/btf_module.c translator/btf/btf_kfunc.c \
	translator/btf/btf_core.c translator/btf/btf_cast.c translator/btf/btf_record.c translator/elab/probe_types.c \
	translator/kmod/emit_hoist.c translator/elab/dump_names.c translator/elab/infer.c \
	translator/elab/deadstore.c translator/elab/prune.c translator/elab/frozen.c \
	translator/elab/hoist.c translator/elab/listing.c translator/elab/pass2.c translator/kmod/access.c \
	translator/kmod/emit.c translator/kmod/emit_expr.c translator/kmod/emit_stmt.c \
	translator/kmod/build.c translator/kmod/run.c translator/kmod/passes.c translator/front/driver.c \
	staprun/cmdline.c staprun/rotate.c translator/front/interactive.c \
	translator/front/interactive_script.c translator/front/interactive_scan.c \
	translator/front/interactive_set.c translator/front/interactive_complete.c
# SDT markers at SystemTap's points of the pipeline (tapsets/stap_markers.stp)
DRIVER_SRC += translator/front/markers.c
# The probe families (families/list.h): each in a folder of its own, its
# pass-2 matcher, kmod emitter and BPF generator; a new one needs no line here
DRIVER_SRC += $(wildcard translator/families/*.c translator/families/*/*.c)
PARSER_OBJ = $(PARSER_SRC:%.c=$(B)/%.o)
DRIVER_OBJ = $(DRIVER_SRC:%.c=$(B)/%.o)
HEADERS = $(wildcard lib/*.h parser/*.h translator/*/*.h translator/*/*/*.h)

# The runtime's data structures, built for the host (unit tests, fuzzing).
RT_HOST_SRC = runtime/out.c runtime/map.c runtime/stat.c runtime/format.c runtime/sketch.c
RT_HOST_OBJ = $(RT_HOST_SRC:%.c=$(B)/host/%.o)
RT_HEADERS = $(wildcard runtime/*.h)

# stprun: loads a module, reads its transport, unloads it.
STPRUN_SRC = $(wildcard staprun/*.c)
STPRUN_OBJ = $(STPRUN_SRC:%.c=$(B)/%.o)

# The vital-signs store (store/, libvstore.a: stprun writes it) and stp-vitals,
# which reads it: SQLite from Debian's libsqlite3, zlib for the HCA blobs.
VSTORE_SRC = store/schema.c store/hca.c store/sblock.c store/store.c store/trim.c \
	store/read.c
VSTORE_OBJ = $(VSTORE_SRC:%.c=$(B)/%.o)
VITALS_SRC = vitals/stp_vitals.c vitals/dump.c vitals/json.c vitals/when.c \
	vitals/strpool.c vitals/hca_count.c vitals/rules.c vitals/rules_cfg.c \
	vitals/rules_flags.c vitals/rules_hist.c vitals/rules_scan.c \
	vitals/rules_cmd.c vitals/diff.c vitals/diff_cmd.c vitals/agg.c \
	vitals/agg_keep.c vitals/agg_top.c vitals/filter.c \
	vitals/api.c vitals/api_query.c vitals/api_meta.c vitals/api_series.c \
	vitals/api_epoch.c vitals/api_samples.c vitals/api_rules.c vitals/metrics.c \
	vitals/report.c
VITALS_OBJ = $(VITALS_SRC:%.c=$(B)/%.o)
VITALS_LIBS = -lsqlite3 -lz -lm
# stp-vitals serve: libmicrohttpd, in the dynamic stp-vitals only (its
# static link would pull in GnuTLS); the static one has serve_static.c.
SERVE_SRC = vitals/serve.c vitals/serve_web.c vitals/serve_cache.c \
	vitals/serve_warm.c
SERVE_OBJ = $(SERVE_SRC:%.c=$(B)/%.o)
SERVE_LIBS = -lmicrohttpd
VITALS_HEADERS = $(wildcard vitals/*.h store/*.h)
# tests/vitals: the store's writer for the tests, and both under ASan
VITALS_TESTS = $(B)/tests/vitals_writer $(B)/tests/asan/vitals_writer \
	$(B)/asan/stp-vitals $(B)/tests/rules_gen $(B)/tests/agg_check

# The web page (web/): uPlot and playwright-core from the npm registry,
# installed from web/package-lock.json into build/npm (npm ci), and the
# page with uPlot's two files in build/web, where stp-vitals serve and
# report find it beside build/stp-vitals ($(WEBDIR) once installed).
WEB_FILES = web/index.html web/style.css $(wildcard web/*.js)
UPLOT_DIST = $(B)/npm/node_modules/uplot/dist

UNIT_TESTS = $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_*.c))
# rt_host.c is the tests' host support, linked into each, not a test.
RT_TESTS = $(patsubst tests/unit/%.c,$(B)/tests/%,$(filter-out tests/unit/rt_host.c,$(wildcard tests/unit/rt_*.c)))

.PHONY: all check deps install clean demo bench fuzz unit vitals-tests web fresh-check

all: stp stprun stp-vitals $(B)/stp-vitals.static web

web: $(B)/web/index.html

$(B)/npm/.installed: web/package.json web/package-lock.json
	@mkdir -p $(B)/npm
	cp web/package.json web/package-lock.json $(B)/npm/
	cd $(B)/npm && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(B)/web/index.html: $(WEB_FILES) $(B)/npm/.installed
	rm -rf $(B)/web
	mkdir -p $(B)/web
	cp $(UPLOT_DIST)/uPlot.iife.min.js $(UPLOT_DIST)/uPlot.min.css $(B)/web/
	cp $(WEB_FILES) $(B)/web/

# Static, for guests with no libraries; the store comes along for the
# epochs of scripts that use chopstix.stp (glibc's note on dlopen in a
# static program is SQLite's extension loading, which stprun never uses).
stprun: $(STPRUN_OBJ) $(B)/libvstore.a
	$(CC) $(CFLAGS) -static -o $@ $(STPRUN_OBJ) $(B)/libvstore.a $(VITALS_LIBS) -lm \
		2>$(B)/stprun.ld || { cat $(B)/stprun.ld; exit 1; }
	@grep -v "dlopen\|statically linked\|unixDlOpen" $(B)/stprun.ld || true

$(B)/staprun/%.o: staprun/%.c $(wildcard staprun/*.h) $(RT_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -Iruntime -c -o $@ $<

$(B)/libvstore.a: $(VSTORE_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/vitals/%.o: vitals/%.c $(VITALS_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/stp-vitals: $(VITALS_OBJ) $(SERVE_OBJ) $(B)/libvstore.a
	$(CC) $(CFLAGS) -o $@ $(VITALS_OBJ) $(SERVE_OBJ) $(B)/libvstore.a $(VITALS_LIBS) $(SERVE_LIBS)

# the same, static, for the guests of the tests and the demo
$(B)/stp-vitals.static: $(VITALS_OBJ) $(B)/vitals/serve_static.o $(B)/libvstore.a
	$(CC) $(CFLAGS) -static -o $@ $(VITALS_OBJ) $(B)/vitals/serve_static.o $(B)/libvstore.a $(VITALS_LIBS) -lm \
		2>$@.ld || { cat $@.ld; exit 1; }
	@grep -v "dlopen\|statically linked\|unixDlOpen" $@.ld || true

# a link at the top, as ./stp and ./stprun are there
stp-vitals: $(B)/stp-vitals
	ln -sf $(B)/stp-vitals $@

$(B)/tests/vitals_writer: tests/vitals/writer.c vitals/when.c $(B)/libvstore.a $(VITALS_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Ivitals -o $@ $< vitals/when.c $(B)/libvstore.a $(VITALS_LIBS)

$(B)/tests/asan/vitals_writer: tests/vitals/writer.c vitals/when.c $(VSTORE_SRC) $(VITALS_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g $(SANITIZE) \
		-Ivitals -o $@ $< vitals/when.c $(VSTORE_SRC) $(VITALS_LIBS)

$(B)/asan/stp-vitals: $(VITALS_SRC) $(SERVE_SRC) $(VSTORE_SRC) $(VITALS_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g $(SANITIZE) \
		-o $@ $(VITALS_SRC) $(SERVE_SRC) $(VSTORE_SRC) $(VITALS_LIBS) $(SERVE_LIBS)

# the stores built for the rules, the aggregator's check (rules.sh)
$(B)/tests/rules_gen: tests/vitals/rules_gen.c $(B)/libvstore.a $(VITALS_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Ivitals -o $@ $< $(B)/libvstore.a $(VITALS_LIBS)

AGG_OBJ = $(B)/vitals/agg.o $(B)/vitals/agg_keep.o $(B)/vitals/agg_top.o $(B)/vitals/hca_count.o \
	$(B)/vitals/strpool.o
$(B)/tests/agg_check: tests/vitals/agg_check.c $(AGG_OBJ) $(B)/libvstore.a $(VITALS_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Ivitals -o $@ $< $(AGG_OBJ) $(B)/libvstore.a $(VITALS_LIBS)

vitals-tests: stp-vitals $(VITALS_TESTS)

# tests/web: a store of hostile texts for the page
$(B)/tests/web_hostile: tests/web/hostile.c $(B)/libvstore.a $(VITALS_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Ivitals -o $@ $< $(B)/libvstore.a $(VITALS_LIBS)

$(B)/libstprt-host.a: $(RT_HOST_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/host/runtime/%.o: runtime/%.c $(RT_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (host)"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -DSTP_HOST -c -o $@ $<

$(B)/tests/rt_%: tests/unit/rt_%.c tests/unit/unit.h tests/unit/rt_host.c $(B)/libstprt-host.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DSTP_HOST -Iruntime -o $@ $< tests/unit/rt_host.c $(B)/libstprt-host.a

stp: $(DRIVER_OBJ) $(B)/libstpparse.a
	$(CC) $(CFLAGS) -o $@ $(DRIVER_OBJ) $(B)/libstpparse.a $(STP_LIBS)

$(B)/libstpparse.a: $(PARSER_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/tests/%: tests/unit/%.c tests/unit/unit.h tests/unit/parse_env.h $(B)/libstpparse.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Iparser -o $@ $< $(B)/libstpparse.a

# The same runtime tests under AddressSanitizer and UBSan.
RT_ASAN_TESTS = $(patsubst $(B)/tests/%,$(B)/tests/asan/%,$(RT_TESTS))
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

$(B)/tests/asan/rt_%: tests/unit/rt_%.c tests/unit/unit.h tests/unit/rt_host.c $(RT_HOST_SRC) $(RT_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g $(SANITIZE) \
		-DSTP_HOST -Iruntime -o $@ $< tests/unit/rt_host.c $(RT_HOST_SRC)

unit: $(UNIT_TESTS) $(RT_TESTS) $(RT_ASAN_TESTS) $(B)/tests/parse_corpus

# stp itself under AddressSanitizer and UBSan, for the fuzz regressions:
# the cases filed for undefined behaviour only fail where it is checked.
# Its own object directory, so the two builds never mix.
ASAN_STP = $(B)/asan/stp
ASAN_OBJ = $(PARSER_SRC:%.c=$(B)/asan/%.o) $(DRIVER_SRC:%.c=$(B)/asan/%.o)

$(ASAN_STP): $(ASAN_OBJ)
	$(CC) -g $(SANITIZE) -o $@ $(ASAN_OBJ) $(STP_LIBS)

$(B)/asan/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (asan)"
	@$(CC) $(CPPFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g \
		$(SANITIZE) -c -o $@ $<

$(B)/tests/parse_corpus: tests/corpus/parse_corpus.c $(B)/libstpparse.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Iparser -o $@ $< $(B)/libstpparse.a

# deps first (the build needs its libraries), then the build on every
# core, then the tests
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CHECK_BUILD = stp stprun stp-vitals $(B)/stp-vitals.static unit $(ASAN_STP) vitals-tests web man
check: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(CHECK_BUILD)
	@tests/run-all.sh

deps:
	@tests/deps.sh

demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) stp stprun stp-vitals web $(B)/stp-vitals.static
	@tests/demo.sh

fresh-check:
	@tests/fresh-check.sh

bench: stp
	@tests/bench/run.sh

fuzz:
	@tests/fuzz/run.sh $(FUZZ_SECONDS)

# The systemd unit names this PREFIX's files: it is written at each
# install, never taken from build/, where an install with another PREFIX
# (the tests install into temporary ones) would have left its paths.
install: stp stprun stp-vitals web man $(B)/libstpbpf.a $(B)/libstprt-host.a
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(TAPSETDIR) $(DESTDIR)$(RUNTIMEDIR) \
		$(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(SCRIPTDIR) $(DESTDIR)$(WEBDIR)
	install -m 644 $(B)/web/* $(DESTDIR)$(WEBDIR)/
	install -m 755 stp stprun $(DESTDIR)$(BINDIR)/
	install -m 755 $(B)/stp-vitals $(DESTDIR)$(BINDIR)/stp-vitals
	install -m 755 staprun/stp-qemu $(DESTDIR)$(LIBEXECDIR)/stp-qemu
	cp -R tapsets/. $(DESTDIR)$(TAPSETDIR)/
	cp -R runtime/. $(DESTDIR)$(RUNTIMEDIR)/
	install -m 644 examples/*.stp $(DESTDIR)$(SCRIPTDIR)/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(COMPLETIONDIR)
	install -m 644 man/stp.1 man/stp-vitals.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/stpprobes.7 man/stpex.7 $(DESTDIR)$(MANDIR)/man7/
	install -m 644 man/stprun.8 $(DESTDIR)$(MANDIR)/man8/
	cp -R $(B)/man/man3/. $(DESTDIR)$(MANDIR)/man3/
	install -m 644 completion/stp.bash $(DESTDIR)$(COMPLETIONDIR)/stp
	install -d $(DESTDIR)$(DOCDIR)
	install -m 644 README.md doc/*.md $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(PREFIX)/lib/stp
	install -m 644 $(B)/libstpbpf.a $(B)/libstprt-host.a $(B)/libvstore.a $(DESTDIR)$(PREFIX)/lib/stp/
	install -d $(DESTDIR)$(UNITDIR)
	install -m 755 systemd/stp-pick-runtime $(DESTDIR)$(LIBEXECDIR)/stp-pick-runtime
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SCRIPTDIR@|$(SCRIPTDIR)|g' \
		-e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' systemd/stp-vitals.service.in \
		>$(DESTDIR)$(UNITDIR)/stp-vitals.service
	chmod 644 $(DESTDIR)$(UNITDIR)/stp-vitals.service

clean:
	rm -rf $(B) stp stprun stp-vitals

# how much of SystemTap's tapset library stp defines, by name (not a check)
.PHONY: coverage
coverage: stp
	@tests/examples/coverage.sh

# The system call tapsets are made from one table by an awk script
# (tapsets/gen/); the output is committed, so stp reads them without a
# build step.  Run this after editing syscalls.tbl, .fix or .awk.
SYSCALL_GEN = tapsets/gen/syscalls.awk tapsets/gen/syscalls.fix tapsets/gen/syscalls.tbl
syscall-tapsets:
	awk -v what=entry -f $(SYSCALL_GEN) > tapsets/linux/syscalls.stp
	awk -v what=nd -f $(SYSCALL_GEN) > tapsets/linux/syscalls_nd.stp
	awk -v what=names -f $(SYSCALL_GEN) > tapsets/linux/syscalls_names.stp
.PHONY: syscall-tapsets

# Man pages: stp(1), stprun(8), stp-vitals(1), stpprobes(7) and stpex(7)
# are written by hand in man/; section 3stp, a page per tapset function and
# probe alias, is made from the tapsets' doc comments into build/man/man3
# (man/gen/tapset-man.awk, one pass over the tapsets, all pages at once).
MAN_TAPSETS = $(wildcard tapsets/*.stp tapsets/linux/*.stp)
man: $(B)/man/.stamp3
$(B)/man/.stamp3: man/gen/tapset-man.awk $(MAN_TAPSETS)
	@rm -rf $(B)/man/man3 && mkdir -p $(B)/man/man3
	@echo "  MAN     $(B)/man/man3"
	@awk -v out=$(B)/man/man3 -f man/gen/tapset-man.awk $(MAN_TAPSETS)
	@touch $@
.PHONY: man
# --runtime=bpf (issue 17): the translator's backend is in DRIVER_SRC's
# list below; the runner each script's user side links with is
# libstpbpf.a (staprun/bpf/), with the host build of runtime/format.c.
BPF_SRC = $(wildcard translator/bpf/*.c)
BPF_OBJ = $(BPF_SRC:%.c=$(B)/%.o)
STPBPF_SRC = $(wildcard staprun/bpf/*.c)
STPBPF_OBJ = $(STPBPF_SRC:%.c=$(B)/%.o)
DRIVER_OBJ += $(BPF_OBJ)
$(BPF_OBJ) $(BPF_SRC:%.c=$(B)/asan/%.o): $(wildcard translator/bpf/*.h)

$(B)/staprun/bpf/%.o: staprun/bpf/%.c staprun/bpf/run.h $(wildcard runtime/bpf/*.h) $(RT_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -DSTP_HOST -Iruntime -c -o $@ $<

$(B)/libstpbpf.a: $(STPBPF_OBJ) $(B)/staprun/cmdline.o $(B)/staprun/usym.o \
		$(B)/staprun/epoch.o $(B)/staprun/epoch_sum.o
	rm -f $@
	ar rcs $@ $^

stp: $(BPF_OBJ) $(B)/libstpbpf.a $(B)/libstprt-host.a $(B)/libvstore.a
ASAN_OBJ += $(BPF_SRC:%.c=$(B)/asan/%.o)
$(ASAN_STP): $(BPF_SRC:%.c=$(B)/asan/%.o)
