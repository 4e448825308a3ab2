#define _POSIX_C_SOURCE 200809L
#include "tables_image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_parse.h"

static const char *class_name(port_class pc) {
    return pc == PORT_TERMINAL ? "internal" : pc == PORT_LOCAL ? "local" : "global";
}
static char table_letter(table_id tab) { return tab == TABLE_A ? 'A' : tab == TABLE_B ? 'B' : 'C'; }
static char table_lower(table_id tab) { return tab == TABLE_A ? 'a' : tab == TABLE_B ? 'b' : 'c'; }

static int table_depth(const table_set *ts, table_id tab) {
    return tab == TABLE_A ? ts->depth_a : tab == TABLE_B ? ts->depth_b : ts->depth_c;
}
static int table_bits(const table_set *ts, table_id tab) { return tab == TABLE_C ? 8 * ts->prm.c_ways : 64; }

static void router_dir(const table_set *ts, int router, char *buf, size_t len) {
    snprintf(buf, len, "g%04db%02d", topo_gid(&ts->t, router), topo_bid(&ts->t, router));
}

static void header_line(const table_set *ts, int router, int port, table_id tab, char *buf, size_t len) {
    snprintf(buf, len, "// doar table=%c router=%d,%d port=%d class=%s entries=%d bits=%d", table_letter(tab),
             topo_gid(&ts->t, router), topo_bid(&ts->t, router), port, class_name(topo_port_class(&ts->t, port)),
             table_depth(ts, tab), table_bits(ts, tab));
}

static void router_header(const table_set *ts, int router, char *buf, size_t len) {
    snprintf(buf, len, "// doar router=%d,%d wired_bits=%d", topo_gid(&ts->t, router), topo_bid(&ts->t, router),
             ts->t.ah);
}

static int mkdir_p(const char *path) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
    return 0;
}

/* Hex digits of the wired mask, most significant first. */
static void wired_hex(const table_set *ts, const gport_bitmap *w, char *buf) {
    int digits = (ts->t.ah + 3) / 4;
    for (int d = 0; d < digits; d++) {
        int nib = 0, base = (digits - 1 - d) * 4;
        for (int b = 0; b < 4; b++)
            if (base + b < ts->t.ah && gbm_test(w, base + b)) nib |= 1 << b;
        buf[d] = "0123456789abcdef"[nib];
    }
    buf[digits] = '\0';
}

static int write_table(const table_set *ts, const char *path, int router, int port, table_id tab, const uint64_t *rows,
                       char err[DOAR_ERRLEN]) {
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, DOAR_ERRLEN, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    char hdr[160];
    header_line(ts, router, port, tab, hdr, sizeof hdr);
    fprintf(f, "%s\n", hdr);
    int digits = table_bits(ts, tab) / 4;
    for (int row = 0; row < table_depth(ts, tab); row++) {
        if (tab != TABLE_C) {
            int index;
            table_zone z = tables_zone_of_row(ts, tab, row, &index);
            if (index == 0) fprintf(f, "// zone %c\n", z == ZONE_N ? 'N' : z == ZONE_B ? 'B' : 'G');
        }
        fprintf(f, "%0*llx\n", digits, (unsigned long long)rows[row]);
    }
    if (fclose(f)) {
        snprintf(err, DOAR_ERRLEN, "%s: write failed", path);
        return -1;
    }
    return 0;
}

