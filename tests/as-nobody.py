"""as-nobody.py CMD [ARG...] -- run CMD as the user nobody (groups dropped) when called as
root, else as the caller: the ordinary user of t-install-user.sh and t-build-config.sh."""
import os
import pwd
import sys

if os.getuid() == 0:
    pw = pwd.getpwnam("nobody")
    os.setgroups([])
    os.setgid(pw.pw_gid)
    os.setuid(pw.pw_uid)
os.execvp(sys.argv[1], sys.argv[1:])
