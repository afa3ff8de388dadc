# pg_dump keeps what iobench stores (issue 35).  A database holding runs of
# each engine (psync; io_uring where the kernel allows it; postgres), a
# tablespace-group run, a suite of a user's own, a latency search, wait
# snapshots, an imported run with a fleet call's rows, a user's benign
# wait and the rows of a run a crash cut off is dumped with pg_dump and
# restored with psql into a new database: every table of schema iobench
# reads the same, row for row, the built-in rows come once, and new runs,
# suites, searches and fleet calls get ids past the restored ones.
# Grants a DBA makes on the extension's objects survive a dump and restore
# whatever way the database reached 0.3 (installed at 0.3, updated from
# 0.2, updated from 0.1 through 0.2), and the extension's own grants read
# the same after the restore.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;
use IobFault;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = iob_base_node('dump_restore', undef, 1);
my $tmp = PostgreSQL::Test::Utils::tempdir;

# Dump database $from with pg_dump and restore it with psql into a new
# database $to (stopping at the first error)
sub dump_restore
{
	my ($from, $to) = @_;
	my $file = "$tmp/$from.sql";
	$node->command_ok([ 'pg_dump', '--no-sync', '-d', $from, '-f', $file ],
		"pg_dump of $from");
	$node->safe_psql('postgres', "CREATE DATABASE $to");
	$node->command_ok(
		[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $to, '-f', $file ],
		"$from restored into $to without an error");
}

# Every table of schema iobench, one line each: its name, rows and a
# digest of their text
sub tables_digest
{
	my ($db) = @_;
	my @tables = split /\n/, $node->safe_psql($db, q{
		SELECT c.oid::regclass FROM pg_class c
		 WHERE c.relnamespace = 'iobench'::regnamespace AND c.relkind = 'r' ORDER BY 1});
	return $node->safe_psql($db, join("\nUNION ALL ", map {
		qq{SELECT '$_' || ' ' || count(*) || ' '
		          || md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM $_ t}
	} @tables) . "\nORDER BY 1");
}

# The ACL of each object of the extension, its items in one order (the
# relations runs of engine postgres read are members, left out of a dump
# and made again by the next such run)
my $acls_sql = q{
	SELECT string_agg(format('%s: %s', pg_describe_object(d.classid, d.objid, 0), a.acl), E'\n'
	                  ORDER BY pg_describe_object(d.classid, d.objid, 0))
	  FROM pg_depend d,
	       LATERAL (SELECT string_agg(i::text, ',' ORDER BY i::text) AS acl
	                  FROM unnest(CASE d.classid
	                              WHEN 'pg_proc'::regclass THEN (SELECT proacl FROM pg_proc WHERE oid = d.objid)
	                              WHEN 'pg_class'::regclass THEN (SELECT relacl FROM pg_class WHERE oid = d.objid)
	                              WHEN 'pg_namespace'::regclass THEN (SELECT nspacl FROM pg_namespace WHERE oid = d.objid)
	                              WHEN 'pg_type'::regclass THEN (SELECT typacl FROM pg_type WHERE oid = d.objid)
	                              END) i) a
	 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'iobench')
	   -- not the relations runs of engine postgres read (members, not dumped)
	   AND NOT (d.classid = 'pg_class'::regclass
	            AND d.objid IN (SELECT relation FROM iobench.read_targets))
	   -- nor their row types
	   AND NOT (d.classid = 'pg_type'::regclass
	            AND d.objid IN (SELECT t.oid FROM pg_type t
	                             WHERE t.typrelid IN (SELECT relation FROM iobench.read_targets)
	                                OR t.typelem IN (SELECT e.oid FROM pg_type e
	                                                  WHERE e.typrelid IN (SELECT relation FROM iobench.read_targets))))};

$node->safe_psql('postgres', 'CREATE DATABASE bench');
$node->safe_psql('bench', 'CREATE EXTENSION iobench');
my $tiny = q{duration => '300ms', file_size => '4MB', workers => 1, files => 1};
# engine postgres: a relation above its least cold size on 18 (4.6 MB with
# the default effective_io_concurrency and io_combine_limit)
my $tiny_server = q{duration => '300ms', file_size => '16MB', workers => 1};

# Runs of each engine
$node->safe_psql('bench', qq{SELECT iobench.snapshot_waits('before')});
$node->safe_psql('bench', qq{SELECT run_id FROM iobench.run(engine => 'psync', rw => 'randwrite', $tiny,
	stall_threshold => '1us', label => 'psync')});
my ($rc, $out, $err) = $node->psql('bench',
	qq{SELECT run_id FROM iobench.run(engine => 'io_uring', iodepth => 4, $tiny, label => 'io_uring')});
