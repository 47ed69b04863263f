# The library's version (GNUmakefile VERSION; tests/python/t-python.sh checks they agree) and
# the shared libraries' names with their ABI major version (docs/api.md#abi).
__version__ = "0.1.0"
SONAME = "libslpi.so.0"
TOOLS_SONAME = "libslpi-tools.so.0"
