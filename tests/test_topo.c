/* Topology: sizes from the brief and the papers, link symmetry, and the wiring facts that
 * seed 001 states in its worked examples (Fig. 4 text, Fig. 8 text). */
#include <string.h>
#include <stdlib.h>

#include "testutil.h"
#include "topo.h"

static void test_named_sizes(test_ctx *c) {
    /* Brief, "Named configurations": radix column; seed 001 sec. 5.1: 876 routers... "5K nodes". */
    static const struct {
        const char *name;
        int k, routers, nodes;
    } want[] = {
        {"tiny", 3, 6, 6},      {"small", 7, 36, 72},     {"fig8", 7, 32, 64},
        {"mid", 15, 264, 1056}, {"paper", 23, 876, 5256}, {"tianhe", 63, 16416, 262656},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        topo t;
        char err[DOAR_ERRLEN];
        EXPECT(c, topo_named(&t, want[i].name, err) == 0, "%s: %s", want[i].name, err);
        EXPECT(c, t.k == want[i].k, "%s k=%d", want[i].name, t.k);
        EXPECT(c, t.n_routers == want[i].routers, "%s routers=%d", want[i].name, t.n_routers);
        EXPECT(c, t.n_nodes == want[i].nodes, "%s nodes=%d", want[i].name, t.n_nodes);
    }
}

static void test_bad_parameters(test_ctx *c) {
    topo t;
    char err[DOAR_ERRLEN];
    EXPECT(c, topo_init(&t, 40, 20, 10, 9, NULL, err) != 0 && strstr(err, "radix"), "radix 69: %s", err);
    EXPECT(c, topo_init(&t, 2, 4, 2, 10, NULL, err) != 0 && strstr(err, "a*h+1"), "g=10: %s", err);
    EXPECT(c, topo_init(&t, 0, 4, 2, 9, NULL, err) != 0, "p=0 accepted");
    EXPECT(c, topo_init(&t, 2, 32, 32, 1025, NULL, err) != 0, "radix 65 accepted");
    EXPECT(c, topo_init(&t, 1, 32, 32, 1025, NULL, err) == 0, "radix 64 rejected: %s", err);
    EXPECT(c, topo_init(&t, 1, 32, 32, 1024, NULL, err) == 0, "radix 64 rejected: %s", err);
    EXPECT(c, topo_parse_dfly(&t, "2,4,2", err) != 0, "short spec accepted");
    EXPECT(c, topo_parse_dfly(&t, "2,4,2,9,1", err) != 0, "long spec accepted");
    EXPECT(c, topo_parse_dfly(&t, "2,x,2,9", err) != 0, "non-number accepted");
    EXPECT(c, topo_parse_dfly(&t, "-2,4,2,9", err) != 0, "negative accepted");
    EXPECT(c, topo_named(&t, "huge", err) != 0 && strstr(err, "unknown"), "unknown name: %s", err);
}

/* Every network port's peer points back; every pair of groups has exactly one global link. */
static void test_symmetry(test_ctx *c, const char *name) {
    topo t;
    char err[DOAR_ERRLEN];
    topo_named(&t, name, err);
    int *pair = calloc((size_t)t.g * t.g, sizeof *pair);
    long global_ends = 0;
    for (int r = 0; r < t.n_routers; r++)
        for (int port = t.first_local; port < t.k; port++) {
            int pr, pp, br, bp;
            if (topo_peer(&t, r, port, &pr, &pp) != 0) continue;
            EXPECT(c, topo_peer(&t, pr, pp, &br, &bp) == 0 && br == r && bp == port,
                   "%s: router %d port %d -> %d:%d does not point back", name, r, port, pr, pp);
            EXPECT(c, topo_port_class(&t, pp) == topo_port_class(&t, port), "%s: class changes over a link", name);
            if (topo_port_class(&t, port) == PORT_LOCAL)
                EXPECT(c, topo_gid(&t, pr) == topo_gid(&t, r) && pr != r, "%s: local link leaves group", name);
            else {
                EXPECT(c, topo_gid(&t, pr) != topo_gid(&t, r), "%s: global link inside a group", name);
                pair[topo_gid(&t, r) * t.g + topo_gid(&t, pr)]++;
                global_ends++;
            }
        }
    for (int x = 0; x < t.g; x++)
        for (int y = 0; y < t.g; y++)
            if (x != y)
                EXPECT(c, pair[x * t.g + y] == 1, "%s: groups %d,%d have %d links", name, x, y, pair[x * t.g + y]);
    EXPECT(c, global_ends / 2 == topo_global_links(&t), "%s: global link count", name);
    EXPECT(c, topo_global_links(&t) == (long)t.g * (t.g - 1) / 2, "%s: one link per group pair", name);
    free(pair);
}