if ($rc != 0)
{
	like($err, qr/io_uring is not available/, 'io_uring: refused by the kernel here, no other error');
}
$node->safe_psql('bench', qq{SELECT run_id FROM iobench.run(engine => 'postgres', $tiny_server, label => 'postgres')});
# a tablespace group
mkdir "$tmp/ts2" or die "mkdir: $!";
$node->safe_psql('bench', qq{CREATE TABLESPACE ts2 LOCATION '$tmp/ts2'});
$node->safe_psql('bench', q{SELECT run_id FROM iobench.run(engine => 'psync', duration => '300ms',
	file_size => '4MB', workers => 1, files => 2, tablespaces => ARRAY['pg_default', 'ts2']::name[],
	label => 'group')});
# a suite of one's own, and a user's benign wait
$node->safe_psql('bench', q{
	INSERT INTO iobench.suite_tests (suite, test_no, test, rw, block_size, workers, iodepth, files)
	VALUES ('mine', 1, 'tiny random read', 'randread', '8kB', 1, 1, 1);
	INSERT INTO iobench.benign_waits (wait_type, reason) VALUES ('Timeout:SpinDelay', 'mine')});
$node->safe_psql('bench', q{SELECT count(*) FROM iobench.suite('mine', ARRAY['pg_default']::name[],
	duration => '300ms', file_size => '4MB', engine => 'psync')});
# a latency search of one step
$node->safe_psql('bench', q{SELECT count(*) FROM iobench.latency_search(latency_target => '10s',
	max_iodepth => 1, step_duration => '300ms', file_size => '4MB', engine => 'psync')});
# a server tuning call (stored in iobench.tunings and tuning_runs)
$node->safe_psql('bench', q{SELECT count(*) FROM iobench.server_vs_disk(concurrencies => '{1}',
	duration => '300ms', file_size => '16MB')});
is($node->safe_psql('bench', q{SELECT count(*) = (SELECT count(e ->> 'raw_run_id') + count(e ->> 'server_run_id')
	                                          FROM iobench.tunings t, jsonb_array_elements(t.result) e)
	FROM iobench.tunings t JOIN iobench.tuning_runs r USING (tuning_id) WHERE t.status = 'completed'}),
	't', 'a tuning call and the runs its rows name, to dump');
$node->safe_psql('bench', qq{SELECT iobench.snapshot_waits('after')});
# a run exported and imported as if from another server, gathered by a
# fleet call (its rows written here as fleet_run() writes them)
$node->safe_psql('bench', q{
	CREATE TEMP TABLE imp AS
	SELECT i.* FROM iobench.import_runs(
	    jsonb_set(iobench.export_runs(ARRAY[(SELECT run_id FROM iobench.runs WHERE label = 'psync')]),
	              '{runs,0,run,run_uuid}', to_jsonb(gen_random_uuid()::text)),
	    'elsewhere') i;
	WITH f AS (
	    INSERT INTO iobench.fleets (settings, servers, concurrent, status, started_at, finished_at)
	    VALUES ('{"duration": "300ms"}', '{elsewhere}', false, 'completed', now(), now())
	    RETURNING fleet_id)
	INSERT INTO iobench.fleet_runs (fleet_id, server, test_no, test, run_id, remote_run_id)
	SELECT f.fleet_id, 'elsewhere', 1, 'randread', imp.run_id, 1 FROM f, imp});
# A run a crash cut off: its live rows (as its recorder left them)
$node->safe_psql('bench', q{
	INSERT INTO iobench.live_runs (run_id, started_at, recorder_pid, recorder_start, launcher_pid,
	                               tablespace, rw, block_size, workers, iodepth, duration)
	VALUES (nextval('iobench.runs_run_id_seq'), now(), 1, now(), 1, 'pg_default', 'randwrite',
	        8192, 1, 1, '10s');
	INSERT INTO iobench.live_seconds SELECT max(run_id), 0, 'write', 10, 81920, 5, 9 FROM iobench.live_runs;
	INSERT INTO iobench.live_stalls SELECT max(run_id), 0.5, 0, 0, 8192, 100, 0 FROM iobench.live_runs;
	INSERT INTO iobench.live_disk_seconds (run_id, device, member, second, interval_s, reads,
	        read_merges, read_sectors, read_ms, writes, write_merges, write_sectors, write_ms,
	        in_flight, io_ms, queue_ms)
	SELECT max(run_id), 'sda', false, 0, 1, 0, 0, 0, 0, 10, 0, 160, 5, 0, 5, 5 FROM iobench.live_runs});
# a file system without a block device leaves run_disk_seconds empty: a
# row of the psync run then, as a disk would have given it
$node->safe_psql('bench', q{
	INSERT INTO iobench.run_disk_seconds (run_id, device, member, second, interval_s, reads,
	        read_merges, read_sectors, read_ms, writes, write_merges, write_sectors, write_ms,
	        in_flight, io_ms, queue_ms)
	SELECT r.run_id, 'sda', false, 0, 1, 10, 0, 160, 5, 0, 0, 0, 0, 0, 5, 5
	  FROM iobench.runs r WHERE r.label = 'psync'
	   AND NOT EXISTS (SELECT FROM iobench.run_disk_seconds)});

