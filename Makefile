# iobench — PGXS build, for PostgreSQL 15 to 19.
#
#   make             build the extension (needs the server headers and liburing)
#   make install     install it into the server named by PG_CONFIG
#   make run         quick start: install what is missing, build, start a throwaway
#                    cluster and run a short benchmark on pg_default
#   make test        the same set-up, then the pg_regress suite on a private instance
#                    with iobench preloaded, the isolation specs and the TAP tests
#
# Each takes PG_CONFIG=/path/to/pg_config to work with that installation instead
# of the default (tools/pg_dirs.sh: Debian's PostgreSQL 15, installed with the
# rest by tools/deps.sh when missing), and WERROR=1 to build with -Werror.

EXTENSION = iobench
MODULE_big = iobench
OBJS = \
	src/iobench.o \
	src/histogram.o \
	src/workload.o \
	src/engine.o \
	src/engine_psync.o \
	src/engine_uring.o \
	src/files.o \
	src/diskstats.o \
	src/storage.o \
	src/dynworker.o \
	src/worker.o \
	src/run_shared.o \
	src/run_launcher.o \
	src/run_store.o \
	src/run_limits.o \
	src/run_progress.o \
	src/recorder.o \
	src/steady_state.o \
	src/tablespace_group.o \
	src/run_options.o \
	src/run_args.o \
	src/results.o \
	src/owner_spi.o \
	src/subxact.o \
	src/second_ring.o \
	src/privileges.o \
	src/pgiosim.o \
	src/suite.o \
	src/search.o \
	src/wal_pattern.o \
	src/wait_table.o \
	src/wait_sampler.o \
	src/wait_backend_type.o \
	src/wait_timer.o \
	src/wait_output.o \
	src/wait_exact.o \
	src/wait_window.o \
	src/wait_run.o \
	src/wait_collector.o

# SQL: the install script of the current version and the upgrade to it
# from the last release are built from per-subsystem sources:
#   sql/install/schema/*.sql   tables, types and built-in rows, created once
#                              (changed by hand in the upgrade file)
#   sql/install/code/*.sql     functions and views, all CREATE OR REPLACE,
#                              privileges last (90_privileges.sql)
#   sql/install/upgrade/A--B.sql  the steps from release A that CREATE OR
#                              REPLACE cannot take
#   sql/install/upgrade/finish.sql  the last step of every upgrade (grants
#                              of replaced functions carried over)
# iobench--$(EXTVERSION).sql = schema + code; iobench--0.1--$(EXTVERSION).sql
# = upgrade + the schema files new since 0.1 + code + finish.  C limits reach SQL from one place: a placeholder
# @IOB_NAME@ in these sources is replaced by the value "#define IOB_NAME"
# has in $(LIMIT_HEADERS) (tools/sql_limits.sh), so the CHECKs of
# sql/install/schema/20_suites.sql are the limits the C code enforces.  Released install scripts (sql/iobench--0.1.sql) are
# never edited.  sql/*.sql and expected/*.out are the pg_regress tests.
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" iobench.control)
SCHEMA_SQL = $(sort $(wildcard sql/install/schema/*.sql))
# schema files whose every object (or comment) is new since 0.1: the
# upgrade from 0.1 runs them as they are, right after its own steps
NEW_SCHEMA_0.1 = sql/install/schema/11_runs_units.sql sql/install/schema/15_run_details.sql \
	sql/install/schema/35_waits_by_backend.sql sql/install/schema/40_fleet.sql sql/install/schema/40_searches.sql \
	sql/install/schema/50_live.sql
CODE_SQL = $(sort $(wildcard sql/install/code/*.sql))
LIMIT_HEADERS = src/run_options.h src/iobench.h
DATA = sql/iobench--0.1.sql
DATA_built = iobench--$(EXTVERSION).sql iobench--0.1--$(EXTVERSION).sql
PGFILEDESC = "iobench - storage benchmarks and wait statistics"

REGRESS = setup upgrade run_patterns run_errors run_sizes run_cancel run_results run_readonly privileges benchmark_user uring \
	pgiosim suite search reports fleet import_validation search_path suite_privileges \
	waits_table waits_sample waits_collector waits_run waits_privileges
REGRESS_OPTS = --dbname=iobench_regression
# Lock-wait tests as pg_isolation_regress specs (specs/<name>.spec), when any
ISOLATION = wait_counts
# TAP tests (t/*.pl, PostgreSQL::Test::Cluster): clusters of their own, for
# what needs a restart or settings fixed at server start.  tools/run-tests.sh
# runs every t/*.pl with prove against the same private install tree.
TAP_TESTS = 1

SHLIB_LINK += -luring
PG_CPPFLAGS += -I$(srcdir)/src
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

# The releases iobench supports (src/compat.h holds their differences).
PG_MAJOR := $(shell $(PG_CONFIG) --version 2>/dev/null | sed -n 's/^PostgreSQL \([0-9][0-9]*\).*/\1/p')
ifneq ($(filter-out 15 16 17 18 19,$(PG_MAJOR)),)
$(error iobench supports PostgreSQL 15 to 19, but $(PG_CONFIG) is $(shell $(PG_CONFIG) --version))
endif

ifneq ($(wildcard $(PGXS)),)
include $(PGXS)
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

iobench--0.1--$(EXTVERSION).sql: sql/install/upgrade/0.1--$(EXTVERSION).sql $(NEW_SCHEMA_0.1) $(CODE_SQL) sql/install/upgrade/finish.sql $(LIMIT_HEADERS)
	{ echo '/* $@ — upgrade from 0.1 to $(EXTVERSION), built from sql/install/ */'; \
	  printf '%s\n' '\echo Use "ALTER EXTENSION iobench UPDATE TO '"'"'$(EXTVERSION)'"'"'" to load this file. \quit'; \
	  cat sql/install/upgrade/0.1--$(EXTVERSION).sql $(NEW_SCHEMA_0.1) $(CODE_SQL) sql/install/upgrade/finish.sql; } | \
	  tools/sql_limits.sh $(LIMIT_HEADERS) > $@

# A script that failed half-way is not left behind as if it were built.
.DELETE_ON_ERROR:

# PGXS tracks no header dependencies: rebuild every object when a header changes.
$(OBJS): $(wildcard $(srcdir)/src/*.h)

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

.PHONY: run test deps
deps:
	@tools/deps.sh

run: deps
	@tools/quickstart.sh

test: deps
	@tools/run-tests.sh
