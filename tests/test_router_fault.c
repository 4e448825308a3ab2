/* The fault units inside the router (router_enable_faults): FD/FR packets on the data network go
 * to the unit and are credited, the unit's messages leave as control flits, events reach it, the
 * route-compute units stop using masked options, and a dead link never blocks the router.
 * The reference is a stand-alone fault unit (csim/fault.c, lock-stepped against rtl/fault.v)
 * driven with the same events and messages: the router must emit exactly its messages. */
#include <stdlib.h>
#include <string.h>

#include "router.h"
#include "router_env.h"
#include "testutil.h"

typedef struct {
    topo t;
    table_set ts;
    router_params prm;
    router r;
    router_env env;
    router_cfg_in cfg;
    fault_unit ref;
    int id;
} bench;

static void setup(test_ctx *c, bench *b, const char *name, int router_id) {
    char err[DOAR_ERRLEN];
    table_params tp;
    tables_default_params(&tp);
    topo_named(&b->t, name, err);
    EXPECT(c, tables_generate(&b->ts, &b->t, &tp, err) == 0, "%s", err);
    router_default_params(&b->t, &b->prm);
    EXPECT(c, router_init(&b->r, &b->t, &b->prm, &tp, err) == 0, "%s", err);
    EXPECT(c, router_enable_faults(&b->r, &b->ts, router_id, err) == 0, "%s", err);
    EXPECT(c, env_init(&b->env, &b->t, &b->ts, &b->prm, router_id, 5) == 0, "env");
    EXPECT(c, fault_init(&b->ref, &b->ts, router_id, err) == 0, "%s", err);
    b->ref.in_depth = b->prm.ctl_depth;
    b->ref.out_depth = FAULT_OUT_DEPTH;
    fault_reset(&b->ref);
    b->id = router_id;
    b->cfg.gid = topo_gid(&b->t, router_id);
    b->cfg.bid = topo_bid(&b->t, router_id);
    b->cfg.wired = b->ts.rcfg[router_id].wired;
    b->cfg.seed = 11;
    router_reset(&b->r, &b->cfg);
    router_in in;
    router_out out;
    for (long n = 0; env_setup(&b->env, n, &in); n++) router_cycle(&b->r, &in, &out);
}

static void teardown(bench *b) {
    fault_free(&b->ref);
    env_free(&b->env);
    router_free(&b->r);
    tables_free(&b->ts);
}

/* Runs both until idle; every control flit the router sends must be the reference's next message
 * for that port. Returns the cycle of the first control flit (-1: none); *sent counts them. */
static long run_against_ref(test_ctx *c, bench *b, long start, long limit, long *sent) {
    router_in in;
    router_out out;
    long first = -1;
    *sent = 0;
    for (long cyc = start; cyc < start + limit; cyc++) {
        memset(&in, 0, sizeof in);
        for (int o = 0; o < b->t.k; o++) in.ctl_cr_valid[o] = 1; /* the far side frees at once */
        router_cycle(&b->r, &in, &out);
        fault_tick(&b->ref);
        for (int o = 0; o < b->t.k; o++) {
            if (!out.out[o].valid) continue;
            EXPECT(c, fault_is_ctl(&out.out[o]), "cycle %ld port %d: a data flit from an idle router", cyc, o);
            fault_msg got, want;
            fault_msg_unpack(out.out[o].data, &got);
            int have = fault_out_head(&b->ref, o, &want);
            EXPECT(c, have, "cycle %ld port %d: a message the reference did not produce", cyc, o);
            if (have) {
                EXPECT(c,
                       got.kind == want.kind && got.prefix == want.prefix && got.role == want.role && got.g == want.g &&
                           got.b == want.b && got.n == want.n,
                       "cycle %ld port %d: message differs from the reference", cyc, o);
                fault_out_take(&b->ref, o);
            }
            if (first < 0) first = cyc;
            (*sent)++;
        }
        if (cyc > start + 2 && fault_idle(b->r.fu) && fault_idle(&b->ref)) break;
    }
    for (int o = 0; o < b->t.k; o++) {
        fault_msg m;
        EXPECT(c, !fault_out_head(&b->ref, o, &m), "port %d: the router never sent a message", o);
    }
    for (int p = 0; p < b->t.k; p++)
        for (int e = 0; e < b->ref.et_num; e++)
            EXPECT(c,
                   fault_mask(b->r.fu, p, e) == fault_mask(&b->ref, p, e) &&
                       fault_acc(b->r.fu, p, e) == fault_acc(&b->ref, p, e),
                   "port %d entry %d: mask or accessibility differs from the reference", p, e);
    return first;
}

