/*
 * libFuzzer target: the table-image loader (csim/tables_image.c) on a damaged image set.
 * Input: one selector byte naming the file to replace in a valid `tiny` set (the manifest, a
 * router.hex, or a table A, B or C image), then that file's new contents. The loader must
 * either refuse with a message or load a set; a loaded set also goes through the route check,
 * which must cope with whatever the loader accepted. Nothing may crash, leak or trip UBSan.
 * State: a pristine set and a working copy under $TMPDIR (the Makefile points it into build/fuzz;
 * default /tmp), named by the process id (no globals); the replaced file is put back after each
 * input.
 */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tables.h"
#include "tables_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const targets[] = {"manifest.txt", "g0000b00/router.hex", "g0000b00/p00.a.hex", "g0001b01/p01.b.hex",
                                      "g0002b00/p02.c.hex"};
#define N_TARGETS (sizeof targets / sizeof targets[0])

static int write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) || w != size ? -1 : 0;
}

static int copy_file(const char *from, const char *to) {
    char buf[1 << 16];
    FILE *f = fopen(from, "rb");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return write_file(to, (const uint8_t *)buf, n);
}

/* The pristine set and its working copy, written on the first input of this process. */
static void ensure_sets(const char *pristine, const char *work) {
    struct stat st;
    if (!stat(work, &st)) return;
    table_set ts;
    topo t;
    table_params prm;
    char err[DOAR_ERRLEN];
    tables_default_params(&prm);
    if (topo_named(&t, "tiny", err) || tables_generate(&ts, &t, &prm, err)) abort();
    if (tables_write_images(&ts, pristine, NULL, err) || tables_write_images(&ts, work, NULL, err)) abort();
    tables_free(&ts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 8192) return 0;
    char pristine[1024], work[1024], from[1100], to[1100], err[DOAR_ERRLEN];
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strlen(tmp) > 900) tmp = "/tmp";
    snprintf(pristine, sizeof pristine, "%s/doar_fuzz_img_%d/pristine", tmp, (int)getpid());
    snprintf(work, sizeof work, "%s/doar_fuzz_img_%d/work", tmp, (int)getpid());
    ensure_sets(pristine, work);
    const char *target = targets[data[0] % N_TARGETS];
    snprintf(to, sizeof to, "%s/%s", work, target);
    snprintf(from, sizeof from, "%s/%s", pristine, target);
    if (write_file(to, data + 1, size - 1)) abort();
    table_set ts;
    if (tables_load_images(&ts, work, err) == 0) {
        check_opts o;
        check_default_opts(&o);
        check_result *res = malloc(sizeof *res);
        if (res) {
            check_run(&ts, &o, res, err);
            free(res);
        }
        tables_free(&ts);
    } else if (!err[0] || strchr(err, '\n')) {
        abort(); /* a refusal must say why, on one line */
    }
    if (copy_file(from, to)) abort();
    return 0;
}
