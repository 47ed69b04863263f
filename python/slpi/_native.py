"""The cffi (ABI mode) declarations of the handle API and the search for the two libraries:
libslpi (slpi.h: problems, steppers, noise, presets), opened at import, and libslpi-tools
(slpi-tools.h: verify, golden, converge), opened on the first call that needs it
(docs/architecture.md#libraries). libslpi-tools links libslpi (one copy of the integrators
and of the error record in the process), so the message of a failed tools call is
slpi_api_last_error's, asked through either library."""
import os

from cffi import FFI

from slpi._version import __version__, SONAME, TOOLS_SONAME

ffi = FFI()
ffi.cdef("""
typedef struct slpi_problem slpi_problem;
typedef struct slpi_stepper slpi_stepper;
typedef struct slpi_ensemble slpi_ensemble;
const char *slpi_api_last_error(void);
void slpi_interrupt_request(void);
void slpi_interrupt_clear(void);
int slpi_interrupt_pending(void);
const char *slpi_api_version(void);
slpi_problem *slpi_problem_new(const char *preset);
void slpi_problem_free(slpi_problem *p);
int slpi_problem_set_key(slpi_problem *p, const char *key, const char *value);
int slpi_problem_shape(const slpi_problem *p, int *dim, int *noises, long *steps, long *rows, double *h, int *every);
int slpi_problem_state_label(const slpi_problem *p, int i, char *buf, size_t n);
int slpi_problem_increments(const slpi_problem *p, long first, long count, double *out, long *clipped);
int slpi_stepper_new(slpi_stepper **out, const slpi_problem *p, int ref, const double *x0, int nx0);
void slpi_stepper_free(slpi_stepper *s);
int slpi_stepper_restart(slpi_stepper *s, uint64_t path);
void slpi_stepper_shape(const slpi_stepper *s, int *dim, int *noises, int *ndiag, long *steps, double *h);
long slpi_stepper_row_steps(const slpi_stepper *s, long every, long *steps);
const char *slpi_stepper_diag_name(const slpi_stepper *s, int i);
long slpi_stepper_position(const slpi_stepper *s);
void slpi_stepper_counts(const slpi_stepper *s, long counts[7]);
void slpi_stepper_row(slpi_stepper *s, double *x, double *xrad, double *diag, double *drad);
int slpi_stepper_advance(slpi_stepper *s, long count, const double *dW, long every, double *x, double *xrad,
                         double *diag, double *drad, int *iters, double *resid, long *rows);
int slpi_stepper_restart_from(slpi_stepper *s, uint64_t path, const double *x0, int nx0);
long slpi_stepper_save(slpi_stepper *s, char *buf, size_t n);
int slpi_stepper_load(slpi_stepper *s, const char *text);
int slpi_ensemble_new(slpi_ensemble **out, const slpi_problem *p, int ref, uint64_t first_path, long every,
                      int threads);
void slpi_ensemble_free(slpi_ensemble *e);
void slpi_ensemble_shape(const slpi_ensemble *e, int *dim, int *noises, int *ndiag, long *steps, long *rows);
void slpi_ensemble_row_steps(const slpi_ensemble *e, long *steps);
const char *slpi_ensemble_diag_name(const slpi_ensemble *e, int i);
long slpi_ensemble_paths(const slpi_ensemble *e);
const char *slpi_ensemble_route(const slpi_ensemble *e);
void slpi_ensemble_counts(const slpi_ensemble *e, long *clipped, long *capped);
int slpi_ensemble_run(slpi_ensemble *e, long count, const double *x0, const double *dW, double *x, double *xrad,
                      double *diag, double *drad);
long slpi_ensemble_stats(slpi_ensemble *e, double *mean, double *var, double *min, double *max, double *rad);
long slpi_ensemble_export(const slpi_ensemble *e, double *buf);
int slpi_ensemble_import(slpi_ensemble *e, const double *buf, long n);
typedef struct slpi_container slpi_container;
long slpi_container_format(char *buf, size_t n, const char *format, int version, int count, const char *const *names,
                           const char *const *texts);
int slpi_container_parse(slpi_container **out, const char *name, const char *text, size_t len, const char *format,
                         int version);
int slpi_container_count(const slpi_container *c);
int slpi_container_section(const slpi_container *c, int i, const char **name, const char **text, size_t *len);
void slpi_container_free(slpi_container *c);
void slpi_stepper_set_observer(slpi_stepper *s, int (*fn)(void *, long, double, const double *, int), void *ctx);
typedef struct { int code; char msg[512]; } slpi_error;
int slpi_noise_increments(uint64_t seed, uint64_t path, uint32_t component, double h,
                          int refine, uint64_t first, size_t count, double *out, slpi_error *err);
typedef struct { const char *name; const char *settings; const char *what; } slpi_preset;
const slpi_preset *slpi_presets(void);
int slpi_problem_key(int i, const char **name, const char **system, const char **help);
int slpi_problem_set_callback(slpi_problem *p, int k, int (*grad)(double *, const double *, int, void *),
                              int (*hvp)(double *, const double *, const double *, int, void *),
                              int (*energy)(double *, const double *, int, void *), void *user_data,
                              slpi_error *err);
long slpi_problem_text(const slpi_problem *p, char *buf, size_t n);
double slpi_problem_noise_threshold(const slpi_problem *p);
int slpi_problem_load(slpi_problem *p, const char *path, slpi_error *err);
int slpi_api_verify_json(const char *path, const char *noise_file, long max_steps, const char *json);
int slpi_api_verify_argv(int argc, char **argv, const char *json);
int slpi_api_noise_write(const char *file, const double *dw, long steps, int M, double h, uint64_t seed,
                         uint64_t path, int refine, double ell, uint64_t first);
int slpi_api_golden(const char *dir, int *verdict, char *report, size_t n);
int slpi_api_converge(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                      uint64_t path0, int boot, const char *indep, double *h, double *e, double *se,
                      double fit[3]);
int slpi_api_converge_json(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                           uint64_t path0, int batches, int boot, const char *indep, const char *phi, int exact,
                           const char *fit, int drop_coarse, const char *checkpoint, int checkpoint_every,
                           const char *resume, int threads, const char *json);
int slpi_api_converge_json_fn(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                              uint64_t path0, int batches, int boot, const char *indep,
                              int (*phi_fn)(double *value, const double *x, int dim, void *user_data),
                              void *phi_data, const char *fit, int drop_coarse, int threads, const char *json);
int slpi_api_mlmc_json(const slpi_problem *p, const char *phi, double rmse, int l0, int lmax, long n0, double alpha,
                       int plain, const char *checkpoint, const char *resume, int threads, const char *json);
int slpi_api_mlmc_json_fn(const slpi_problem *p, int (*phi_fn)(double *value, const double *x, int dim, void *user_data),
                          void *phi_data, double rmse, int l0, int lmax, long n0, double alpha, int plain, int threads,
                          const char *json);
int slpi_api_mlmc_test_json(const slpi_problem *p, const char *phi, int l0, int L, long paths, const double *eps,
                            int neps, const char *checkpoint, const char *resume, int threads, const char *json);
int slpi_api_mlmc_test_json_fn(const slpi_problem *p,
                               int (*phi_fn)(double *value, const double *x, int dim, void *user_data),
                               void *phi_data, int l0, int L, long paths, const double *eps, int neps, int threads,
                               const char *json);
typedef struct _IO_FILE FILE;
FILE *fopen(const char *path, const char *mode);
int fclose(FILE *f);
void slpi_provenance_write(FILE *f, const char *prefix);
typedef enum { SLPI_PROGRESS_AUTO, SLPI_PROGRESS_ON, SLPI_PROGRESS_OFF } slpi_progress_mode;
void slpi_progress_set_mode(slpi_progress_mode mode);
""")


