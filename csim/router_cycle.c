/* router_cycle — the router's structural top (csim/router.h; rtl/router.v): one cycle calls the
 * units in the order rtl/router.v's compute. router.c holds the router's set-up (parameters, init,
 * reset, free). This file and the unit files router_*.c are compiled twice: as they are, and in
 * csim/router_fixed.c for the default router (S = 2, 4 VCs) with those as constants (speed only;
 * ROUTER_NP / ROUTER_VCS, router.h); router_cycle_ref runs that copy when the router has them. */
#include "router.h"

#include "router_alloc.h"
#include "router_bulletin.h"
#include "router_input.h"
#include "router_output.h"
#include "router_xbar.h"

#include <string.h>

/* Clears the register set ro for a new cycle: every entry its masks name, then the masks. */
static void regs_clear(router_out *ro) {
    for (uint64_t m = ro->out_ports; m; m &= m - 1) memset(&ro->out[__builtin_ctzll(m)], 0, sizeof ro->out[0]);
    for (uint64_t m = ro->cr_ports; m; m &= m - 1) {
        int o = __builtin_ctzll(m);
        ro->cr_valid[o] = 0;
        ro->cr_vc[o] = 0;
    }
    for (uint64_t m = ro->ctl_cr_ports; m; m &= m - 1) ro->ctl_cr_valid[__builtin_ctzll(m)] = 0;
    for (uint64_t m = ro->discard; m; m &= m - 1) ro->discard_vcs[__builtin_ctzll(m)] = 0;
    ro->sb_valid = 0;
    ro->sb_bits = 0;
    ro->overflow = 0;
    ro->discard = 0;
    ro->discard_marked = 0;
    ro->out_ports = ro->cr_ports = ro->ctl_cr_ports = 0;
}

#ifndef ROUTER_FIXED_COPY
void router_cycle(router *r, const router_in *in, router_out *out) { *out = *router_cycle_ref(r, in, NULL); }
#endif

/* ---- fault unit wiring (csim/fault.h calling order; rtl/router.v's g_fault) ---- */

/* Start of the cycle: the unit's outputs and readiness. */
static void fault_start(router *r, router_wires *w) {
    fault_unit *fu = r->fu;
    const int k = r->t.k;
    w->port_down = r->link_dn;
    w->ev_ready = fault_event_ready(fu);
    for (int o = 0; o < k; o++) {
        w->ctl_ready[o] = fault_receive_ready(fu, o);
        if (r->ctl_cred[o] > 0 && fault_out_head(fu, o, &w->ctl_msg[o])) w->ctl_wait |= (uint64_t)1 << o;
        /* the synchronous mask read for the RCU (read before this cycle's writes) */
        int row = rcu_mask_row(&r->rcus[o]);
        w->inv_next[o] = (row >= 0 && row < fu->et_num) ? ~fault_read_mask(fu, o, row) & w->kmask : 0;
    }
}

/* End of the cycle: the masks read become the RCUs' (one cycle late), the tick, then this cycle's
 * inputs (seen from the next cycle). */
static void fault_end(router *r, const router_in *in, router_wires *w) {
    fault_unit *fu = r->fu;
    const int k = r->t.k;
    router_out *nx = w->nx;
    memcpy(r->inv_q, w->inv_next, (size_t)k * sizeof w->inv_next[0]);
    fault_tick(fu);
    if (fu->in_taken >= 0) {
        nx->ctl_cr_valid[fu->in_taken] = 1;
        nx->ctl_cr_ports |= (uint64_t)1 << fu->in_taken;
    }
    if (in->ev_valid) {
        if (w->ev_ready && in->ev_port >= 0 && in->ev_port < k && in->ev_kind >= FEV_LINK_DOWN &&
            in->ev_kind <= FEV_UP) {
            fault_event(fu, (fault_event_kind)in->ev_kind, in->ev_port);
            if (in->ev_kind == FEV_UP)
                r->link_dn &= ~((uint64_t)1 << in->ev_port);
            else
                r->link_dn |= (uint64_t)1 << in->ev_port;
        } else
            r->events_dropped++;
    }
    for (uint64_t mi = w->pm.in & w->kmask; mi; mi &= mi - 1) {
        int i = __builtin_ctzll(mi);
        const flit *f = &in->in[i];
        if (!fault_is_ctl(f)) continue;
        fault_msg m;
        fault_msg_unpack(f->data, &m);
        if (w->ctl_ready[i] && (m.kind == FMSG_FD || m.kind == FMSG_FR)) {
            fault_receive(fu, i, &m);
        } else { /* no control credit was free, or not a message: a protocol error */
            r->ctl_dropped++;
            nx->overflow |= (uint64_t)1 << i;
        }
    }
}

/* One cycle, structural: the units in the order rtl/router.v's compute (the state they read is
 * the state at the start of the cycle wherever the RTL reads a register). */