int tables_write_images(const table_set *ts, const char *dir, const uint8_t *select, char err[DOAR_ERRLEN]) {
    const topo *t = &ts->t;
    if (mkdir_p(dir)) {
        snprintf(err, DOAR_ERRLEN, "%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    FILE *m = fopen(path, "w");
    if (!m) {
        snprintf(err, DOAR_ERRLEN, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    int nr = 0;
    for (int r = 0; r < t->n_routers; r++)
        if ((!select || select[r]) && ts->present[r]) nr++;
    fprintf(m, "# doar routing-table images; layout in docs/architecture.md (\"Table images\")\n");
    fprintf(m, "format=%s\nconfig=%s\ndfly=%d,%d,%d,%d\nk=%d\nzones=%d,%d,%d\nnm_slots=%d\nc_ways=%d\nrouters=%d\n",
            TABLES_IMAGE_FORMAT, t->name, t->p, t->a, t->h, t->g, t->k, ts->nz, ts->bz, ts->gz, ts->prm.nm_slots,
            ts->prm.c_ways, nr);
    for (int r = 0; r < t->n_routers; r++)
        if ((!select || select[r]) && ts->present[r]) {
            char rd[32];
            router_dir(ts, r, rd, sizeof rd);
            fprintf(m, "router=%d,%d dir=%s\n", topo_gid(t, r), topo_bid(t, r), rd);
        }
    if (fclose(m)) {
        snprintf(err, DOAR_ERRLEN, "%s: write failed", path);
        return -1;
    }

    for (int r = 0; r < t->n_routers; r++) {
        if ((select && !select[r]) || !ts->present[r]) continue;
        char rd[32];
        router_dir(ts, r, rd, sizeof rd);
        snprintf(path, sizeof path, "%s/%s", dir, rd);
        if (mkdir_p(path)) {
            snprintf(err, DOAR_ERRLEN, "%s: cannot create directory: %s", path, strerror(errno));
            return -1;
        }
        snprintf(path, sizeof path, "%s/%s/router.hex", dir, rd);
        FILE *f = fopen(path, "w");
        if (!f) {
            snprintf(err, DOAR_ERRLEN, "%s: cannot create: %s", path, strerror(errno));
            return -1;
        }
        char hdr[160], hex[DOAR_MAX_GROUP_PORTS / 4 + 1];
        router_header(ts, r, hdr, sizeof hdr);
        wired_hex(ts, &ts->rcfg[r].wired, hex);
        fprintf(f, "%s\n%s\n", hdr, hex);
        if (fclose(f)) {
            snprintf(err, DOAR_ERRLEN, "%s: write failed", path);
            return -1;
        }
        for (int port = 0; port < t->k; port++) {
            const port_tables *pt = tables_port(ts, r, port);
            const uint64_t *rows[3] = {pt->a, pt->b, pt->c};
            for (int tab = 0; tab < 3; tab++) {
                snprintf(path, sizeof path, "%s/%s/p%02d.%c.hex", dir, rd, port, table_lower((table_id)tab));
                if (write_table(ts, path, r, port, (table_id)tab, rows[tab], err)) return -1;
            }
        }
    }
    return 0;
}

/* ---- loading ---- */

/* Reads the next line without its newline into buf; returns 0 at EOF, -1 if too long. */
static int read_line(FILE *f, char *buf, size_t len, int *lineno) {
    if (!fgets(buf, (int)len, f)) return 0;
    (*lineno)++;
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '\n')
        buf[--n] = '\0';
    else if (!feof(f))
        return -1;
    if (n && buf[n - 1] == '\r') buf[--n] = '\0';
    return 1;
}

static int parse_hex(const char *s, int digits, uint64_t *out) {
    uint64_t v = 0;
    int n = 0;
    for (; s[n]; n++) {
        char ch = s[n];
        int d = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (d < 0) return -1;
        v = (v << 4) | (uint64_t)d;
    }
    if (n != digits) return -2;
    *out = v;
    return 0;
}

/* Opens an image for reading; a directory or device where a .hex file belongs is named as what
 * it is, not reported as a header mismatch. */
static FILE *open_image(const char *path, char err[DOAR_ERRLEN]) {
    struct stat st;
    if (stat(path, &st)) {
        snprintf(err, DOAR_ERRLEN, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, DOAR_ERRLEN, "%s: not a regular file (%s)", path,
                 S_ISDIR(st.st_mode) ? "a directory" : "a device or pipe");
        return NULL;
    }
    FILE *f = fopen(path, "r");
    if (!f) snprintf(err, DOAR_ERRLEN, "%s: cannot open: %s", path, strerror(errno));
    return f;
}

static int load_table(table_set *ts, const char *path, int router, int port, table_id tab, uint64_t *rows,
                      char err[DOAR_ERRLEN]) {
    FILE *f = open_image(path, err);
    if (!f) return -1;
    char line[256], want[160];
    int lineno = 0, depth = table_depth(ts, tab), digits = table_bits(ts, tab) / 4, n = 0, rc;
    header_line(ts, router, port, tab, want, sizeof want);
    rc = read_line(f, line, sizeof line, &lineno);
    if (rc <= 0 || strcmp(line, want) != 0) {
        snprintf(err, DOAR_ERRLEN, "%s: header mismatch (expected \"%s\")", path, want + 3);
        fclose(f);
        return -1;
    }
    while ((rc = read_line(f, line, sizeof line, &lineno)) != 0) {
        if (rc < 0) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: line too long", path, lineno);
            goto fail;
        }
        if (line[0] == '\0' || (line[0] == '/' && line[1] == '/')) continue;
        if (n >= depth) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: more than %d entries", path, lineno, depth);
            goto fail;
        }
        uint64_t v;
        int pr = parse_hex(line, digits, &v);
        if (pr == -1) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: not a hex word: \"%.40s\"", path, lineno, line);
            goto fail;
        }
        if (pr == -2) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: expected %d hex digits, found %zu", path, lineno, digits, strlen(line));
            goto fail;
        }
        char why[DOAR_ERRLEN];
        if (tables_validate_entry(ts, router, port, tab, n, v, why)) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: %s", path, lineno, why);
            goto fail;
        }
        rows[n++] = v;
    }
    if (n < depth) {
        snprintf(err, DOAR_ERRLEN, "%s: truncated: %d of %d entries", path, n, depth);
        goto fail;
    }
    fclose(f);
    return 0;