# every table holds rows (else the comparison below proves little)
my $before = tables_digest('bench');
is(join(', ', map { (split / /)[0] } grep { / 0 / } split /\n/, $before), '',
	'every table of schema iobench has rows before the dump');
note($before);
my $acls_before = $node->safe_psql('bench', $acls_sql);
dump_restore('bench', 'restored');
is(tables_digest('restored'), $before,
	'every table of schema iobench reads the same after the restore, row for row');
is($node->safe_psql('restored', $acls_sql), $acls_before,
	'the extension\'s objects have the same privileges after the restore');
is( $node->safe_psql('restored', q{
		SELECT string_agg(suite || ' ' || n, ', ' ORDER BY suite)
		  FROM (SELECT suite, count(*) AS n FROM iobench.suite_tests GROUP BY suite) x}),
	'mine 1, oltp 4, sqlio 11', 'the built-in suite tests come once, beside the user\'s suite');
is( $node->safe_psql('restored', q{SELECT state FROM iobench.running_runs}),
	'interrupted', 'the run a crash cut off reads as interrupted after the restore');

# new rows after the restore get ids past the restored ones
my $max_run = $node->safe_psql('restored', 'SELECT max(run_id) FROM iobench.runs');
my $max_live = $node->safe_psql('restored', 'SELECT max(run_id) FROM iobench.live_runs');
my $new_run = $node->safe_psql('restored',
	qq{SELECT run_id FROM iobench.run(engine => 'psync', $tiny, label => 'after restore')});
cmp_ok($new_run, '>', $max_run, 'a run stored after the restore gets a new run_id');
cmp_ok($new_run, '>', $max_live, '... past the interrupted run\'s too');
is( $node->safe_psql('restored', q{
		SELECT nextval('iobench.suites_suite_id_seq') > (SELECT max(suite_id) FROM iobench.suites)
		   AND nextval('iobench.searches_search_id_seq') > (SELECT max(search_id) FROM iobench.searches)
		   AND nextval('iobench.fleets_fleet_id_seq') > (SELECT max(fleet_id) FROM iobench.fleets)}),
	't', 'suites, searches and fleet calls get ids past the restored ones');
is( $node->safe_psql('restored', qq{SELECT count(*) FROM iobench.run(engine => 'postgres', $tiny_server)}),
	'1', 'a run of engine postgres after the restore makes its relation again');

# A DBA's grants, made at each release the database was installed at
$node->safe_psql('postgres', 'CREATE ROLE iob_dba_user LOGIN');
foreach my $from ('0.3', '0.2', '0.1')
{
	(my $db = "grants_$from") =~ s/\./_/g;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, "CREATE EXTENSION iobench VERSION '$from'");
	$node->safe_psql($db, q{
		GRANT EXECUTE ON FUNCTION iobench.run TO iob_dba_user;
		GRANT SELECT ON iobench.runs TO iob_dba_user});
	$node->safe_psql($db, "ALTER EXTENSION iobench UPDATE TO '0.2'") if $from eq '0.1';
	$node->safe_psql($db, 'ALTER EXTENSION iobench UPDATE');
	my $grants = q{
		SELECT (SELECT count(*) FROM pg_proc p, aclexplode(p.proacl) a
		         WHERE p.oid = 'iobench.run'::regproc AND a.grantee = 'iob_dba_user'::regrole)
		       || ' ' ||
		       (SELECT count(*) FROM aclexplode((SELECT relacl FROM pg_class WHERE oid = 'iobench.runs'::regclass)) a
		         WHERE a.grantee = 'iob_dba_user'::regrole)};
	is($node->safe_psql($db, $grants), '1 1', "from $from: the DBA's grants are there at 0.3");
	is( $node->safe_psql($db,
			q{SELECT count(*) FROM pg_init_privs WHERE initprivs::text LIKE '%iob_dba_user%'}),
		'0', "from $from: they are not the extension's initial privileges");
	my $acls = $node->safe_psql($db, $acls_sql);
	dump_restore($db, "${db}_restored");
	is($node->safe_psql("${db}_restored", $grants), '1 1',
		"from $from: the DBA's grants survive the dump and restore");
	is($node->safe_psql("${db}_restored", $acls_sql), $acls,
		"from $from: every object of the extension has the same privileges after the restore");
}
# and the grant works: the role runs a benchmark in the restored database
# (a grant through PUBLIC alone would be refused)
my ($ok, $run_out, $run_err) = $node->psql('grants_0_1_restored',
	qq{SELECT count(*) FROM iobench.run(engine => 'psync', $tiny)},
	extra_params => [ '-U', 'iob_dba_user' ]);
is($run_out, '1', 'the role granted EXECUTE on run() at 0.1 runs a benchmark after the restore')
  or diag($run_err);

done_testing();