def candidates(name="libslpi.so", soname=SONAME, env="SLPI_LIB"):
    """Where a library is looked for, in order: $SLPI_LIB (libslpi-tools: $SLPI_TOOLS_LIB,
    then beside $SLPI_LIB); the build folder of the source tree this package sits in
    (python/slpi -> build/); the folder recorded when the package was installed
    (slpi/_libdir.py, written by setup.py); the loader's path (its SONAME)."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = [os.environ.get(env)]
    if env != "SLPI_LIB" and os.environ.get("SLPI_LIB"):
        out.append(os.path.join(os.path.dirname(os.environ["SLPI_LIB"]), name))
    out.append(os.path.join(here, "..", "..", "build", name))
    try:
        from slpi._libdir import LIBDIR
        out.append(os.path.join(LIBDIR, soname))
    except ImportError:
        pass
    out.append(soname)
    return [c for c in out if c]


def load(name="libslpi.so", soname=SONAME, env="SLPI_LIB"):
    tried = []
    for cand in candidates(name, soname, env):
        if os.sep in cand and not os.path.exists(cand):
            tried.append(cand + " (absent)")
            continue
        try:
            # never unmapped: the su(N) kernels' helper threads (fast/team.c) outlive every
            # call, and an unmapped library under them crashes the interpreter's exit
            lib = ffi.dlopen(cand, ffi.RTLD_NOW | ffi.RTLD_NODELETE)
        except OSError as e:
            tried.append("%s (%s)" % (cand, e))
            continue
        have = ffi.string(lib.slpi_api_version()).decode()
        if have != __version__:
            tried.append("%s (version %s, this package is %s)" % (cand, have, __version__))
            continue
        return lib
    raise ImportError("slpi: no %s %s found; tried: %s. Build it with `make`, install it with "
                      "`make install`, or set %s to its path" % (name[:-3], __version__, "; ".join(tried), env))


lib = load()
libc = ffi.dlopen(None)   # fopen/fclose, for slpi_provenance_write (slpi.store.provenance)
_tools = None


def tools():
    """libslpi-tools, opened on first use (verify, golden, converge)."""
    global _tools
    if _tools is None:
        _tools = load("libslpi-tools.so", TOOLS_SONAME, "SLPI_TOOLS_LIB")
    return _tools
