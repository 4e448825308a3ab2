/* Minimal test support: a context that counts failed expectations (no global state). */
#ifndef DOAR_TESTUTIL_H
#define DOAR_TESTUTIL_H

#include <stdio.h>

typedef struct {
    int checks, failures;
    const char *name;
} test_ctx;

#define EXPECT(ctx, cond, ...)                                                                                         \
    do {                                                                                                               \
        (ctx)->checks++;                                                                                               \
        if (!(cond)) {                                                                                                 \
            (ctx)->failures++;                                                                                         \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond);                                         \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
        }                                                                                                              \
    } while (0)

static inline int test_finish(const test_ctx *ctx) {
    printf("%s: %d checks, %d failures\n", ctx->name, ctx->checks, ctx->failures);
    return ctx->failures ? 1 : 0;
}

#endif