fail:
    fclose(f);
    return -1;
}

static int load_router_cfg(table_set *ts, const char *path, int router, char err[DOAR_ERRLEN]) {
    FILE *f = open_image(path, err);
    if (!f) return -1;
    char line[DOAR_MAX_GROUP_PORTS / 4 + 64], want[160], expect_hex[DOAR_MAX_GROUP_PORTS / 4 + 1];
    int lineno = 0, rc;
    router_header(ts, router, want, sizeof want);
    rc = read_line(f, line, sizeof line, &lineno);
    if (rc <= 0 || strcmp(line, want) != 0) {
        snprintf(err, DOAR_ERRLEN, "%s: header mismatch (expected \"%s\")", path, want + 3);
        fclose(f);
        return -1;
    }
    rc = read_line(f, line, sizeof line, &lineno);
    fclose(f);
    if (rc <= 0) {
        snprintf(err, DOAR_ERRLEN, "%s: truncated: no wired-port mask", path);
        return -1;
    }
    gport_bitmap w;
    topo_wired(&ts->t, topo_gid(&ts->t, router), &w);
    wired_hex(ts, &w, expect_hex);
    for (char *p = line; *p; p++)
        if (*p >= 'A' && *p <= 'F') *p = (char)(*p - 'A' + 'a');
    if (strlen(line) != strlen(expect_hex)) {
        snprintf(err, DOAR_ERRLEN, "%s:%d: expected %zu hex digits, found %zu", path, lineno, strlen(expect_hex),
                 strlen(line));
        return -1;
    }
    if (strcmp(line, expect_hex) != 0) {
        snprintf(err, DOAR_ERRLEN, "%s:%d: wired-port mask %s does not match dfly(%d,%d,%d,%d) (%s)", path, lineno,
                 line, ts->t.p, ts->t.a, ts->t.h, ts->t.g, expect_hex);
        return -1;
    }
    ts->rcfg[router].wired = w;
    return 0;
}

