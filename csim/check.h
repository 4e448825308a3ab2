/*
 * check — the static route and deadlock checker (`doar check`).
 *
 * Contract
 *   Input : a complete table_set (generated, or loaded from images and possibly corrupt).
 *   Output: for every (source router, destination node) pair, every route the tables allow
 *           is followed — at the source router's internal ports all of Algorithm 1's
 *           candidates (GA, GB, GC, GD mapped through table C), elsewhere table A and B with
 *           filter F — and the checker proves, with exact route counts:
 *             every route reaches its destination node (no dead end, no misdelivery, no loop);
 *             every route has one of seed 001's shapes (docs/architecture.md, "Path shapes");
 *             at most max_hops router-to-router hops and VC <= num_vcs-1 under the VC rule;
 *             the channel dependency graph over (link, VC) is acyclic;
 *           and at the source router that Algorithm 1's classes mean what they say: every GA port
 *           leads to the destination group, and table C maps every candidate global port to the
 *           port that reaches the router owning it.
 *   Method: dynamic programming per destination router over states
 *           (router, input port, VC, shape prefix); a state's route count is the sum over its
 *           choices. Routes are counted per injection port: a route is (internal port of the
 *           source router, sequence of links with VCs, terminal port at the destination).
 *   Invariant: the result is independent of the order in which states are visited, except
 *           which error is named first.
 */
#ifndef DOAR_CHECK_H
#define DOAR_CHECK_H

#include <stdio.h>
#include "tables.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CHECK_NUM_VCS 4  /* seed 001 sec. 3.2: four VCs avoid deadlock */
#define CHECK_MAX_HOPS 7 /* LG-LL-GL, and LG-LL-GLL when a fault fallback refracts in the destination group */

typedef enum { VC_RULE_DOAR = 0, VC_RULE_NONE = 1 } vc_rule_kind;

typedef enum {
    CHK_LOOP = 0,    /* a route leaves through the port it arrived on */
    CHK_TOO_LONG,    /* more than max_hops hops */
    CHK_VC,          /* the VC rule needs a VC beyond num_vcs-1 */
    CHK_MISDELIVERY, /* a terminal port other than the destination's */
    CHK_RTA,         /* the source router's classes mean something else: GA not minimal, or
                        table C maps a global port to a port that does not reach its router */
    CHK_DEAD_END,    /* no candidate, an unwired port, or a port >= k */
    CHK_SHAPE,       /* reaches the destination along a shape seed 001 does not allow */
    CHK_CDG,         /* cycle in the channel dependency graph */
    CHK_KINDS
} check_error_kind;

typedef struct {
    int num_vcs;
    int max_hops;
    vc_rule_kind vc_rule;
    int dest_sample; /* 0: all destination routers; n: n routers spread evenly */
    int one_dest;    /* 1: one destination router at a time (the reference; slower); 0: a group's
                        destination routers at once (the default; the same results) */
    FILE *progress;  /* progress lines, or NULL */
} check_opts;

#define CHECK_SHAPE_CODES 256 /* prefix code (1 << len) | G-bits, len <= CHECK_MAX_HOPS = 7 */
#define CHECK_SHAPE_WORDS (CHECK_SHAPE_CODES / 64)

typedef struct {
    uint64_t pairs, routes;
    int max_hops, max_vc;
    int cdg_acyclic;
    int dests_checked, dests_total;
    uint64_t states; /* DP states evaluated */
    uint64_t cdg_nodes, cdg_edges;
    uint64_t shapes_seen[CHECK_SHAPE_WORDS]; /* bit per shape code over accepted routes */
    uint64_t errors[CHK_KINDS];
    char first[CHK_KINDS][DOAR_ERRLEN];
    char fail[DOAR_ERRLEN]; /* first error found, "" when ok */
    int ok;
    int reran; /* the lane DP met an error, so the check ran again one destination at a time */
} check_result;

void check_default_opts(check_opts *o);
/* Returns 0 when the check ran (result in *res, res->ok says pass/fail), -1 on bad input. */
int check_run(const table_set *ts, const check_opts *o, check_result *res, char err[DOAR_ERRLEN]);
const char *check_kind_name(check_error_kind k);
/* "LG-LL-GL" style name of a shape code; "(local)" for the empty route. */
void check_shape_name(int code, char *buf, size_t len);
/* Whether a complete route of this shape code is one of seed 001's (intra: same group). */
int check_shape_allowed(int code, int intra_group);

#ifdef __cplusplus
}
#endif

#endif
