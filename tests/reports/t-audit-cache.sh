#!/bin/sh
# t-audit-cache.sh — `slpi audit --cache DIR` (reports/audit.c) at every length of DIR in
# the last 128 bytes below the system's PATH_MAX, where fixed path buffers truncate: the
# run writes its entry (through a temporary file beside it), a second run reads it
# ("(cached)"), and no file the run did not create is replaced or removed. One byte
# longer (DIR/entry.tmp past PATH_MAX - 1): both runs exit 0 and say on stderr that the
# claim's entry does not fit and is not cached, nothing is written. The user's
# files planted in DIR are named by every prefix of the entry's name and of its
# temporary name, the names a truncated temporary path would take. One control claim
# (X3, --controls) keeps each run short.
. "$(dirname "$0")/prelude.sh"
audit() { "$slpi" audit --controls --only X3 --claims "$top/reports/claims.txt" --out o --cache "$1" > "$2" 2>&1; }
audit c0 log || note "audit with a short cache failed: $(tail -2 log)"
e=$(ls c0)
[ "$(ls c0 | wc -l)" = 1 ] && [ -n "$e" ] || { note "no single cache entry: $(ls c0)"; exit 1; }
max=$(getconf PATH_MAX . 2>/dev/null || echo 4096)
# the longest DIR whose DIR/entry.tmp still fits in PATH_MAX - 1 bytes
hi=$((max - 1 - 1 - ${#e} - 4)); lo=$((hi - 127)); n=0
# the user's files: every proper prefix of "entry.tmp" but the entry's own name
printf '%s.tmp\n' "$e" | awk -v e="$e" '{ for (i = 1; i < length($0); i++) if (substr($0, 1, i) != e) print substr($0, 1, i) }' > prefixes
np=$(wc -l < prefixes)
L=$lo
while [ $L -le $((hi + 1)) ]; do
  # DIR of exactly L bytes: components of at most 200 bytes (NAME_MAX 255)
  dir=$(awk -v n=$L 'BEGIN { s = ""; while (n > 0) { k = n > 200 ? 200 : n; if (n - k == 1) k--;
                     c = sprintf("%" k "s", ""); gsub(/ /, "c", c); s = s (s == "" ? "" : "/") c; n -= k + (n > k) }
                     print s }')
  [ ${#dir} -eq $L ] || { note "test: built a cache dir of ${#dir} bytes, not $L"; break; }
  mkdir -p "$dir" || { note "mkdir of a $L-byte path failed"; break; }
  while read -r p; do echo "user file $p" > "$dir/$p"; done < prefixes
  audit "$dir" log1 || note "L=$L: audit failed: $(tail -2 log1)"
  audit "$dir" log2 || note "L=$L: second audit failed: $(tail -2 log2)"
  if [ $L -le $hi ]; then
    grep -q '^X3 .*(cached)' log2 || note "L=$L: the second run did not read the cache entry: $(head -3 log2 | tr '\n' ' ')"
    [ -s "$dir/$e" ] || note "L=$L: no cache entry $e"
  else
    grep -q "claim X3: its cache entry's path ($L bytes of folder) does not fit in $max bytes: not cached" log2 ||
      note "L=$L: the run does not say that the entry does not fit: $(grep -v '^X3' log2 | head -2 | cut -c1-200 | tr '\n' ' ')"
  fi
  while read -r p; do
    [ "$(cat "$dir/$p" 2>/dev/null)" = "user file $p" ] || note "L=$L: the user's file $p was replaced or removed"
  done < prefixes
  extra=$(ls -a "$dir" | grep -v -e '^\.\.\{0,1\}$' | wc -l)
  [ "$extra" -eq $((np + (L <= hi))) ] || note "L=$L: $extra files in the cache dir, not the entry and the $np user files"
  rm -rf "${dir%%/*}"; [ $fail -eq 0 ] || break
  n=$((n + 1)); L=$((L + 1))
done
[ $fail -eq 0 ] && echo "t-audit-cache: $((n - 1)) cache dir lengths ($lo..$hi bytes): entry written and read; $((hi + 1)) bytes: not cached, said; no user file touched"
exit $fail