/* 75 one-flit packets from terminal 0 to every router and node of group `target`, then quiet:
 * counts the flits that left on port `dead`, on other ports, and the heads discarded. */
static void send_to_group(bench *b, int target, int dead, long *via_dead, long *other, long *discarded) {
    router_in in;
    router_out out;
    *via_dead = *other = *discarded = 0;
    for (int n = 0; n < 400; n++) {
        memset(&in, 0, sizeof in);
        for (int o = 0; o < b->t.k; o++) {
            in.cr_valid[o] = 1;
            in.cr_vc[o] = (uint8_t)(n & 3);
            in.ctl_cr_valid[o] = 1;
        }
        if (n % 4 == 0 && n < 300) {
            in.in[0].valid = in.in[0].head = in.in[0].tail = 1;
            in.in[0].data = flit_header(target, (n / 4) % b->t.a, (n / 8) % b->t.p, b->cfg.gid, 0, 0, 1, n);
        }
        router_cycle(&b->r, &in, &out);
        for (int o = 0; o < b->t.k; o++)
            if (out.out[o].valid) {
                if (o == dead)
                    (*via_dead)++;
                else
                    (*other)++;
            }
        if (out.discard & 1) (*discarded)++;
    }
}

/* A local link fault: the event goes in, t_ld later the FDs leave as control flits. */
static void test_event(test_ctx *c) {
    bench b;
    setup(c, &b, "small", 10);
    int dead = b.t.first_global;
    router_in in;
    router_out out;
    memset(&in, 0, sizeof in);
    EXPECT(c, router_event_ready(&b.r), "event input not ready after reset");
    in.ev_valid = 1;
    in.ev_kind = FEV_LINK_DOWN;
    in.ev_port = dead;
    router_cycle(&b.r, &in, &out); /* cycle 0 */
    fault_tick(&b.ref);
    fault_event(&b.ref, FEV_LINK_DOWN, dead);
    long sent;
    long first = run_against_ref(c, &b, 1, 5000, &sent);
    /* seen by the scheduler in cycle 1, Travel_FD occupies 1..t_ld, committed at its end, picked
     * by the output stage in t_ld+1, on the output register in t_ld+2 */
    int t_ld = fault_cmd_cycles(b.r.fu, FCMD_TRAVEL_FD);
    EXPECT(c, first == t_ld + 2, "first FD out in cycle %ld, want t_ld+2 = %d", first, t_ld + 2);
    EXPECT(c, sent > 0, "a dead global link produced no FD");
    EXPECT(c, (b.r.fu->port_down >> dead) & 1, "port not marked down");
    printf("  event: link down on port %d, %ld FD packets, first in cycle %ld (t_ld = %d)\n", dead, sent, first, t_ld);

    /* every route after the fault avoids the dead port; without a fault some used it */
    long via_dead, other, discarded;
    int target = topo_gport_target(&b.t, b.cfg.gid, topo_group_port(&b.t, b.cfg.bid, dead));
    EXPECT(c, target >= 0, "dead port unwired");
    send_to_group(&b, target, dead, &via_dead, &other, &discarded);
    EXPECT(c, via_dead == 0, "%ld packets still routed to the dead port", via_dead);
    EXPECT(c, other + discarded == 75, "packets lost: %ld out, %ld discarded of 75", other, discarded);
    EXPECT(c, router_buffered(&b.r) == 0, "router did not drain");
    printf("  after diagnosis: 75 packets to group %d, %ld routed around, %ld discarded, 0 via the dead port\n", target,
           other, discarded);
    teardown(&b);

    /* the same packets without the fault: the direct global port is used (the check can fail) */
    setup(c, &b, "small", 10);
    send_to_group(&b, target, dead, &via_dead, &other, &discarded);
    EXPECT(c, via_dead > 0, "without a fault no packet used the global port: the test above proves nothing");
    teardown(&b);
}

