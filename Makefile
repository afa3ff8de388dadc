# iobench — PGXS build, for PostgreSQL 15 to 19.
#
#   make             build the extension (needs the server headers and liburing)
#   make install     install it into the server named by PG_CONFIG
#   make run         quick start: install what is missing, build, start a throwaway
#                    cluster and run a short benchmark on pg_default
#   make test        the same set-up, then the pg_regress suite on a private instance
#                    with iobench preloaded, the isolation specs and the TAP tests
#   make include-check  fail when an include of src/ runs up or sideways between its
#                    subsystems, or on a cycle (tools/include_graph.sh)
#   make test-lint   fail on a test check that cannot fail (count(*) >= 0 ...) and on
#                    TAP tests that share a number (tools/test_lint.pl)
#   make dist        the PGXN bundle iobench-X.Y.Z.zip of the commit HEAD, its
#                    META.json checked against the PGXN meta spec (tools/dist.sh)
#
# Each takes PG_CONFIG=/path/to/pg_config to work with that installation instead
# of the default (tools/pg_dirs.sh: Debian's PostgreSQL 15, installed with the
# rest by tools/deps.sh when missing), and WERROR=1 to build with -Werror.

EXTENSION = iobench
MODULE_big = iobench
OBJS = \
	src/iobench.o \
	src/base/dynworker.o \
	src/base/owner_spi.o \
	src/base/privileges.o \
	src/base/settings.o \
	src/base/sql_args.o \
	src/base/sql_entry.o \
	src/base/subxact.o \
	src/campaigns/campaign.o \
	src/campaigns/search.o \
	src/campaigns/suite.o \
	src/device/diskstats.o \
	src/device/space.o \
	src/device/storage.o \
	src/engine/engine.o \
	src/engine/engine_postgres.o \
	src/engine/engine_postgres_relation.o \
	src/engine/engine_postgres_scan.o \
	src/engine/engine_postgres_settings.o \
	src/engine/engine_psync.o \
	src/engine/engine_uring.o \
	src/results/histogram.o \
	src/results/run_params.o \
	src/results/run_store.o \
	src/run/files.o \
	src/run/pgiosim.o \
	src/run/recorder.o \
	src/run/run_args.o \
	src/run/run_launcher.o \
	src/run/run_limits.o \
	src/run/run_progress.o \
	src/run/run_shared.o \
	src/run/run_summary.o \
	src/run/run_validate.o \
	src/run/second_ring.o \
	src/run/steady_state.o \
	src/run/store_worker.o \
	src/run/tablespace_group.o \
	src/run/wait_run.o \
	src/run/wal_pattern.o \
	src/run/worker.o \
	src/run/workload.o \
	src/waits/wait_backend_type.o \
	src/waits/wait_collector.o \
	src/waits/wait_exact.o \
	src/waits/wait_output.o \
	src/waits/wait_sampler.o \
	src/waits/wait_table.o \
	src/waits/wait_timer.o \
	src/waits/wait_window.o