static int same_tables(const table_set *ts, const port_tables *x, const port_tables *y) {
    return !memcmp(x->a, y->a, (size_t)ts->depth_a * 8) && !memcmp(x->b, y->b, (size_t)ts->depth_b * 8) &&
           !memcmp(x->c, y->c, (size_t)ts->depth_c * 8);
}

/* A manifest number: decimal digits only, nothing after them, in [lo, hi] (issue 24: "6abc" and
 * twenty nines were once read as 6 and -1). */
static int manifest_int(const char *val, long lo, long hi, int *out) {
    long v;
    if (cli_parse_long(val, lo, hi, &v)) return -1;
    *out = (int)v;
    return 0;
}

/* "a,b,c" of manifest_int's. */
static int manifest_ints(const char *val, int n, long lo, long hi, int *out) {
    char buf[64];
    if (strlen(val) >= sizeof buf) return -1;
    snprintf(buf, sizeof buf, "%s", val);
    char *p = buf;
    for (int i = 0; i < n; i++) {
        char *comma = strchr(p, ',');
        if ((i < n - 1) != (comma != NULL)) return -1;
        if (comma) *comma = '\0';
        if (manifest_int(p, lo, hi, &out[i])) return -1;
        p = comma ? comma + 1 : p;
    }
    return 0;
}

/* config= names the shape: a named configuration with exactly dfly='s shape, or the name a
 * --dfly set gets ("dflyP.A.H.G"). A label is not free text: `tiny` images marked `small` fail. */
static int config_matches(const char *config, const topo *t, char err[DOAR_ERRLEN]) {
    topo named;
    char why[DOAR_ERRLEN], own[32];
    snprintf(own, sizeof own, "dfly%d.%d.%d.%d", t->p, t->a, t->h, t->g);
    if (!strcmp(config, own)) return 0;
    if (topo_named(&named, config, why)) {
        snprintf(err, DOAR_ERRLEN, "config=%.40s: not a named configuration nor %s", config, own);
        return -1;
    }
    if (named.p != t->p || named.a != t->a || named.h != t->h || named.g != t->g) {
        snprintf(err, DOAR_ERRLEN, "config=%s is dfly(%d,%d,%d,%d) but dfly=%d,%d,%d,%d", config, named.p, named.a,
                 named.h, named.g, t->p, t->a, t->h, t->g);
        return -1;
    }
    return 0;
}