/* FD and FR packets arriving on a link: to the unit, not the buffers; credited after the fetch. */
static void test_packets_in(test_ctx *c) {
    bench b;
    setup(c, &b, "small", 10);
    /* the group behind the first global port is unreachable through it: its zone-G entries lose
     * that option, and the terminal inputs' entries with no other option tell the neighbours */
    int port = b.t.first_global;
    int far = topo_gport_target(&b.t, b.cfg.gid, topo_group_port(&b.t, b.cfg.bid, port));
    fault_msg fd = {FMSG_FD, FAULT_PREFIX_GROUP, FAULT_ROLE_TRANSIT | FAULT_ROLE_SOURCE, (uint16_t)far, 0, 0};
    router_in in;
    router_out out;
    long credit_at = -1;
    memset(&in, 0, sizeof in);
    in.in[port].valid = in.in[port].head = in.in[port].tail = 1;
    in.in[port].data = fault_msg_pack(&fd);
    router_cycle(&b.r, &in, &out); /* cycle 0 */
    fault_tick(&b.ref);
    fault_receive(&b.ref, port, &fd);
    EXPECT(c, router_buffered(&b.r) == 0, "an FD packet entered the VC buffers");
    memset(&in, 0, sizeof in);
    for (int cyc = 1; cyc < 6; cyc++) {
        router_cycle(&b.r, &in, &out);
        fault_tick(&b.ref);
        if (out.ctl_cr_valid[port] && credit_at < 0) credit_at = cyc;
        for (int o = 0; o < b.t.k; o++) EXPECT(c, !out.cr_valid[o], "a data credit for a control packet");
    }
    /* fetched by the scheduler in cycle 1 (t1), the credit register shows it in cycle 2 */
    EXPECT(c, credit_at == 2, "control credit in cycle %ld, want 2", credit_at);
    EXPECT(c, b.r.fu->st.commands[FCMD_MATCH_FD] == 1, "no Match_FD ran");
    long sent;
    run_against_ref(c, &b, 6, 2000, &sent);
    EXPECT(c, sent > 0, "the FD changed nothing the neighbours need to know");
    printf("  FD packet in: credited in cycle %ld, %ld FD packets propagated\n", credit_at, sent);

    /* without a free control credit nothing is sent; with one it is */
    teardown(&b);
    setup(c, &b, "small", 10);
    memset(&in, 0, sizeof in);
    in.ev_valid = 1;
    in.ev_kind = FEV_LINK_DOWN;
    in.ev_port = b.t.first_global;
    router_cycle(&b.r, &in, &out);
    memset(&in, 0, sizeof in);
    long ctl_out = 0;
    for (int cyc = 1; cyc < 400; cyc++) { /* no control credit ever returns */
        router_cycle(&b.r, &in, &out);
        for (int o = 0; o < b.t.k; o++) ctl_out += out.out[o].valid;
    }
    long bound = 0;
    for (int o = 0; o < b.t.k; o++)
        if (topo_port_class(&b.t, o) != PORT_TERMINAL && o != b.t.first_global) bound += b.prm.ctl_depth;
    EXPECT(c, ctl_out > 0 && ctl_out <= bound, "%ld control flits sent with %ld credits", ctl_out, bound);
    teardown(&b);
}

/* Packets routed to a port the unit knows down leave (and are lost on the link): the router
 * never blocks behind a dead link, and the heads that find no option are drained and reported. */
