/* slpi/limits.h — the text limits of a problem's keys: paths, expressions, lists, a model's
 * noises and parameters (part of slpi.h). */
#ifndef SLPI_PUBLIC_LIMITS_H
#define SLPI_PUBLIC_LIMITS_H

#define SLPI_MAX_X0 64 /* explicit initial conditions longer than this use x0_file */
#define SLPI_PATH_MAX 4096
/* characters of a Zeitlin mode list (noise_modes, background_modes): text below this */
#define SLPI_EZ_MODES_TEXT 4096
/* the text of the key noise_tau (docs/noise.md#ou) */
#define SLPI_NOISE_TAU_TEXT 1024
/* Models (docs/models.md, core/expr.h): characters of one expression (text below this),
 * noise Hamiltonians, parameters, the length of a parameter's name and of its value text. */
#define SLPI_EXPR_MAX_TEXT 4096
/* Hamiltonians of a model: H (k = 0) and at most this many noise ones, noise_H1.. */
#define SLPI_MODEL_MAX_NOISE 16
#define SLPI_MODEL_MAX_PARAMS 32
#define SLPI_MODEL_NAME_MAX 32
#define SLPI_MODEL_PARAM_TEXT                                                                                          \
    800 /* room for any double's exact decimal expansion: at most 767 significant digits, sign, point, exponent (5e-324: 757 characters) */

#endif