# SQL: released scripts are frozen, the current version is built.
#
# A release's scripts are committed as they were built and never change
# again: sql/iobench--X.sql (the full install script of release X) and
# sql/iobench--W--X.sql (the upgrade from the release W before it), for
# every release X (RELEASES below: the versions of the sql/iobench--X.sql
# files).  ALTER EXTENSION UPDATE chains them, so each installed release
# keeps the path its users ran.  While iobench.control's default_version
# (EXTVERSION) equals the last release, nothing is built; when it is past
# it, the install script of EXTVERSION and the one step from the last
# release are built from per-subsystem sources:
#   sql/install/schema/*.sql   tables, types and built-in rows, created once
#                              (changed by hand in the upgrade file)
#   sql/install/code/*.sql     functions and views, all CREATE OR REPLACE,
#                              privileges last (90_privileges.sql)
#   sql/install/upgrade/$(LAST_RELEASE)--$(EXTVERSION).sql  the steps from the
#                              last release that CREATE OR REPLACE cannot take
#   sql/install/upgrade/finish.sql  the last step of every upgrade (grants
#                              of replaced functions carried over)
# iobench--$(EXTVERSION).sql = schema + code; iobench--$(LAST_RELEASE)--$(EXTVERSION).sql
# = upgrade steps + the schema files new since the last release
# (NEW_SCHEMA_<last release>) + code + finish.  C limits reach SQL from one
# place: a placeholder @IOB_NAME@ in these sources is replaced by the value
# "#define IOB_NAME" has in $(LIMIT_HEADERS) (tools/sql_limits.sh), so the
# CHECKs of sql/install/schema/20_suites.sql are the limits the C code
# enforces (a frozen script keeps the limits of its release: a later change
# of a limit needs an upgrade step).  sql/*.sql but sql/iobench--* and
# expected/*.out are the pg_regress tests.
#
# Releasing version X (RELEASING in CONTRIBUTING.md):
#   1. default_version = 'X' in iobench.control and "version" in META.json
#      (the test "meta" fails when they differ), everything merged, tests pass
#   2. tools/release.sh X   builds both scripts from sql/install/, writes them
#      as sql/iobench--X.sql and sql/iobench--W--X.sql, dates CHANGELOG's
#      section and stages it all; commit it ("Release X") and tag it vX
#   3. start the next version Y: default_version = 'Y' (and META.json), a
#      "## Y (unreleased)" section in CHANGELOG.md, and the steps of tables
#      that change in sql/install/upgrade/X--Y.sql (NEW_SCHEMA_X lists
#      the schema files new in Y)
# While default_version equals the last release, the build checks that
# sql/install/ still builds that release's install script ("frozen-check"):
# a change there without a new default_version stops the build, since it
# would never reach an installation.
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" iobench.control)
RELEASES := $(shell ls sql/iobench--*.sql 2>/dev/null | sed -n 's,^sql/iobench--\([^-]*\)\.sql$$,\1,p' | sort -V)
LAST_RELEASE := $(lastword $(RELEASES))
ifneq ($(lastword $(shell printf '%s\n' '$(EXTVERSION)' '$(LAST_RELEASE)' | sort -V)),$(EXTVERSION))
$(error iobench.control's default_version $(EXTVERSION) is older than the last release $(LAST_RELEASE))
endif
SCHEMA_SQL = $(sort $(wildcard sql/install/schema/*.sql))
# schema files whose every object (or comment) is new since release 0.1:
# the upgrade from 0.1 runs them as they are, right after its own steps
NEW_SCHEMA_0.1 = sql/install/schema/05_internal.sql sql/install/schema/11_runs_units.sql sql/install/schema/15_run_details.sql \
	sql/install/schema/35_waits_by_backend.sql sql/install/schema/40_fleet.sql sql/install/schema/40_searches.sql \
	sql/install/schema/50_live.sql
# and since release 0.2
NEW_SCHEMA_0.2 = sql/install/schema/45_tunings.sql sql/install/schema/60_server_reads.sql sql/install/schema/70_result_rows.sql
CODE_SQL = $(sort $(wildcard sql/install/code/*.sql))
LIMIT_HEADERS = src/run/run_validate.h src/base/settings.h
UPGRADE_STEPS = $(wildcard sql/install/upgrade/$(LAST_RELEASE)--$(EXTVERSION).sql)
# the frozen scripts of every release
DATA = $(sort $(wildcard sql/iobench--*.sql))
ifneq ($(EXTVERSION),$(LAST_RELEASE))
DATA_built = iobench--$(EXTVERSION).sql iobench--$(LAST_RELEASE)--$(EXTVERSION).sql
else
EXTRA_CLEAN = iobench--$(EXTVERSION).sql
endif
PGFILEDESC = "iobench - storage benchmarks and wait statistics"

REGRESS = setup upgrade run_patterns run_errors run_sizes size_fuzz run_cancel run_results run_readonly server_read privileges benchmark_user uring \
	pgiosim suite search reports fleet import_validation search_path suite_privileges \
	waits_table waits_sample waits_collector waits_run waits_privileges server_tuning
REGRESS_OPTS = --dbname=iobench_regression
# make installcheck (PGXS): the same suite against a running server that
# has iobench installed (PGHOST, PGPORT, PGUSER name it; CONTRIBUTING.md, "make
# installcheck").  The tests create tablespaces in ./testtablespace and
# ./testtablespace2, which installcheck-prep makes (given to the user
# "postgres" when run as root: the server must own them).
REGRESS_PREP = installcheck-prep
# Lock-wait tests as pg_isolation_regress specs (specs/<name>.spec), when any
ISOLATION = wait_counts
# TAP tests (t/*.pl, PostgreSQL::Test::Cluster): clusters of their own, for
# what needs a restart or settings fixed at server start.  tools/run-tests.sh
# runs every t/*.pl with prove against the same private install tree.
TAP_TESTS = 1

SHLIB_LINK += -luring
PG_CPPFLAGS += -I$(srcdir)/src
# The library's version, which every entry point compares with the database's
# (src/base/sql_entry.c)
PG_CPPFLAGS += -DIOB_LIBRARY_VERSION='"$(EXTVERSION)"'
PG_CFLAGS += -Wall -Wmissing-prototypes

# make WERROR=1: every warning is an error (CI builds this way).
ifeq ($(WERROR),1)
PG_CFLAGS += -Werror
endif
export WERROR

# The pg_config to build against, by the rule the scripts use too
# (tools/pg_dirs.sh): PG_CONFIG when given, else Debian's PostgreSQL 15 when
# installed, else a server's pg_config on PATH, else Debian's 15 all the same,
# which the "deps" step installs on a fresh machine.
IOBENCH_TOP := $(dir $(lastword $(MAKEFILE_LIST)))
ifndef PG_CONFIG
PG_CONFIG := $(shell $(IOBENCH_TOP)tools/pg_dirs.sh)
endif
export PG_CONFIG
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

# The releases iobench supports (src/base/compat.h holds their differences).
PG_MAJOR := $(shell $(PG_CONFIG) --version 2>/dev/null | sed -n 's/^PostgreSQL \([0-9][0-9]*\).*/\1/p')
ifneq ($(filter-out 15 16 17 18 19,$(PG_MAJOR)),)
$(error iobench supports PostgreSQL 15 to 19, but $(PG_CONFIG) is $(shell $(PG_CONFIG) --version))
endif

ifneq ($(wildcard $(PGXS)),)
include $(PGXS)

# a new default_version rebuilds the file that compares it (src/base/sql_entry.c)
src/base/sql_entry.o src/base/sql_entry.bc: iobench.control

# The tests' database is iobench_regression (privileges and benchmark_user
# name it), also under installcheck, where PGXS adds --dbname=$(CONTRIB_TESTDB)
CONTRIB_TESTDB = iobench_regression
else
# No server headers yet (a fresh machine): install them with the rest of
# what the build needs (tools/deps.sh), then make the same target again.
all install installcheck: deps
	@$(MAKE) --no-print-directory $@
endif

iobench--$(EXTVERSION).sql: $(SCHEMA_SQL) $(CODE_SQL) $(LIMIT_HEADERS)
	{ echo '/* $@ — full install script of version $(EXTVERSION), built from sql/install/ */'; \
	  printf '%s\n' '\echo Use "CREATE EXTENSION iobench" to load this file. \quit'; \
	  cat $(SCHEMA_SQL) $(CODE_SQL); } | tools/sql_limits.sh $(LIMIT_HEADERS) > $@

ifneq ($(EXTVERSION),$(LAST_RELEASE))
iobench--$(LAST_RELEASE)--$(EXTVERSION).sql: $(UPGRADE_STEPS) $(NEW_SCHEMA_$(LAST_RELEASE)) $(CODE_SQL) sql/install/upgrade/finish.sql $(LIMIT_HEADERS)
	{ echo '/* $@ — upgrade from $(LAST_RELEASE) to $(EXTVERSION), built from sql/install/ */'; \
	  printf '%s\n' '\echo Use "ALTER EXTENSION iobench UPDATE TO '"'"'$(EXTVERSION)'"'"'" to load this file. \quit'; \
	  cat $(UPGRADE_STEPS) $(NEW_SCHEMA_$(LAST_RELEASE)) $(CODE_SQL) sql/install/upgrade/finish.sql; } | \
	  tools/sql_limits.sh $(LIMIT_HEADERS) > $@
else
# Released and not yet past: sql/install/ must still build the frozen
# install script (all but its first line, the comment).
all: frozen-check
endif

.PHONY: frozen-check
frozen-check: iobench--$(EXTVERSION).sql
	@f=sql/iobench--$(EXTVERSION).sql; \
	if [ -f $$f ] && ! cmp -s -i "$$(head -n 1 $< | wc -c):$$(head -n 1 $$f | wc -c)" $< $$f; then \
	  echo "ERROR: sql/install/ no longer builds sql/iobench--$(EXTVERSION).sql, the frozen script of release $(EXTVERSION)" >&2; \
	  echo "HINT: Set default_version in iobench.control (and META.json) to the next version, or undo the change." >&2; \
	  exit 1; \
	fi

# A script that failed half-way is not left behind as if it were built.
.DELETE_ON_ERROR:

# PGXS tracks no header dependencies: rebuild every object when a header changes.
$(OBJS): $(wildcard $(srcdir)/src/*.h $(srcdir)/src/*/*.h)

# Objects built for another server or with other flags are rebuilt: they depend
# on a stamp whose content (pg_config, its version, WERROR) changes with them.
BUILD_STAMP := src/.build-stamp
BUILD_STAMP_TEXT := $(PG_CONFIG) $(shell $(PG_CONFIG) --version 2>/dev/null) WERROR=$(WERROR)
ifneq ($(BUILD_STAMP_TEXT),$(shell cat $(BUILD_STAMP) 2>/dev/null))
$(shell echo '$(BUILD_STAMP_TEXT)' >$(BUILD_STAMP))
endif
$(OBJS) $(OBJS:.o=.bc): $(BUILD_STAMP)

# The JIT bitcode (clang) is held to -Werror too.
ifeq ($(WERROR),1)
override BITCODE_CFLAGS += -Werror
endif

# The tablespace directories of the tests, empty, owned by the server's user
# (as root: "postgres", or IOBENCH_SERVER_USER); then, when pg_regress or
# the isolation specs will run, a check that a server answers at PGHOST and
# PGPORT and can make a tablespace in both directories
# (tools/installcheck_check.sh), which says what to do when not
.PHONY: installcheck-prep
installcheck-prep:
	rm -rf testtablespace testtablespace2
	mkdir testtablespace testtablespace2
	@if [ "$$(id -u)" -eq 0 ]; then \
	  chown "$${IOBENCH_SERVER_USER:-postgres}" testtablespace testtablespace2; \
	fi
ifneq ($(strip $(REGRESS)$(ISOLATION)),)
	@tools/installcheck_check.sh '$(bindir)' testtablespace testtablespace2
endif
EXTRA_CLEAN += testtablespace testtablespace2 output_iso

# The includes of src/ run downwards between its subsystems, through their
# public headers, with no cycle (tools/include_graph.sh: the table of levels)
.PHONY: include-check
include-check:
	@tools/include_graph.sh -q

# Every check of the tests can fail, and every TAP test has a number of its
# own (tools/test_lint.pl names each finding)
.PHONY: test-lint
test-lint:
	@tools/test_lint.pl

# The PGXN release bundle: git archive of HEAD, META.json checked first
.PHONY: dist
dist:
	@tools/dist.sh

.PHONY: run test deps
deps:
	@tools/deps.sh

run: deps
	@tools/quickstart.sh

test: deps
	@tools/run-tests.sh