static void test_dead_link_drains(test_ctx *c) {
    bench b;
    setup(c, &b, "small", 10);
    int dead = b.t.first_global;
    int target = topo_gport_target(&b.t, b.cfg.gid, topo_group_port(&b.t, b.cfg.bid, dead));
    router_in in;
    router_out out;
    long injected = 0, out_flits = 0;
    for (int cyc = 0; cyc < 3000; cyc++) {
        memset(&in, 0, sizeof in);
        if (cyc == 0) {
            in.ev_valid = 1;
            in.ev_kind = FEV_LINK_DOWN;
            in.ev_port = dead;
        }
        /* no data credit ever returns on the dead port; the others return at once */
        for (int o = 0; o < b.t.k; o++)
            if (o != dead) {
                in.cr_valid[o] = 1;
                in.cr_vc[o] = (uint8_t)(cyc & 3);
                in.ctl_cr_valid[o] = 1;
            }
        if (cyc < 2000 && cyc % 2 == 0) { /* 1-flit packets from both terminals to the far group */
            int t = (cyc / 2) % b.t.p;
            in.in[t].valid = in.in[t].head = in.in[t].tail = 1;
            in.in[t].vc = (uint8_t)((cyc / 4) & 3);
            in.in[t].data = flit_header(target, (cyc / 8) % b.t.a, 0, b.cfg.gid, 0, 0, 1, cyc);
            injected++;
        }
        router_cycle(&b.r, &in, &out);
        for (int o = 0; o < b.t.k; o++) out_flits += out.out[o].valid && !fault_is_ctl(&out.out[o]);
    }
    EXPECT(c, router_buffered(&b.r) == 0, "%d flits stuck behind the dead link", router_buffered(&b.r));
    EXPECT(c, out_flits + (long)b.r.discarded_heads == injected, "%ld in, %ld out, %ld discarded", injected, out_flits,
           (long)b.r.discarded_heads);
    EXPECT(c, out.overflow == 0, "overflow 0x%llx", (unsigned long long)out.overflow);
    teardown(&b);
}

/* Random traffic with FD/FR packets and local events mixed in (the env of the RTL lock-step):
 * every packet leaves or is reported discarded, control flits only between packets. */
static void test_mixed(test_ctx *c, const char *name, int router_id, long cycles) {
    bench b;
    setup(c, &b, name, router_id);
    router_in in;
    router_out out;
    long cycle = 0;
    for (; cycle < cycles; cycle++) {
        if (cycle % 500 == 0) {
            int m = (int)(env_rand(&b.env) % 6);
            b.env.load = m == 0 ? 0.0 : m < 3 ? 0.2 : 0.9;
            b.env.drain_prob = (double)(1 + env_rand(&b.env) % 10) / 10.0;
            b.env.ctl_prob = (env_rand(&b.env) % 2) ? 0.02 : 0.0;
            b.env.ev_prob = (env_rand(&b.env) % 2) ? 0.002 : 0.0;
        }
        env_drive(&b.env, cycle, &in);
        router_cycle(&b.r, &in, &out);
        env_observe(&b.env, cycle, &in, &out);
        if (cycle % 1000 == 0) env_check_stuck(&b.env, cycle, 20000);
    }
    b.env.injecting = 0;
    b.env.ctl_prob = b.env.ev_prob = 0;
    b.env.drain_prob = 1.0;
    for (long n = 0; n < 40000 && (b.env.live_pkts || router_buffered(&b.r) || !fault_idle(b.r.fu)); n++, cycle++) {
        env_drive(&b.env, cycle, &in);
        router_cycle(&b.r, &in, &out);
        env_observe(&b.env, cycle, &in, &out);
    }
    EXPECT(c, b.env.errors == 0, "%s: %ld errors, first: %s", name, b.env.errors, b.env.first_error);
    EXPECT(c, b.env.live_pkts == 0 && router_buffered(&b.r) == 0, "%s: %ld packets never left", name, b.env.live_pkts);
    EXPECT(c, b.env.ctl_in > 100 && b.env.ctl_out > 0 && b.env.events > 5, "%s: too little fault traffic", name);
    EXPECT(c, b.env.mask_discards == (long)b.r.discarded_heads - b.env.bad_discards,
           "%s: discards seen %ld + %ld, router counted %ld", name, b.env.mask_discards, b.env.bad_discards,
           (long)b.r.discarded_heads);
    printf("  %s router %d: %ld cycles, %ld packets, %ld FD/FR in, %ld out, %ld events, %ld packets discarded "
           "(options masked), %ld (bad destination)\n",
           name, router_id, cycle, b.env.injected_pkts, b.env.ctl_in, b.env.ctl_out, b.env.events, b.env.mask_discards,
           b.env.bad_discards);
    teardown(&b);
}

int main(void) {
    test_ctx c = {0, 0, "test_router_fault"};
    test_event(&c);
    test_packets_in(&c);
    test_dead_link_drains(&c);
    test_mixed(&c, "small", 10, 60000);
    test_mixed(&c, "mid", 100, 30000);
    return test_finish(&c);
}
