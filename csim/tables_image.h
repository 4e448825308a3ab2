/*
 * tables_image — routing-table images on disk, in the form Verilog $readmemh loads.
 *
 * Contract
 *   Layout : DIR/manifest.txt (key=value), and per router DIR/gGGGGbBB/ holding
 *            router.hex (one word: the a*h-bit wired global-port mask) and, for every port P,
 *            pPP.a.hex (depth nz+bz+gz, 64-bit words), pPP.b.hex (depth bz+gz, 64-bit),
 *            pPP.c.hex (depth a, 8*c_ways-bit words). Every file starts with a header comment
 *            naming table, router, port, class, entries and width; the loader requires it.
 *   Loader : validates everything — manifest keys and consistency, every file present, header
 *            matching the expected router/port/table, entry count (truncation), hex syntax and
 *            width, and every entry's encoding (tables_validate_entry). The first problem is
 *            reported as one line "PATH: problem" and the load fails; nothing is half-loaded.
 *            The manifest is exact (issue 24): numbers are decimal digits with nothing after
 *            them and in range, each header key appears once, config= and k= are required and
 *            config= must name dfly='s shape (a named configuration of that shape, or
 *            "dflyP.A.H.G"), a router line is exactly "G,B dir=NAME"; an image path that is not a
 *            regular file is named as such. Encoding is all the loader proves: whether the
 *            routes are right is check_run's question (doar tables --load asks it).
 */
#ifndef DOAR_TABLES_IMAGE_H
#define DOAR_TABLES_IMAGE_H

#include "tables.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TABLES_IMAGE_FORMAT "doar-tables-1"

/* Writes the routers with select[router] != 0 (select NULL: all). Creates DIR if needed. */
int tables_write_images(const table_set *ts, const char *dir, const uint8_t *select, char err[DOAR_ERRLEN]);
/* Loads DIR into a fresh *ts (tables_free it afterwards). */
int tables_load_images(table_set *ts, const char *dir, char err[DOAR_ERRLEN]);

#ifdef __cplusplus
}
#endif

#endif
