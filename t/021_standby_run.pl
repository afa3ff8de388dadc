# A benchmark on a hot standby: the run happens (its files are temporary
# files, which a standby allows), its row comes back with run_id NULL, a
# NOTICE says nothing was stored, nothing is, and the row can be kept by
# inserting it on the primary as doc/iobench.md ("Runs on a standby") shows.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'iobench'\n");
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION iobench');
$primary->backup('backup');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'), 't', 'a hot standby');

# the VM's disk may complete nothing for a few hundred ms: a run that did
# no I/O is run again, up to five times (it stores nothing to remove)
my ($rc, $out, $err);
for my $try (1 .. 5)
{
	($rc, $out, $err) = $standby->psql('postgres', q{
		SET iobench.progress = off;
		SELECT run_id IS NULL, status, ops > 0, iops > 0, coalesce(device, '') <> ''
		  FROM iobench.run(duration => '500ms', file_size => '4MB', engine => 'psync')});
	last unless $rc == 0 && $out eq 't|completed|f|f|t';
	note "try $try did no I/O: run again";
}
note $err;
is($rc, 0, 'a run on the standby succeeds');
is($out, 't|completed|t|t|t', 'and returns its row, measured, with run_id NULL');
like($err, qr/NOTICE:  iobench: nothing was stored: the run took place on a hot standby/,
	'a NOTICE says nothing was stored');
like($err, qr/HINT:  To keep the row, save SELECT iobench.export_run_row\(r\)/, 'and how to keep it');

is($standby->safe_psql('postgres', q{
	SELECT (SELECT count(*) FROM iobench.runs) || ' ' ||
	       (SELECT count(*) FROM pg_ls_tmpdir() WHERE name LIKE 'pgsql_tmp%.iobench%') || ' ' ||
	       (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'iobench worker')}),
	'0 0 0', 'nothing stored, no file or worker left on the standby');

# a suite is its stored rows: refused on the standby
($rc, $out, $err) = $standby->psql('postgres',
	q{SELECT count(*) FROM iobench.suite('oltp', ARRAY['pg_default'], duration => '100ms', file_size => '1MB')});
like($err, qr/cannot execute iobench\.suite\(\) during recovery/, 'suite() is refused on a standby');

# keep a standby's run: its row as a document, imported on the primary
# (twice: stored once)
my $json;
for my $try (1 .. 5)
{
	my $row = $standby->safe_psql('postgres', q{
		SET iobench.progress = off;
		SET client_min_messages = warning;
		SELECT r.ops > 0, iobench.export_run_row(r)
		  FROM iobench.run(duration => '300ms', file_size => '4MB', engine => 'psync',
		                   label => 'on the standby') AS r});
	my $did_io;
	($did_io, $json) = split(/\|/, $row, 2);
	last if $did_io eq 't';
	note "try $try did no I/O: run again";
}
is($primary->safe_psql('postgres', qq{
	SELECT imported FROM iobench.import_runs(\$json\$$json\$json\$::jsonb, 'standby')
	UNION ALL
	SELECT imported FROM iobench.import_runs(\$json\$$json\$json\$::jsonb, 'standby')}),
	"t\nf", 'imported once, the second time recognised');
is($primary->safe_psql('postgres',
		q{SELECT label || ' ' || status || ' ' || (ops > 0) FROM iobench.runs}),
	'on the standby completed true', 'the standby run is kept on the primary');

# a fleet call that includes the standby: the standby's run comes back as
# the row run() returns there (it cannot store it) and is stored here under
# the standby's name; no server is dropped
$primary->safe_psql('postgres', 'CREATE EXTENSION dblink; CREATE EXTENSION postgres_fdw');
foreach my $server (['self', $primary], ['replica', $standby])
{
	my ($name, $node) = @$server;
	my ($host, $port) = ($node->host, $node->port);
	$primary->safe_psql('postgres', qq{
CREATE SERVER $name FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$host', port '$port', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER $name;
});
}
my $fleet_rows = $primary->safe_psql('postgres', q{
	SET client_min_messages = warning;
	SELECT server || ' ' || status || ' ' || (run_id IS NOT NULL) || ' ' || (remote_run_id IS NULL)
	       || ' ' || coalesce(error, '-')
	  FROM iobench.fleet_run(ARRAY['self', 'replica'],
	                         '{"duration": "300ms", "file_size": "4MB", "engine": "psync"}',
	                         start_delay => '2s', label => 'fleet with a standby')
	 ORDER BY server});
is($fleet_rows, "replica completed true true -\nself completed true false -",
	'a fleet call with a standby returns a row for it, its run gathered');
is($primary->safe_psql('postgres', q{
	SELECT f.status || ' ' || r.server || ' ' || (r.origin_run_id IS NULL) || ' ' || (r.imported_at IS NOT NULL)
	  FROM iobench.fleets f JOIN iobench.fleet_runs fr USING (fleet_id) JOIN iobench.runs r USING (run_id)
	 WHERE fr.server = 'replica'}),
	'completed replica true true', 'the standby\'s run is stored here under its name');
# a server that cannot be reached says why (libpq's message)
$primary->safe_psql('postgres', q{
CREATE SERVER nowhere FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '/nonexistent', port '1', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER nowhere;
});
like($primary->safe_psql('postgres', q{
	SET client_min_messages = warning;
	SELECT error FROM iobench.fleet_run(ARRAY['nowhere'], '{"duration": "300ms", "file_size": "4MB"}')}),
	qr/^could not establish connection: .*nonexistent/s, 'an unreachable server: the error says why');

$standby->stop;
$primary->stop;
done_testing();
