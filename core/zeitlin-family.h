/* zeitlin-family.h — the Zeitlin family's data keys of euler-zeitlin (docs/systems.md#zeitlin-family):
 * the mode lists of noise_modes and background_modes, parsed and checked here once for
 * both paths (each path forms its matrices in its own arithmetic).
 *
 * A mode (l, m) names one real basis element Y_alpha of su(N) (docs/systems.md#euler-zeitlin):
 * m = 0 the zonal Y_l0, m > 0 the cosine Y^c_lm (j = 2m - 1), m < 0 the sine Y^s_l|m|
 * (j = 2|m|): alpha = l^2 - 1 + j, as the real spherical harmonics are indexed. */
#ifndef SLPI_CORE_ZEITLIN_FAMILY_H
#define SLPI_CORE_ZEITLIN_FAMILY_H

#include <stdint.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_problem slpi_problem;
#include "core/expr.h"

typedef struct {
    int l, m;
    int alpha;  /* the real-basis index of (l, m) */
    double amp; /* a finite number */
} slpi_zeitlin_mode;

/* alpha of (l, m), |m| <= l. */
int slpi_zeitlin_mode_alpha(int l, int m);
/* Entries of a mode list ("" has none): its commas plus one. */
int slpi_zeitlin_modes_count(const char *text);
/* Parse the list "l:m:amp[,l:m:amp...]" of key for su(N) into out[0..count) (out NULL:
 * check only): l an integer in 1..N-1, m an integer with |m| <= l, amp a finite number,
 * each (l, m) once.
 * Returns the count, or -1 with an SLPI_EINPUT naming the key, the entry and the reason. */
int slpi_zeitlin_modes_parse(slpi_zeitlin_mode *out, const char *key, const char *text, int N, slpi_error *err);
/* The noise fields file of su(N) (key noise_fields): one line per field xi_k, its N^2 - 1
 * coefficients on Y_alpha in alpha order, finite, |value| <= 1e12, separated by blanks
 * or commas; '#' starts a comment, blank lines are skipped. Reads path into *xi
 * (malloc'ed, M x (N^2 - 1) row-major; xi NULL: check only; N <= 0: any count of numbers
 * a line), the count of fields into *M and the FNV-1a 64 of the file's bytes into *digest. SLPI_EINPUT naming the file, the
 * line and the reason (a wrong count of coefficients, a bad number, no field at all). */
int slpi_zeitlin_fields_read(const char *path, int N, double **xi, int *M, uint64_t *digest, slpi_error *err);
/* The key noise_fields set (core/problem-keys.c): its fields counted into n_fields (the
 * problem's M) and its digest into noise_fields_digest (both 0 for ""); SLPI_EINPUT if
 * the file does not read. */
int slpi_zeitlin_fields_count(slpi_problem *p, slpi_error *err);
/* Read p's noise_fields (slpi_problem_finish): n_fields and noise_fields_digest set, or
 * SLPI_EINPUT if it fails to read or its digest is not the one the problem records. */
int slpi_zeitlin_fields_bind(slpi_problem *p, slpi_error *err);
/* The multiplier (key multiplier) parsed with l bound to 1: its syntax, that it reads
 * neither a coordinate nor t (L is one operator for the whole run), and whether it reads l
 * (*uses_l). SLPI_OK or SLPI_EINPUT naming the key. */
int slpi_zeitlin_multiplier_parse(const char *text, int *uses_l, slpi_error *err);
/* The multiplier of p at degree l as a model (its evaluators are each path's model tapes),
 * parsed into *m (zeroed first; the caller frees it with slpi_model_free): algebra so3 (no
 * coordinate read), H = the multiplier, param.l = l when it reads l. SLPI_EINPUT naming
 * the key multiplier if it does not parse (core/zeitlin-multiplier.c). */
int slpi_zeitlin_multiplier_model(slpi_model *m, const slpi_problem *p, int l, slpi_error *err);
/* The multiplier's refusal at degree l, one text for both paths (each evaluates lambda(l)
 * once with its own model evaluator): why = the evaluator's refusal of the multiplier
 * model's H (a constant's domain error, slpi_model_constant_refusal), or NULL when the
 * value itself is refused: 0, not finite, or |lambda(l)| outside binary64's normal range
 * [SLPI_LAMBDA_MIN, SLPI_LAMBDA_MAX] (the certified path: some point of its ball).
 * Returns SLPI_EINPUT. */
#define SLPI_LAMBDA_MIN 0x1p-1022
#define SLPI_LAMBDA_MAX 0x1.fffffffffffffp+1023
int slpi_zeitlin_multiplier_refusal(slpi_error *err, const slpi_problem *p, int l, const char *why);
/* The family's checks of an euler-zeitlin problem (core/problem-validate.c): noise=modes
 * with a list and a list only with noise=modes, both lists parse for its N; noise=fields
 * with a file and a file only with noise=fields; a multiplier parses, reads neither a
 * coordinate nor the time t, and comes without kappa. */
int slpi_zeitlin_family_check(const slpi_problem *p, slpi_error *err);

#endif
