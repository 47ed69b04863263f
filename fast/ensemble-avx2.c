/* ensemble-avx2.c — the lock-step lanes of fast/ensemble.c compiled for AVX2
 * (fast/ensemble-lanes.h under `#pragma GCC target`), taken at run time where the
 * processor has it (slpi_fast_ensemble_isa_available). -ffp-contract=off holds here as
 * everywhere: no fused multiply-add (tests/toolchain/t-kernels-nofma.sh checks the object). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("avx2")
#define ENS_W 4
#define ENS_ISOMP_FN slpi_fast_ens_isomp_avx2
#define ENS_SVI_FN slpi_fast_ens_svi_avx2
#include "fast/ensemble-lanes.h"
#define ENS_MODEL_FN slpi_fast_ens_model_avx2
#include "fast/ensemble-model.h"
#else
typedef int slpi_fast_ensemble_avx2_unused; /* not an x86-64 GCC build: no such kernel */
#endif
