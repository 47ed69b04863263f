# config.mk — the one place that names external libraries and Debian packages.
# A move to FLINT 3 (headers flint/arb.h, library -lflint) is an edit here only:
#   ARB_CPPFLAGS = -DSLPI_FLINT3   and   ARB_LIBS = -lflint -lmpfr -lgmp
ARB_CPPFLAGS =
ARB_LIBS     = -lflint-arb -lflint -lmpfr -lgmp
LAPACK_LIBS  = -llapacke -lopenblas
JSON_LIBS    = -ljansson
SYS_LIBS     = -lm -lpthread

# Debian 12 packages the project needs (checked and installed by `make deps`).
DEB_PACKAGES = libflint-arb-dev libflint-dev libmpfr-dev libgmp-dev \
               liblapacke-dev libopenblas-dev librandom123-dev lcov gnuplot-nox \
               libjansson-dev pkg-config clang libopenmpi-dev openmpi-bin chromium \
               python3-numpy python3-cffi python3-pytest python3-clang \
               python3-setuptools python3-pip python3-venv cmake jq time
