/* propsutil.h — what the property engine's tests share (tests/props/t-props.c,
 * tests/props/t-props-cases.c): the model the cases of system `model` use (as
 * `slpi props --config` sets one; docs/models.md). */
#ifndef SLPI_TESTS_PROPSUTIL_H
#define SLPI_TESTS_PROPSUTIL_H

#include "core/problem-struct.h"
#include "props/props.h"
#include "testutil.h"

static inline void props_test_model(void)
{
    slpi_problem m;
    slpi_error err = { 0, "" };
    slpi_problem_init(&m, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    TEST_CHECK(slpi_problem_set(&m, "algebra", "so3", &err) == 0 &&
               slpi_problem_set(&m, "H", "x1^2/2 + x2^2 + x3^2/3 + 0.1*x1^4", &err) == 0 &&
               slpi_problem_set(&m, "noise_H1", "0.2*x1^2", &err) == 0 &&
               slpi_problem_set(&m, "noise_H2", "0.1*x3", &err) == 0);
    slpi_props_set_model(&m);
}

#endif