int tables_load_images(table_set *ts, const char *dir, char err[DOAR_ERRLEN]) {
    char path[4096], line[512];
    memset(ts, 0, sizeof *ts);
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    FILE *m = fopen(path, "r");
    if (!m) {
        snprintf(err, DOAR_ERRLEN, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int lineno = 0, rc, have_dfly = 0, routers_declared = -1, routers_seen = 0, k = -1;
    int zones[3] = {-1, -1, -1};
    char config[32] = "", format[64] = "";
    /* each header key once: a second value would silently win */
    static const char *const header_keys[] = {"format", "config", "dfly", "k", "zones", "nm_slots", "c_ways"};
    int key_seen[sizeof header_keys / sizeof header_keys[0]] = {0};
    table_params prm;
    tables_default_params(&prm);
    topo t;
    int ready = 0;
    while ((rc = read_line(m, line, sizeof line, &lineno)) != 0) {
        if (rc < 0) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: line too long", path, lineno);
            goto fail;
        }
        if (line[0] == '#' || line[0] == '\0') continue;
        char *eq = strchr(line, '=');
        if (!eq) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: expected key=value", path, lineno);
            goto fail;
        }
        *eq = '\0';
        const char *key = line, *val = eq + 1;
        if (!ready && strcmp(key, "router") == 0) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: router lines must follow the header keys", path, lineno);
            goto fail;
        }
        if (ready && strcmp(key, "router") != 0) {
            snprintf(err, DOAR_ERRLEN, "%s:%d: header key '%s' after routers=", path, lineno, key);
            goto fail;
        }
        for (size_t hk = 0; hk < sizeof header_keys / sizeof header_keys[0]; hk++)
            if (!strcmp(key, header_keys[hk]) && key_seen[hk]++) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: %s= given twice", path, lineno, key);
                goto fail;
            }
        if (strcmp(key, "format") == 0)
            snprintf(format, sizeof format, "%s", val);
        else if (strcmp(key, "config") == 0) {
            if (!*val || strlen(val) >= sizeof config) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: config: expected a configuration name", path, lineno);
                goto fail;
            }
            snprintf(config, sizeof config, "%s", val);
        } else if (strcmp(key, "dfly") == 0) {
            char why[DOAR_ERRLEN];
            if (topo_parse_dfly(&t, val, why)) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: %s", path, lineno, why);
                goto fail;
            }
            have_dfly = 1;
        } else if (strcmp(key, "k") == 0) {
            if (manifest_int(val, 1, DOAR_MAX_RADIX, &k)) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: k: expected a whole number 1..%d", path, lineno, DOAR_MAX_RADIX);
                goto fail;
            }
        } else if (strcmp(key, "zones") == 0) {
            if (manifest_ints(val, 3, 0, 100000, zones)) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: zones: expected nz,bz,gz", path, lineno);
                goto fail;
            }
        } else if (strcmp(key, "nm_slots") == 0 || strcmp(key, "c_ways") == 0) {
            int nm = key[0] == 'n';
            if (manifest_int(val, 1, nm ? TABLES_MAX_NM_SLOTS : TABLES_MAX_C_WAYS, nm ? &prm.nm_slots : &prm.c_ways)) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: %s: expected a whole number 1..%d", path, lineno, key,
                         nm ? TABLES_MAX_NM_SLOTS : TABLES_MAX_C_WAYS);
                goto fail;
            }
        } else if (strcmp(key, "routers") == 0) {
            if (manifest_int(val, 1, 100000000, &routers_declared)) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: routers: expected a whole number", path, lineno);
                goto fail;
            }
            /* All header keys are in: build the empty set. */
            if (strcmp(format, TABLES_IMAGE_FORMAT) != 0) {
                snprintf(err, DOAR_ERRLEN, "%s: format '%s' is not %s", path, format, TABLES_IMAGE_FORMAT);
                goto fail;
            }
            if (!have_dfly) {
                snprintf(err, DOAR_ERRLEN, "%s: missing dfly=", path);
                goto fail;
            }
            if (!config[0]) {
                snprintf(err, DOAR_ERRLEN, "%s: missing config=", path);
                goto fail;
            }
            if (k < 0) {
                snprintf(err, DOAR_ERRLEN, "%s: missing k=", path);
                goto fail;
            }
            char cwhy[DOAR_ERRLEN];
            if (config_matches(config, &t, cwhy)) {
                snprintf(err, DOAR_ERRLEN, "%s: %s", path, cwhy);
                goto fail;
            }
            snprintf(t.name, sizeof t.name, "%s", config);
            if (k != t.k) {
                snprintf(err, DOAR_ERRLEN, "%s: k=%d but dfly gives k=%d", path, k, t.k);
                goto fail;
            }
            if (zones[0] != t.p || zones[1] != t.a || zones[2] != t.g) {
                snprintf(err, DOAR_ERRLEN, "%s: zones=%d,%d,%d but dfly gives %d,%d,%d", path, zones[0], zones[1],
                         zones[2], t.p, t.a, t.g);
                goto fail;
            }
            if (routers_declared < 1 || routers_declared > t.n_routers) {
                snprintf(err, DOAR_ERRLEN, "%s: routers=%d out of range 1..%d", path, routers_declared, t.n_routers);
                goto fail;
            }
            char why[DOAR_ERRLEN];
            if (tables_init(ts, &t, &prm, why)) {
                snprintf(err, DOAR_ERRLEN, "%s: %s", path, why);
                goto fail;
            }
            ready = 1;
        } else if (strcmp(key, "router") == 0) {
            int gid = -1, bid = -1, gb[2];
            char rdir[64], want[32], pair[32];
            /* exactly "G,B dir=NAME": one space, nothing after NAME */
            const char *sp = strchr(val, ' ');
            int shape_ok = sp && (size_t)(sp - val) < sizeof pair && !strncmp(sp + 1, "dir=", 4) &&
                           strlen(sp + 5) > 0 && strlen(sp + 5) < sizeof rdir && !strpbrk(sp + 5, " \t");
            if (shape_ok) {
                memcpy(pair, val, (size_t)(sp - val));
                pair[sp - val] = '\0';
                snprintf(rdir, sizeof rdir, "%s", sp + 5);
                shape_ok = !manifest_ints(pair, 2, 0, 100000, gb);
                gid = gb[0];
                bid = gb[1];
            }
            if (!shape_ok || gid >= t.g || bid >= t.a) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: bad router line", path, lineno);
                goto fail;
            }
            int r = topo_router(&t, gid, bid);
            router_dir(ts, r, want, sizeof want);
            if (strcmp(rdir, want) != 0) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: router %d,%d must be in dir %s", path, lineno, gid, bid, want);
                goto fail;
            }
            if (ts->present[r]) {
                snprintf(err, DOAR_ERRLEN, "%s:%d: router %d,%d listed twice", path, lineno, gid, bid);
                goto fail;
            }
            snprintf(path, sizeof path, "%s/%s/router.hex", dir, rdir);
            if (load_router_cfg(ts, path, r, err)) goto fail_nopath;
            int first_ix = ts->pool_n;
            for (int port = 0; port < t.k; port++) {
                int ix = tables_pool_new(ts);
                if (ix < 0) {
                    snprintf(err, DOAR_ERRLEN, "out of memory loading %s", dir);
                    goto fail_nopath;
                }
                port_tables *pt = &ts->pool[ix];
                uint64_t *rows[3] = {pt->a, pt->b, pt->c};
                for (int tab = 0; tab < 3; tab++) {
                    snprintf(path, sizeof path, "%s/%s/p%02d.%c.hex", dir, rdir, port, table_lower((table_id)tab));
                    if (load_table(ts, path, r, port, (table_id)tab, rows[tab], err)) goto fail_nopath;
                }
                /* Share identical tables within the router (ports of one class usually are). */
                ts->port_ix[r * t.k + port] = ix;
                for (int j = first_ix; j < ix; j++)
                    if (same_tables(ts, &ts->pool[j], pt)) {
                        free(pt->a);
                        free(pt->b);
                        free(pt->c);
                        ts->pool_n--;
                        ts->port_ix[r * t.k + port] = j;
                        break;
                    }
            }
            ts->present[r] = 1;
            ts->routers_present++;
            routers_seen++;
            snprintf(path, sizeof path, "%s/manifest.txt", dir);
        } else {
            snprintf(err, DOAR_ERRLEN, "%s:%d: unknown key '%s'", path, lineno, key);
            goto fail;
        }
    }
    fclose(m);
    if (!ready) {
        snprintf(err, DOAR_ERRLEN, "%s: truncated: no routers= line", path);
        tables_free(ts);
        return -1;
    }
    if (routers_seen != routers_declared) {
        snprintf(err, DOAR_ERRLEN, "%s: truncated: routers=%d but %d router lines", path, routers_declared,
                 routers_seen);
        tables_free(ts);
        return -1;
    }
    return 0;
fail:
fail_nopath:
    fclose(m);
    if (ready) tables_free(ts);
    return -1;
}