const router_out *router_cycle_ref(router *r, const router_in *in, const router_in_ports *ports) {
#ifndef ROUTER_FIXED_COPY
    if (r->np == ROUTER_FIXED_NP && r->prm.vcs == ROUTER_FIXED_VCS) return router_cycle_ref_fixed(r, in, ports);
#endif
    const topo *t = &r->t;
    const int k = t->k;
    router_wires w; /* only what each unit defines is read: no clearing of the big arrays */
    if (ports) {
        w.pm = *ports;
    } else {
        w.pm = (router_in_ports){0, 0, 0, 0};
        for (int i = 0; i < k; i++) {
            if (in->in[i].valid) w.pm.in |= (uint64_t)1 << i;
            if (in->cr_valid[i]) w.pm.cr |= (uint64_t)1 << i;
            if (in->sb_valid[i]) w.pm.sb |= (uint64_t)1 << i;
            if (in->ctl_cr_valid[i]) w.pm.ctl_cr |= (uint64_t)1 << i;
        }
    }
    w.regs = &r->regs[r->cur];
    w.nx = &r->regs[r->cur ^ 1];
    regs_clear(w.nx);
    w.kmask = k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << k) - 1);
    memcpy(w.occ, r->occ, (size_t)k * sizeof w.occ[0]);
    /* the congestion unit's occupancy (read at the end of the cycle, on the state at its start):
     * intra-group and global ports count the flits routed to them and waiting here besides their
     * credits (architecture.md "Congestion") */
    memcpy(w.cong_occ, r->occ, (size_t)k * sizeof w.cong_occ[0]);
    if (r->prm.cong_demand)
        for (int o = t->first_local; o < k; o++) w.cong_occ[o] += r->demand[o];
    w.ctl_wait = w.ctl_ports = w.port_down = 0;
    w.ev_ready = 0;
    memset(w.taken, 0, sizeof w.taken); /* all of them: constant sizes are stores, k bytes a call */
    memset(w.popped, 0, sizeof w.popped);
    memset(w.rpopped, 0, sizeof w.rpopped);
    w.popped_ports = 0;
    memset(w.written, 0, sizeof w.written);
    w.reqs = r->pr_nx_req;
    w.req_pl_vcs = r->pr_nx_pl_vcs;

    if (r->fu) fault_start(r, &w);
    router_output_link(r, &w);                  /* one flit per output onto the link registers */
    router_alloc_take(r, &w);                   /* the decisions granted now take their credits and room */
    if (r->gh_ports) router_alloc_ghost(r, -1); /* what proposals and the check read leaves out the ghost too */
    router_input_propose(r, &w);                /* every VC's proposal, for the proposal register */
    router_alloc_check(r, &w);                  /* the check of last cycle's wins, across planes from the wins */
    if (r->gh_ports) router_alloc_ghost(r, +1); /* (no ghost, nothing to do: speed only) */
    router_alloc_arbitrate(r, &w);              /* stage 2 */
    router_input_requests(r, &w);               /* the proposal register, masked from registers */
    router_alloc_pick(r, &w);                   /* stage 1 */
    router_bulletin_next(r, &w);                /* the reservation after the edge */
    router_xbar_store(r, &w);                   /* last cycle's crossbar writes enter the output queues */
    router_input_move(r, &w);                   /* streams and last cycle's grants into router_xbar */
    router_input_grant(r, &w);                  /* the decisions granted now: slots, route entries; the grant stage */
    router_xbar_count(r, &w);
    router_alloc_edge(r, &w);
    router_input_edge(r, &w); /* this cycle's proposals into the proposal register */
    router_bulletin_edge(r, &w);
    router_output_room(r, &w);   /* the room the link stage freed */
    router_input_credits(r, &w); /* credits upstream */
    if (r->pol) policy_tick(r->pol, w.taken);
    router_output_ctl(r, &w);         /* FD/FR packets leave on the ports the link stage gave them */
    router_output_credits(r, in, &w); /* credits returned by the downstream routers */
    router_input_route(r, in, &w);    /* route-compute units, route FIFOs, arrivals */
    if (r->fu) fault_end(r, in, &w);
    w.nx->overflow |= w.regs->overflow;

    /* ---- cong, side-band, multicast table ---- */
    cong_cycle(&r->cg, w.cong_occ, w.pm.sb, in->sb_bits, w.room_ports);
    w.nx->sb_valid = (uint8_t)cong_sb_valid(&r->cg);
    w.nx->sb_bits = cong_sb_bits(&r->cg);
    if (in->mw_valid) mcast_write(&r->mc, in->mw_port & 63, in->mw_group & 255, in->mw_set);

    r->cur ^= 1; /* the clock edge */
    r->now++;
    return w.regs;
}
