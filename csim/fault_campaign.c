#define _POSIX_C_SOURCE 200809L
#include "fault_campaign.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fault_net.h"
#include "fault_oracle.h"

#define CAMPAIGN_MAX_CYCLES 2000000 /* a campaign that has not settled by then is a livelock */

void fault_campaign_default_opts(fault_campaign_opts *o) {
    memset(o, 0, sizeof *o);
    o->campaigns = 100;
    o->max_faults = 10;
    o->router_permille = 200;
    o->lat_local = 10; /* the network simulator's default link latencies (issue 6) */
    o->lat_global = 100;
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int rnd(uint64_t *s, int n) { return (int)(splitmix(s) % (uint64_t)n); }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Is the unit back at its power-on state? Describes the first difference in why. */
static int unit_initial(const fault_unit *fu, char why[DOAR_ERRLEN]) {
    const topo *t = &fu->ts->t;
    for (int i = 0; i < fu->k * fu->et_num; i++) {
        const int c = i / fu->et_num, e = i % fu->et_num;
        unsigned roles = (fault_opt(fu, FAULT_ROLE_SOURCE, c, e) ? FAULT_ROLE_SOURCE : 0u) |
                         (fault_opt(fu, FAULT_ROLE_TRANSIT, c, e) ? FAULT_ROLE_TRANSIT : 0u);
        if (fu->mask[i] != ~(uint64_t)0 || fu->acc[i] != roles) {
            int index;
            table_zone z = tables_zone_of_row(fu->ts, TABLE_A, i % fu->et_num, &index);
            snprintf(why, DOAR_ERRLEN, "router (%d,%d) port %d entry %c[%d] not restored: mask=%016llx acc=%u", fu->gid,
                     fu->bid, i / fu->et_num, "NBG"[z], index, (unsigned long long)fu -> mask[i], fu -> acc[i]);
            return 0;
        }
    }
    if (fu->port_down || fu->peer_dead) {
        snprintf(why, DOAR_ERRLEN, "router (%d,%d) still has ports down (%llx) or dead peers (%llx)", fu->gid, fu->bid,
                 (unsigned long long)fu->port_down, (unsigned long long)fu->peer_dead);
        return 0;
    }
    (void)t;
    return 1;
}

typedef struct {
    int router, port;
} fault_site; /* port -1: the router itself */

static void inject(fault_net *n, uint64_t *rng, const fault_campaign_opts *o, int nf, int *links, int *routers,
                   fault_site *sites) {
    int verbose = o->verbose > 1;
    const topo *t = n->t;
    *links = *routers = 0;
    for (int f = 0; f < nf; f++) {
        for (int tries = 0; tries < 1000; tries++) {
            if (rnd(rng, 1000) < o->router_permille) {
                int r = rnd(rng, t->n_routers);
                if (fault_net_fail_router(n, r) == 0) {
                    sites[*links + *routers] = (fault_site){r, -1};
                    (*routers)++;
                    if (verbose) printf("faults:   router (%d,%d)\n", topo_gid(t, r), topo_bid(t, r));
                    break;
                }
            } else {
                int r = rnd(rng, t->n_routers), p = t->p + rnd(rng, t->k - t->p);
                if (fault_net_fail_link(n, r, p) == 0) {
                    sites[*links + *routers] = (fault_site){r, p};
                    (*links)++;
                    if (verbose) printf("faults:   link (%d,%d) port %d\n", topo_gid(t, r), topo_bid(t, r), p);
                    break;
                }
            }
        }
    }
}

static uint64_t compare(const fault_net *n, const fault_oracle *orc, char first[DOAR_ERRLEN]) {
    const topo *t = n->t;
    uint64_t bad = 0;
    for (int r = 0; r < t->n_routers; r++) {
        if (n->router_dead[r]) continue;
        const fault_unit *fu = &n->fu[r];
        for (int c = 0; c < t->k; c++)
            for (int e = 0; e < fu->et_num; e++) {
                size_t oi = ((size_t)r * t->k + c) * orc->et_num + e;
                uint64_t mu = fault_mask(fu, c, e), mo = orc->mask[oi];
                unsigned au = fault_acc(fu, c, e), ao = orc->acc[oi];
                if (mu == mo && au == ao) continue;
                if (!bad) {
                    int index;
                    table_zone z = tables_zone_of_row(n->ts, TABLE_A, e, &index);
                    snprintf(
                        first, DOAR_ERRLEN,
                        "router (%d,%d) port %d entry %c[%d]: units mask=%016llx acc=%u, oracle mask=%016llx acc=%u",
                        topo_gid(t, r), topo_bid(t, r), c, "NBG"[z], index, (unsigned long long)mu, au,
                        (unsigned long long)mo, ao);
                }
                bad++;
            }
    }
    return bad;
}

int fault_campaign_run(const table_set *ts, const fault_campaign_opts *o, fault_campaign_result *res,
                       char err[DOAR_ERRLEN]) {
    const topo *t = &ts->t;
    memset(res, 0, sizeof *res);
    fault_net n;
    if (fault_net_init(&n, ts, o->lat_local, o->lat_global, err)) return -1;
    fault_site *sites = malloc((size_t)o->max_faults * sizeof *sites);
    if (!sites) {
        fault_net_free(&n);
        snprintf(err, DOAR_ERRLEN, "out of memory");
        return -1;
    }
    double t0 = now_s(), next = 2.0;
    for (int ci = 0; ci < o->campaigns; ci++) {
        uint64_t rng = o->seed * 0x100000001b3ull + (uint64_t)ci * 0x9e3779b97f4a7c15ull + 1;
        int nf = o->exact_faults ? o->max_faults : 1 + rnd(&rng, o->max_faults), links, routers;
        inject(&n, &rng, o, nf, &links, &routers, sites);
        res->faults_links += (uint64_t)links;
        res->faults_routers += (uint64_t)routers;
        int diag = fault_net_run(&n, CAMPAIGN_MAX_CYCLES);
        if (diag < 0) {
            snprintf(err, DOAR_ERRLEN, "campaign %d: diagnosis did not settle in %d cycles", ci, CAMPAIGN_MAX_CYCLES);
            fault_net_free(&n);
            free(sites);
            return -1;
        }
        fault_oracle orc;
        if (fault_oracle_run(&orc, ts, n.router_dead, n.port_dead, err)) {
            fault_net_free(&n);
            free(sites);
            return -1;
        }
        char first[DOAR_ERRLEN] = "";
        uint64_t bad = compare(&n, &orc, first);
        if (bad && !res->first_mismatch[0]) snprintf(res->first_mismatch, DOAR_ERRLEN, "campaign %d: %s", ci, first);
        res->oracle_mismatches += bad;
        res->unreachable_pairs += orc.unreachable_pairs;
        uint64_t unreach = orc.unreachable_pairs;
        fault_oracle_free(&orc);
        /* partial repair: about half of the faults, then the oracle again on what remains */
        int repaired = 0;
        for (int i = 0; i < links + routers; i++) {
            if (rnd(&rng, 2)) continue;
            if (sites[i].port < 0)
                fault_net_repair_router(&n, sites[i].router);
            else
                fault_net_repair_link(&n, sites[i].router, sites[i].port);
            if (o->verbose > 1)
                printf("faults:   repaired %s (%d,%d) port %d\n", sites[i].port < 0 ? "router" : "link",
                       topo_gid(t, sites[i].router), topo_bid(t, sites[i].router), sites[i].port);
            repaired++;
        }
        int part = fault_net_run(&n, CAMPAIGN_MAX_CYCLES);
        if (part < 0 || fault_oracle_run(&orc, ts, n.router_dead, n.port_dead, err)) {
            if (part < 0) snprintf(err, DOAR_ERRLEN, "campaign %d: partial recovery did not settle", ci);
            fault_net_free(&n);
            free(sites);
            return -1;
        }
        uint64_t bad2 = compare(&n, &orc, first);
        if (bad2 && !res->first_mismatch[0])
            snprintf(res->first_mismatch, DOAR_ERRLEN, "campaign %d after repairing %d of %d faults: %s", ci, repaired,
                     links + routers, first);
        res->oracle_mismatches += bad2;
        bad += bad2;
        fault_oracle_free(&orc);
        fault_net_repair_all(&n);
        int rec = fault_net_run(&n, CAMPAIGN_MAX_CYCLES);
        if (rec < 0) {
            snprintf(err, DOAR_ERRLEN, "campaign %d: recovery did not settle in %d cycles", ci, CAMPAIGN_MAX_CYCLES);
            fault_net_free(&n);
            free(sites);
            return -1;
        }
        int restored = 1;
        for (int r = 0; r < t->n_routers; r++) {
            char why[DOAR_ERRLEN];
            if (!unit_initial(&n.fu[r], why)) {
                restored = 0;
                if (!res->first_mismatch[0]) snprintf(res->first_mismatch, DOAR_ERRLEN, "campaign %d: %s", ci, why);
                fault_reset(&n.fu[r]);
            }
        }
        res->restored += restored;
        res->campaigns++;
        if (diag > res->max_diag_cycles) res->max_diag_cycles = diag;
        if (rec > res->max_recovery_cycles) res->max_recovery_cycles = rec;
        res->sum_diag_cycles += diag;
        res->sum_recovery_cycles += rec;
        if (o->verbose)
            printf("faults: campaign %d links=%d routers=%d diag_cycles=%d recovery_cycles=%d mismatches=%llu "
                   "unreachable_pairs=%llu restored=%s\n",
                   ci, links, routers, diag, rec, (unsigned long long)bad, (unsigned long long)unreach,
                   restored ? "yes" : "NO");
        double el = now_s() - t0;
        if (o->progress && el >= next) {
            fprintf(o->progress, "faults: %d/%d campaigns, %.0fs elapsed, mismatches so far %llu\n", ci + 1,
                    o->campaigns, el, (unsigned long long)res->oracle_mismatches);
            next = el + 5;
        }
    }
    for (int r = 0; r < t->n_routers; r++) {
        res->fd_msgs += n.fu[r].st.fd_sent;
        res->fr_msgs += n.fu[r].st.fr_sent;
    }
    res->lost_msgs = n.lost_msgs;
    fault_net_free(&n);
    free(sites);
    return 0;
}

/* ---- seed 001's worked examples on dfly(2,4,2,8) ---- */

/* Router-level routes from router s (a terminal input) to router d, following the options
 * that are still valid (filter F by role), at most 6 hops. */
static uint64_t routes_from(const fault_net *n, int r, int in_port, int src_gid, int d, int hops) {
    const topo *t = n->t;
    if (r == d) return 1;
    if (hops >= 6) return 0;
    const fault_unit *fu = &n->fu[r];
    int index;
    table_zone z = tables_zone(topo_gid(t, r), topo_bid(t, r), topo_gid(t, d), topo_bid(t, d), 0, &index);
    int e = fault_entry_of(n->ts, z, index);
    unsigned role =
        topo_port_class(t, in_port) == PORT_LOCAL && topo_gid(t, r) == src_gid ? FAULT_ROLE_SOURCE : FAULT_ROLE_TRANSIT;
    uint64_t opts = fault_opt(fu, role, in_port, e) & fault_mask(fu, in_port, e);
    uint64_t sum = 0;
    for (uint64_t m = opts; m; m &= m - 1) {
        int p = __builtin_ctzll(m), q, qp;
        if (topo_port_class(t, p) == PORT_TERMINAL || topo_peer(t, r, p, &q, &qp)) continue;
        if (n->router_dead[q] || n->port_dead[(size_t)r * t->k + p]) continue;
        sum += routes_from(n, q, qp, src_gid, d, hops + 1);
    }
    return sum;
}

/* First global links router s may use toward group D: minimal and non-minimal, still valid. */
static void first_links(const fault_net *n, int s, int D, int *min_links, int *nm_links) {
    const topo *t = n->t;
    const table_set *ts = n->ts;
    int gid = topo_gid(t, s), bid = topo_bid(t, s), e = fault_entry_of(ts, ZONE_G, D);
    const port_tables *pt = tables_port(ts, s, 0);
    int rb = tables_row_b(ts, ZONE_G, D);
    rta_classes cls;
    tables_rta_classes(ts, s, pt->a[e], pt->b[rb], 0, &cls);
    *min_links = *nm_links = 0;
    for (int j = 0; j < t->ah; j++) {
        int is_min = gbm_test(&cls.ga, j);
        if (!is_min && !gbm_test(&cls.gb, j) && !gbm_test(&cls.gc, j) && !gbm_test(&cls.gd, j)) continue;
        int x = j / t->h, gp = topo_global_port(t, j);
        uint64_t lp = tables_lport(ts, pt, s, j);
        if (!(fault_mask(&n->fu[s], 0, e) & lp)) continue;
        int ok;
        if (x == bid)
            ok = !n->port_dead[(size_t)s * t->k + gp];
        else {
            int xr = topo_router(t, gid, x), xin = topo_local_port(t, x, bid);
            ok = !n->port_dead[(size_t)s * t->k + __builtin_ctzll(lp)] && (fault_mask(&n->fu[xr], xin, e) >> gp & 1) &&
                 !n->port_dead[(size_t)xr * t->k + gp];
        }
        if (ok) *(is_min ? min_links : nm_links) += 1;
    }
}

static int fail_between(fault_net *n, int r1, int r2) {
    const topo *t = n->t;
    for (int p = t->p; p < t->k; p++) {
        int q, qp;
        if (!topo_peer(t, r1, p, &q, &qp) && q == r2) return fault_net_fail_link(n, r1, p);
    }
    return -1;
}

static int example_diag(const table_set *ts, int r1, int r2, int paper_gd, const char *name, FILE *out,
                        char err[DOAR_ERRLEN]) {
    const topo *t = &ts->t;
    fault_net n;
    if (fault_net_init(&n, ts, 0, 0, err)) return -1;
    int tld = fault_cmd_cycles(&n.fu[0], FCMD_TRAVEL_FD), tgd = fault_cmd_cycles(&n.fu[0], FCMD_MATCH_FD);
    int tr = fault_cmd_cycles(&n.fu[0], FCMD_TRAVEL_FR);
    fail_between(&n, r1, r2);
    int diag = fault_net_run(&n, CAMPAIGN_MAX_CYCLES);
    uint64_t fd = 0, fr = 0, cmds = 0;
    for (int r = 0; r < t->n_routers; r++) {
        fd += n.fu[r].st.fd_sent;
        cmds += n.fu[r].st.commands[FCMD_MATCH_FD];
    }
    fault_net_repair_all(&n);
    int rec = fault_net_run(&n, CAMPAIGN_MAX_CYCLES);
    for (int r = 0; r < t->n_routers; r++) fr += n.fu[r].st.fr_sent;
    int paper = tld + paper_gd * tgd;
    fprintf(out, "example %s: link G%ds%d-G%ds%d; t1=%d t2=%d et_num=%d: t_ld=%d t_gd=%d t_r=%d cycles\n", name,
            topo_gid(t, r1), topo_bid(t, r1), topo_gid(t, r2), topo_bid(t, r2), FAULT_T1, FAULT_T2, n.fu[0].et_num, tld,
            tgd, tr);
    fprintf(out, "example %s: diagnosis ours=%d cycles = t_ld + %.2f t_gd; paper = t_ld + %d t_gd = %d cycles%s\n",
            name, diag, (double)(diag - tld) / tgd, paper_gd, paper, diag == paper ? " (equal)" : "");
    fprintf(out, "example %s: FD messages=%llu Match_FD commands=%llu; recovery ours=%d cycles, FR messages=%llu\n",
            name, (unsigned long long)fd, (unsigned long long)cmds, rec, (unsigned long long)fr);
    fault_net_free(&n);
    return diag;
}

static void print_g2_matrix(const fault_net *n, FILE *out, const char *when) {
    const topo *t = n->t;
    fprintf(out, "example fig9g: %s routes inside G2 (row: from s, column: to s)\n", when);
    for (int s = 0; s < t->a; s++) {
        fprintf(out, "example fig9g:   s%d", s);
        for (int d = 0; d < t->a; d++)
            fprintf(out, " %3llu",
                    s == d ? 0ull
                           : (unsigned long long)routes_from(n, topo_router(t, 2, s), 0, 2, topo_router(t, 2, d), 0));
        fprintf(out, "\n");
    }
}

int fault_example_run(const table_set *ts, const char *which, FILE *out, char err[DOAR_ERRLEN]) {
    const topo *t = &ts->t;
    if (t->p != 2 || t->a != 4 || t->h != 2 || t->g != 8) {
        snprintf(err, DOAR_ERRLEN, "the worked examples are on fig8 = dfly(2,4,2,8), not dfly(%d,%d,%d,%d)", t->p, t->a,
                 t->h, t->g);
        return -1;
    }
    if (!strcmp(which, "fig8b")) {
        /* G0s1 owns group 0's port to G2 (docs/architecture.md, "Global wiring") */
        return example_diag(ts, topo_router(t, 0, 1), topo_router(t, 2, 0), 4, "fig8b", out, err) < 0 ? -1 : 0;
    }
    if (!strcmp(which, "fig8c"))
        return example_diag(ts, topo_router(t, 0, 1), topo_router(t, 0, 3), 8, "fig8c", out, err) < 0 ? -1 : 0;
    if (strcmp(which, "fig9")) {
        snprintf(err, DOAR_ERRLEN, "--example '%s': expected fig8b, fig8c or fig9", which);
        return -1;
    }
    fault_net n;
    if (fault_net_init(&n, ts, 0, 0, err)) return -1;
    int s0 = topo_router(t, 2, 0), s2 = topo_router(t, 2, 2);
    int before_min[2][8], before_nm[2][8], before_entry[8];
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            fail_between(&n, s0, s2);
            fault_net_run(&n, CAMPAIGN_MAX_CYCLES);
        }
        print_g2_matrix(&n, out, pass ? "after the G2s0-G2s2 fault:" : "before:");
        int entry = 0;
        fprintf(out, "example fig9h: %s first global links (minimal+non-minimal) from G2s0 / G2s2 to each group\n",
                pass ? "after:" : "before:");
        for (int si = 0; si < 2; si++) {
            int s = si ? s2 : s0;
            fprintf(out, "example fig9h:   G2s%d", si ? 2 : 0);
            for (int D = 0; D < t->g; D++) {
                if (D == 2) {
                    fprintf(out, "   -  ");
                    continue;
                }
                int mn, nm;
                first_links(&n, s, D, &mn, &nm);
                if (pass == 0) {
                    before_min[si][D] = mn;
                    before_nm[si][D] = nm;
                }
                fprintf(out, " G%d:%d+%d", D, mn, nm);
                if (pass == 1 && (mn != before_min[si][D] || nm != before_nm[si][D]))
                    fprintf(out, "(-%d-%d)", before_min[si][D] - mn, before_nm[si][D] - nm);
            }
            fprintf(out, "\n");
        }
        fprintf(out, "example fig9h:   groups that still reach G2 over their direct link:");
        for (int X = 0; X < t->g; X++) {
            if (X == 2) continue;
            int j = topo_gport_to_group(t, X, 2), xr = topo_router(t, X, j / t->h), gp = topo_global_port(t, j);
            int ok = (fault_mask(&n.fu[xr], 0, fault_entry_of(ts, ZONE_G, 2)) >> gp) & 1;
            if (pass == 0) before_entry[X] = ok;
            if (ok) {
                entry++;
                fprintf(out, " G%d", X);
            }
        }
        fprintf(out, "  (%d of %d)\n", entry, t->g - 1);
    }
    (void)before_entry;
    fprintf(out, "example fig9: paper: s1-s3 keep 3 routes, s0-s2 lose the minimal one, other pairs lose one "
                 "non-minimal; G0,G1,G4,G5 no longer reach G2 directly, 3 entry links remain\n");
    fault_net_free(&n);
    return 0;
}
