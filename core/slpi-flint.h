/* slpi-flint.h — the one place that knows the two FLINT generations slpi builds with
 * (docs/install.md#flint):
 *   - FLINT >= 3.0, where Arb is part of FLINT: headers <flint/arb.h>, library -lflint
 *     (Debian 13, Ubuntu 24.04, Fedora, Homebrew, conda-forge);
 *   - FLINT 2.9 with Arb 2.23 beside it: headers <arb.h>, libraries -lflint-arb (Debian's
 *     name; upstream's is -larb) and -lflint (Debian 12, Ubuntu 22.04).
 * The build detects which one is present (mk/flint-probe.sh) and passes
 * -DSLPI_FLINT3 for the first; a program compiled against an installed slpi.h without
 * slpi.pc's flags gets the generation whose headers it finds. Every Arb or FLINT header
 * slpi uses is included here and nowhere else, and every difference between the two APIs
 * that slpi meets is bridged here:
 *   - Arb's version string: `arb_version` in Arb 2.x; FLINT 3 has none (Arb is FLINT),
 *     so slpi_flint_arb_version() is FLINT's version there, with the prefix "flint ".
 * Installed beside slpi.h (make install), which includes it. */
#ifndef SLPI_FLINT_H
#define SLPI_FLINT_H

#if !defined(SLPI_FLINT3) && !defined(SLPI_FLINT2) && defined(__has_include)
#if __has_include(<flint/arb.h>)
#define SLPI_FLINT3
#endif
#endif

#include <flint/flint.h>
#include <flint/fmpz.h>
#include <flint/fmpq.h>
#include <flint/fmpz_vec.h>
#ifdef SLPI_FLINT3
#include <flint/arb.h>
#include <flint/acb.h>
#include <flint/arb_mat.h>
#include <flint/acb_mat.h>
#include <flint/arb_hypgeom.h>
#include <flint/arb_poly.h>
#else
#include <arb.h>
#include <acb.h>
#include <arb_mat.h>
#include <acb_mat.h>
#include <arb_hypgeom.h>
#include <arb_poly.h>
#endif

/* The Arb that the running library carries, as provenance prints it:
 * SLPI_ARB_VERSION_PREFIX slpi_flint_arb_version(): "2.23.0" (Arb 2.x), "flint 3.1.0". */
#ifdef SLPI_FLINT3
#define SLPI_FLINT_GENERATION 3
#define SLPI_ARB_VERSION_PREFIX "flint "
#define slpi_flint_arb_version() ((const char *)flint_version)
#else
#define SLPI_FLINT_GENERATION 2
#define SLPI_ARB_VERSION_PREFIX ""
#define slpi_flint_arb_version() arb_version
#endif

#endif