/* Seed 001 sec. 3.1: "in this topology the G_i-th global port of any group connects group G_i";
 * Fig. 4 example with p=2, a=3, h=2 (g = 7): from G1, port 4 reaches G4 directly, ports 2,3
 * (on the source router R_s) reach G2, G3. */
static void test_fig4_wiring(test_ctx *c) {
    topo t;
    char err[DOAR_ERRLEN];
    EXPECT(c, topo_init(&t, 2, 3, 2, 7, NULL, err) == 0, "%s", err);
    for (int j = 0; j < t.ah; j++)
        if (j != 1) EXPECT(c, topo_gport_target(&t, 1, j) == j, "G1 port %d -> %d", j, topo_gport_target(&t, 1, j));
    EXPECT(c, topo_gport_target(&t, 1, 1) == 6, "G1's own-id port leads to group a*h");
    EXPECT(c, topo_gport_to_group(&t, 1, 4) == 4, "G1 reaches G4 through port 4");
}

/* Seed 001 sec. 4.2, dfly(2,4,2,8): the G0-G2 link is at G0s1; G0s0 sends to G1s0; G2s0 hears
 * from G0s1; G2s3 and G3s3 reach G6s1 ("G6s1 receives two FD from G2 and G3"); G0s3 leads to
 * G6 and G7. With g = a*h the own-id port has no group to lead to. */
static void test_fig8_wiring(test_ctx *c) {
    topo t;
    char err[DOAR_ERRLEN];
    topo_named(&t, "fig8", err);
    int pr, pp;
#define PEER_OF(G, B, gport) (topo_peer(&t, topo_router(&t, G, B), topo_global_port(&t, gport), &pr, &pp) == 0)
    EXPECT(c, PEER_OF(0, 1, 2) && topo_gid(&t, pr) == 2 && topo_bid(&t, pr) == 0, "G0s1 -> G2s0");
    EXPECT(c, PEER_OF(0, 0, 1) && topo_gid(&t, pr) == 1 && topo_bid(&t, pr) == 0, "G0s0 -> G1s0");
    EXPECT(c, PEER_OF(2, 3, 6) && topo_gid(&t, pr) == 6 && topo_bid(&t, pr) == 1, "G2s3 -> G6s1");
    EXPECT(c, PEER_OF(3, 3, 6) && topo_gid(&t, pr) == 6 && topo_bid(&t, pr) == 1, "G3s3 -> G6s1");
    EXPECT(c, PEER_OF(0, 3, 6) && topo_gid(&t, pr) == 6, "G0s3 -> G6");
    EXPECT(c, PEER_OF(0, 3, 7) && topo_gid(&t, pr) == 7, "G0s3 -> G7");
    EXPECT(c, !PEER_OF(0, 0, 0), "G0's own-id port is unwired when g = a*h");
#undef PEER_OF
    gport_bitmap w;
    topo_wired(&t, 0, &w);
    EXPECT(c, gbm_count(&w) == 7, "fig8 group 0 wires g-1 = 7 ports, got %d", gbm_count(&w));
}

static void test_numbering(test_ctx *c) {
    topo t;
    char err[DOAR_ERRLEN];
    topo_named(&t, "small", err);
    for (int b = 0; b < t.a; b++)
        for (int o = 0; o < t.a; o++) {
            if (o == b) continue;
            int port = topo_local_port(&t, b, o);
            EXPECT(c, topo_port_class(&t, port) == PORT_LOCAL, "local port class");
            EXPECT(c, topo_local_peer(&t, b, port) == o, "local peer inverse");
        }
    EXPECT(c, topo_local_mask(&t) == 0x1cu && topo_global_mask(&t) == 0x60u, "port masks of small");
    EXPECT(c, topo_node(&t, 1, 2, 1) == (1 * 4 + 2) * 2 + 1, "node numbering");
}

int main(void) {
    test_ctx c = {0, 0, "test_topo"};
    test_named_sizes(&c);
    test_bad_parameters(&c);
    const char *names[] = {"tiny", "small", "fig8", "mid", "paper"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) test_symmetry(&c, names[i]);
    test_fig4_wiring(&c);
    test_fig8_wiring(&c);
    test_numbering(&c);
    return test_finish(&c);
}
