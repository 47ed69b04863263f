#!/bin/sh
# t-contributing.sh — CONTRIBUTING.md is true to the tree: every path it names in
# backquotes exists (a <placeholder> stands for any name), every test unit it names
# (`t-<unit>`) is a test of tests/*/ (build/ paths are outputs, not checked), every C name (`slpi_...`, `SLPI_...`) is declared
# somewhere in the sources, and where it says "`NAME` in `FILE`" the file declares NAME.
# A file moved or a name renamed without the guide following fails here, one line each.
# Run from anywhere; planted faults: tests/mutants/contributing-*.
cd "$(dirname "$0")/../.." || exit 2
doc=${1:-CONTRIBUTING.md}
[ -f "$doc" ] || { echo "t-contributing: FAIL: $doc does not exist"; exit 1; }
perl -e '
use strict; use warnings;
my ($doc) = @ARGV;
open my $fh, "<", $doc or die;
my $text = do { local $/; <$fh> };
(my $flat = $text) =~ s/\s+/ /g;
my ($fail, $n) = (0, 0);
sub bad { print "t-contributing: FAIL: $_[0]\n"; $fail++ }
# A placeholder <x> matches any name; [.sh] an optional part.
sub glob_of { my $p = shift; $p =~ s/<[^>]+>/*/g; $p =~ s/\[[^\]]*\]//g; $p }
sub re_of { my $p = quotemeta shift; $p =~ s/\\<[^>]+\\>/\\w+/g; $p }
my @sources = grep { -f } map { glob "$_/*.[ch]" } qw(include/slpi core fast ref oracle props studies reports cli api tests);
push @sources, glob "*.h";
my $all = join "", map { local $/; open my $s, "<", $_ or die; <$s> } @sources;
my %seen;
while ($flat =~ /`([^`]+)`/g) {
    my $t = $1;
    next if $seen{$t}++;
    if ($t =~ m{^[\w.<>\[\]-]+(?:/[\w.<>\[\]-]*)+$} && $t !~ /\.\.\./ && $t !~ m{^build/}) {
        $n++;
        my @hits = glob glob_of($t);
        bad("$doc names `$t`, which is not in the tree") unless grep { -e } @hits;
    } elsif ($t =~ /^t-([\w-]+)$/) {
        $n++;
        my @hits = glob "tests/*/t-$1.c tests/*/t-$1.sh";
        bad("$doc names the test `$t`, which no tests/*/ folder holds") unless grep { -e } @hits;
    } elsif ($t =~ /^(?:slpi|SLPI)_[\w<>]+$/ && $t !~ /^slpi_<module>/) {
        $n++;
        my $re = re_of($t);
        bad("$doc names `$t`, which no source declares") unless $all =~ /\b$re\b/;
    }
}
while ($flat =~ /`((?:slpi|SLPI)_[\w<>]+)` in `([^`]+)`/g) {
    my ($name, $file) = ($1, $2);
    $n++;
    my @hits = grep { -f } glob glob_of($file);
    my $re = re_of($name);
    my $decl = qr/^(?:typedef\b[^;]*\b$re\s*;|\s*(?:typedef\s+)?(?:struct|enum|union)\s+$re\s*\{|\s*\}\s*$re\s*;|\s*$re\s*(?:,|=|\z)|[A-Za-z_][\w \t*]*\b$re\s*\(|\s*#\s*define\s+$re\b)/m;
    my $found = grep { local $/; open my $s, "<", $_ or die; <$s> =~ $decl } @hits;
    bad("$doc says `$name` is in `$file`, which does not declare it") unless $found;
}
print "t-contributing: $n names and paths in $doc, all in the tree\n" unless $fail;
exit($fail ? 1 : 0);
' "$doc"
