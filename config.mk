# config.mk — the one place that names external libraries and Debian packages.

# FLINT and Arb. The build detects the generation it finds (mk/flint-probe.sh,
# written to $(BUILD)/flint.mk; docs/install.md#flint) and links these libraries:
FLINT3_LIBS  = -lflint -lmpfr -lgmp               # FLINT >= 3.0, Arb inside
FLINT2_LIBS  = -lflint-arb -lflint -lmpfr -lgmp   # FLINT 2.9 + Arb 2.23 (-larb upstream)
# (ARB_CPPFLAGS and ARB_LIBS given on make's command line skip the probe: cross builds.)
LAPACK_LIBS  = -llapacke -lopenblas
JSON_LIBS    = -ljansson
HASH_LIBS    = -lnettle                          # sha256 of what ran (reports/audit-loaded.c)
SYS_LIBS     = -lm -lpthread

# Debian packages (`make deps`, mk/deps.sh; docs/install.md lists other systems').
# The core: what the library, the slpi command and the Python package need, on every
# release; FLINT's packages differ between Debian 12 (FLINT 2.9 + Arb 2.23) and Debian 13
# (FLINT 3, Arb inside; so Ubuntu 24.04).
DEB_CORE     = gcc make libc6-dev pkg-config libmpfr-dev libgmp-dev liblapacke-dev \
               libopenblas-dev librandom123-dev libjansson-dev nettle-dev \
               python3 python3-numpy python3-cffi python3-setuptools python3-pip python3-venv
DEB_FLINT_12 = libflint-arb-dev libflint-dev
DEB_FLINT_13 = libflint-dev
# The tools of the targets that use them; as root each target installs its own, as
# another user a test whose tool is missing says SKIP.
DEB_CHECK    = python3-pytest clang clang-format libomp-dev python3-clang libopenmpi-dev openmpi-bin cmake jq time git patch \
               python3-numba python3-torch python3-xarray python3-netcdf4 python3-h5py python3-matplotlib
DEB_PLOT     = gnuplot-nox
DEB_AUDIT    = chromium gnuplot-nox jq
DEB_COVERAGE = lcov
DEB_MPI      = libopenmpi-dev openmpi-bin
DEB_CLANG    = clang libomp-dev
DEB_POWER    = gnuplot-nox python3-torch python3-numba
