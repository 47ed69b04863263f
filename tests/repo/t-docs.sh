#!/bin/sh
# t-docs.sh — the repository documents itself: every reference to docs/ (in code, help
# texts, READMEs, reports and the docs themselves) names a document that exists and an
# anchor that it defines (an explicit <a id="..."> or a heading's slug), every relative
# Markdown link resolves, and nothing points outside the repository: no path into a
# sibling folder, no local paper file names, no working-note citations
# ("SPEC §", "DESIGN §") and no tracker references ("issue N"); and the golden set's
# counts that oracle/README.md states are those of oracle/golden/. Mutant patches
# (tests/mutants/) carry planted faults and are not scanned.
# Run from the root of the work tree (make check does). Planted faults: tests/mutants/docs-*.
set -u
# The files: git's list at the top of a checkout; elsewhere (a copy of the tree, such as
# the mutation suite's scratch tree) every file below the root except build outputs.
list_files() {
  if command -v git >/dev/null && [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    git ls-files -z
  else
    find . \( -name build -o -name .git \) -prune -o -type f -print0 | sed -z 's|^\./||'
  fi
}
# Documents written in parallel branches (empty once merged): a reference to one of them
# is reported, not failed.
PENDING=${SLPI_DOCS_PENDING-}
list_files | PENDING="$PENDING" perl -0 -e '
use strict; use warnings;
my @all = split /\0/, do { local $/; <STDIN> };
my @files = grep { length && $_ ne "LICENSE" && !m{^tests/mutants/} && -f $_ && -T $_ } @all;
my %pending = map { $_ => 1 } split " ", $ENV{PENDING};
my (%anchors, $fail, $refs, $pend);
sub fail { print STDERR "t-docs: FAIL: @_\n"; $fail++ }
sub slug { my $h = lc shift; $h =~ s/[^\w\- ]//g; $h =~ s/ /-/g; $h }
sub anchors {
    my ($doc) = @_;
    return $anchors{$doc} if $anchors{$doc};
    my %a;
    open my $fh, "<:encoding(UTF-8)", $doc or return undef;
    while (<$fh>) {
        $a{$1} = 1 while /<a id="([^"]+)"/g;
        $a{slug($1)} = 1 if /^#+\s+(.*?)\s*$/;
    }
    return $anchors{$doc} = \%a;
}
sub check_ref {
    my ($where, $doc, $anchor) = @_;
    $refs++;
    if (!-f $doc) {
        if ($pending{$doc}) { $pend++; return; }
        return fail("$where: $doc does not exist");
    }
    return unless defined $anchor && length $anchor;
    my $a = anchors($doc);
    fail("$where: $doc has no anchor #$anchor") unless $a && $a->{$anchor};
}
for my $f (@files) {
    open my $fh, "<", $f or next;
    my $n = 0;
    while (my $line = <$fh>) {
        $n++;
        my $where = "$f:$n";
        fail("$where: path outside the repository: $1") if $line =~ m{((?:\.\./)?shar[e]d/\S*)};
        fail("$where: local paper file name $1 (cite authors, title, arXiv id)") if $line =~ /(\d{3}_[0-9a-f]{16}\.txt)/;
        fail("$where: working-note citation \"$1\" (cite docs/)") if $line =~ /\b((?:SPEC|DESIGN):?\s?§+\s?\d[\d.]*)/;
        fail("$where: tracker reference \"$1\" (say what it meant)") if $line =~ /\b(issues? #?\d+)\b/i;
        while ($line =~ m{(?<![\w/.])docs/([\w-]+\.md)(?:#([\w-]+))?}g) { check_ref($where, "docs/$1", $2) }
        if ($f =~ /\.md$/) {
            (my $dir = $f) =~ s{[^/]*$}{};
            while ($line =~ m{\]\(([^)\s]+)\)}g) {
                my $t = $1;
                next if $t =~ m{^(?:https?|mailto):};
                my ($path, $anchor) = split /#/, $t, 2;
                my $doc = length $path ? $dir . $path : $f;
                1 while $doc =~ s{[^/]+/\.\./}{};
                check_ref($where, $doc, $anchor);
            }
            while ($line =~ m{^\[[^\]]+\]:\s+(\S+)}g) {
                my ($path, $anchor) = split /#/, $1, 2;
                check_ref($where, $dir . $path, $anchor) unless $path =~ /^https?:/;
            }
        }
    }
}
# the golden set as oracle/README.md counts it, "names the N cases ... P pairs: the M of
# docs/systems.md...", against oracle/golden/ (a file a case, system.scheme[.variant].golden;
# the model system is not in that table)
my @golden = grep { m{^oracle/golden/[^/]+\.golden$} } @all;
my @pairs = grep { m{^oracle/golden/[^./]+\.[^./]+\.golden$} } @golden;
my @held = (scalar @golden, scalar @pairs, scalar grep { !m{/model\.} } @pairs);
my $readme = "";
if (open my $fh, "<", "oracle/README.md") { local $/; $readme = <$fh>; }
$readme =~ s/\s+/ /g;
if (my @said = $readme =~ /names the (\d+) cases:[^.]*?\b(\d+) pairs: the (\d+) of docs\/systems\.md/) {
    fail("oracle/README.md: golden cases, pairs, pairs of docs/systems.md: @said stated, oracle/golden/ holds @held")
        if "@said" ne "@held";
} else {
    fail("oracle/README.md: no \"names the N cases: ... P pairs: the M of docs/systems.md\" to check against oracle/golden/");
}
fail("only $refs references to documents found") if ($refs // 0) < 100;
printf "t-docs: %d files, %d document references checked%s\n", scalar @files, $refs // 0,
    $pend ? ", $pend to documents of parallel branches ($ENV{PENDING})" : "";
exit($fail ? 1 : 0);
'
