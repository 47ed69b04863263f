#!/bin/sh
# tests/build-cflags.sh SLPI — the CFLAGS the slpi command SLPI was built with: its
# `--version` line cflags= without the flags every build adds (-std=c11 -ffp-contract=off).
# Tests that build a copy of the tree from this build's objects (t-install-user,
# t-pip-install) build it with these, so that a coverage build's objects link with
# --coverage as they were made. Exit 1 with a message when SLPI prints no cflags= line.
cflags=$("${1:?usage: build-cflags.sh SLPI}" --version | sed -n 's/^ *cflags=\(.*\) -std=c11 -ffp-contract=off$/\1/p')
[ -n "$cflags" ] || { echo "build-cflags: no cflags= in $1 --version" >&2; exit 1; }
printf '%s\n' "$cflags"
