#include "router_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t env_rand(router_env *e) {
    uint64_t x = e->rng.s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    e->rng.s = x;
    return x * 0x2545F4914F6CDD1Dull;
}
static int below(router_env *e, int n) { return (int)(env_rand(e) % (uint64_t)n); }
static int chance(router_env *e, double p) { return (double)(env_rand(e) >> 11) * (1.0 / 9007199254740992.0) < p; }

static void fail(router_env *e, const char *msg) {
    if (e->errors++ == 0) snprintf(e->first_error, sizeof e->first_error, "%s", msg);
}

uint64_t env_random_mset(router_env *e, int in_port) {
    uint64_t s = 0;
    while (!s) {
        for (int o = 0; o < e->t->k; o++)
            if (o != in_port && chance(e, 0.35)) s |= (uint64_t)1 << o;
    }
    return s;
}

int env_init(router_env *e, const topo *t, const table_set *ts, const router_params *prm, int router_id,
             uint64_t seed) {
    memset(e, 0, sizeof *e);
    e->t = t;
    e->ts = ts;
    e->prm = prm;
    e->router_id = router_id;
    e->gid = topo_gid(t, router_id);
    e->bid = topo_bid(t, router_id);
    e->rng.s = seed * 0x9E3779B97F4A7C15ull + 1;
    e->pkts = calloc(ENV_MAX_TAGS, sizeof *e->pkts);
    if (!e->pkts) return -1;
    /* the mask model: a fault unit of the env's own for this router (see router_env.h) */
    char err[DOAR_ERRLEN];
    e->fu = calloc(1, sizeof *e->fu);
    if (!e->fu || fault_init(e->fu, ts, router_id, err)) {
        free(e->fu);
        free(e->pkts);
        e->fu = NULL;
        e->pkts = NULL;
        return -1;
    }
    for (int i = 0; i < ROUTER_MAX_PORTS; i++)
        for (int s = 0; s < ENV_RECENT; s++) e->recent[i][s] = -1;
    e->load = 0.5;
    e->mcast_frac = 0.1;
    e->drain_prob = 0.8;
    e->sb_prob = 0.05;
    e->injecting = 1;
    e->mgroups = prm->mgroups;
    e->bad_header_frac = 0.005;
    e->hot_frac = 0.0;
    e->hot_bid = -1;
    for (int o = 0; o < ROUTER_MAX_PORTS; o++) {
        e->drain_port[o] = -1.0;
        e->port_pkt[o] = -1;
        e->probe_tag[o] = -1;
    }
    for (int i = 0; i < t->k; i++) {
        for (int v = 0; v < 4; v++) e->up_cred[i][v] = prm->depth[topo_port_class(t, i)];
        e->cur_left[i] = 0;
        e->up_ctl[i] = prm->ctl_depth;
    }
    return 0;
}

void env_free(router_env *e) {
    free(e->pkts);
    e->pkts = NULL;
    if (e->fu) fault_free(e->fu);
    free(e->fu);
    e->fu = NULL;
}

/* The output ports the tables allow for a unicast header arriving on in_port. */
static uint64_t allowed_ports(router_env *e, int in_port, uint64_t hdr) {
    const table_set *ts = e->ts;
    int index;
    table_zone z = tables_zone(e->gid, e->bid, flit_dst_gid(hdr), flit_dst_bid(hdr), flit_dst_nid(hdr), &index);
    const port_tables *pt = tables_port(ts, e->router_id, in_port);
    uint64_t ea = pt->a[tables_row_a(ts, z, index)];
    uint64_t eb = z == ZONE_N ? 0 : pt->b[tables_row_b(ts, z, index)];
    if (tables_is_global_config(topo_port_class(e->t, in_port), z)) {
        rta_classes cl;
        tables_rta_classes(ts, e->router_id, ea, eb, flit_dst_bid(hdr), &cl);
        return tables_rta_ports(ts, pt, e->router_id, &cl);
    }
    return tables_rtb_ports(e->t, z, ea, eb, flit_src_gid(hdr) == e->gid, NULL, NULL);
}

/* A new packet on input i. probe_vc >= 0: an overflow probe, a legal one-flit unicast on that VC
 * sent without a credit (env_drive); otherwise, with proto_prob, a header whose len is 0 or above
 * max_len (the flits sent are still 1..max_len, the last one the tail): drained. */
static void new_packet(router_env *e, int i, int probe_vc) {
    const topo *t = e->t;
    int tag = -1;
    for (int n = 0; n < ENV_MAX_TAGS; n++) {
        int c = (e->next_tag + n) % ENV_MAX_TAGS;
        if (!e->pkts[c].live) {
            tag = c;
            break;
        }
    }
    if (tag < 0) return;
    e->next_tag = (tag + 1) % ENV_MAX_TAGS;
    int len = chance(e, e->short_frac) ? 1 : 1 + below(e, e->prm->max_len);
    port_class pc = topo_port_class(t, i);
    int vc = pc == PORT_TERMINAL ? 0 : below(e, 4);
    int mc = chance(e, e->mcast_frac);
    int hdr_len = len, badlen = 0;
    if (probe_vc >= 0) {
        vc = probe_vc;
        len = hdr_len = 1;
        mc = 0;
    } else if (chance(e, e->proto_prob)) {
        badlen = 1;
        int over = FLIT_MAX_LEN - e->prm->max_len; /* lengths the 4-bit field holds above max_len */
        hdr_len = over > 0 && chance(e, 0.5) ? e->prm->max_len + 1 + below(e, over) : 0;
    }
    int grp = below(e, e->mgroups);
    int zsel = below(e, 4);
    int dg = zsel < 2 ? e->gid : below(e, t->g);
    int db = zsel == 0 ? e->bid : below(e, t->a);
    int dn = below(e, t->p);
    int sg = (pc == PORT_TERMINAL || chance(e, 0.5)) ? e->gid : below(e, t->g);
    /* a hot spot: the planes deliver up to S flits a cycle into one port's queues while its link
     * takes one (a queue fills only while the link serves another plane's queue) */
    if (!mc && probe_vc < 0 && e->hot_frac > 0 && e->hot_bid != e->bid && chance(e, e->hot_frac)) {
        dg = e->gid;
        db = e->hot_bid;
    }
    int bad = !mc && probe_vc < 0 && chance(e, e->bad_header_frac);
    if (bad) { /* a destination field out of range: the router must drain the packet */
        int which = below(e, 3);
        if (which == 0)
            dg = t->g + below(e, 2048 - t->g);
        else if (which == 1)
            db = t->a + below(e, 64 - t->a);
        else if (t->p < 64)
            dn = t->p + below(e, 64 - t->p);
        else
            dg = t->g + below(e, 2048 - t->g);
    }
    /* a terminal input whose table C rows all name a port >= k (env_setup): every zone-G unicast
     * from it takes a table C item, so it is drained (docs/architecture.md "Protocol errors") */
    int tablec = !mc && !bad && ((e->c_bad_ports >> i) & 1) && dg != e->gid;
    uint64_t hdr = flit_header(dg, db, dn, sg, mc, grp, hdr_len, tag);
    if (badlen)
        e->proto_len++;
    else if (tablec)
        e->proto_tablec++;
    bad = bad || badlen || tablec;
    env_pkt *p = &e->pkts[tag];
    memset(p, 0, sizeof *p);
    p->live = 1;
    p->mcast = (uint8_t)mc;
    p->vc = (uint8_t)vc;
    p->expect_discard = (uint8_t)bad;
    p->in_port = i;
    p->len = len;
    p->born = -1;
    p->first_head = -1;
    p->expect_ports = bad ? 0 : mc ? e->mcast_sets[i][grp] : allowed_ports(e, i, hdr);
    p->dest_group = (uint8_t)(flit_dst_gid(hdr) == e->gid && flit_src_gid(hdr) != e->gid);
    if (!bad && !mc) { /* the fault units' entry for it: table A's row (rcu_mask_row) */
        int index;
        table_zone z = tables_zone(e->gid, e->bid, dg, db, dn, &index);
        p->entry = fault_entry_of(e->ts, z, index);
    }
    int *q = e->vcq[i][vc];
    if (e->vcq_n[i][vc] < ENV_VCQ)
        q[(e->vcq_head[i][vc] + e->vcq_n[i][vc]++) % ENV_VCQ] = tag;
    else
        fail(e, "env: more packets waiting in one input VC than the ledger holds");
    e->cur_tag[i] = tag;
    e->cur_left[i] = len;
    e->cur_len[i] = len;
    e->cur_vc[i] = vc;
    e->cur_hdr[i] = hdr;
    if (bad)
        e->discarded_pkts++;
    else
        e->live_pkts++;
    e->injected_pkts++;
    if (mc)
        e->stat_mcast++;
    else if (!bad)
        e->stat_unicast++;
    if (probe_vc >= 0) {
        e->probe_tag[i] = tag;
        e->ovf_probes++;
    }
}

void env_drive(router_env *e, long cycle, router_in *in) {
    const topo *t = e->t;
    memset(in, 0, sizeof *in);
    for (int i = 0; i < t->k; i++) {
        if (!e->cur_left[i] && e->ctl_prob > 0 && topo_port_class(t, i) != PORT_TERMINAL && e->up_ctl[i] > 0 &&
            chance(e, e->ctl_prob)) { /* an FD/FR packet between packets */
            fault_msg m;
            m.kind = (uint8_t)(chance(e, 0.5) ? FMSG_FD : FMSG_FR);
            m.prefix = (uint8_t)(1 + below(e, 3));
            m.role = (uint8_t)(1 + below(e, 3));
            m.g = (uint16_t)below(e, t->g);
            m.b = (uint8_t)below(e, t->a);
            m.n = (uint8_t)below(e, t->p);
            flit *f = &in->in[i];
            f->valid = f->head = f->tail = 1;
            f->vc = (uint8_t)below(e, 4);
            f->data = fault_msg_pack(&m);
            e->up_ctl[i]--;
            e->ctl_in++;
            if (fault_receive_ready(e->fu, i)) { /* the router's unit takes it at the cycle's end */
                e->pend_ctl |= (uint64_t)1 << i;
                e->pend_msg[i] = m;
            }
            continue;
        }
        /* an overflow probe: a one-flit packet on a VC without credits, which is full unless
         * flits left it whose credits are still on their way. At most one probe waits per port,
         * and none once the port's sticky overflow flag is set (a later drop could not be told). */
        int probe = 0;
        if (!e->cur_left[i] && e->injecting && e->ovf_prob > 0 && e->probe_tag[i] < 0 && !((e->ovf_seen >> i) & 1) &&
            chance(e, e->ovf_prob)) {
            int pv = topo_port_class(t, i) == PORT_TERMINAL ? 0 : below(e, 4);
            if (e->up_cred[i][pv] <= 0) {
                new_packet(e, i, pv);
                probe = e->cur_left[i] > 0;
                e->probe_at[i] = cycle;
            }
        }
        if (!e->cur_left[i] && e->injecting && chance(e, e->load)) new_packet(e, i, -1);
        if (!e->cur_left[i]) continue;
        int v = e->cur_vc[i];
        if (e->up_cred[i][v] < 1 && !probe) continue;
        int seq = e->cur_len[i] - e->cur_left[i];
        flit *f = &in->in[i];
        f->valid = 1;
        f->vc = (uint8_t)v;
        f->head = seq == 0;
        f->tail = e->cur_left[i] == 1;
        f->data = seq == 0 ? e->cur_hdr[i] : (((uint64_t)e->cur_tag[i] << 16) | (uint64_t)seq);
        if (seq == 0) {
            e->pkts[e->cur_tag[i]].born = cycle;
            e->recent[i][cycle % ENV_RECENT] = e->cur_tag[i];
        }
        e->up_cred[i][v]--;
        e->cur_left[i]--;
        e->injected_flits++;
    }
    for (int o = 0; o < t->k; o++) {
        if (!chance(e, e->drain_port[o] >= 0 ? e->drain_port[o] : e->drain_prob)) continue;
        int v0 = below(e, 4);
        for (int n = 0; n < 4; n++) {
            int v = (v0 + n) % 4;
            if (e->ds_held[o][v] > 0) {
                e->ds_held[o][v]--;
                in->cr_valid[o] = 1;
                in->cr_vc[o] = (uint8_t)v;
                break;
            }
        }
    }
    for (int o = 0; o < t->k; o++)
        if (e->ctl_ret[o] > 0 && chance(e, e->drain_prob)) {
            e->ctl_ret[o]--;
            in->ctl_cr_valid[o] = 1;
        }
    if (e->ev_prob > 0 && t->k > t->p && chance(e, e->ev_prob)) {
        int o = t->p + below(e, t->k - t->p);
        int kind = e->link_down[o]                                            ? FEV_UP
                   : (topo_port_class(t, o) == PORT_LOCAL && chance(e, 0.25)) ? FEV_PEER_DOWN
                                                                              : FEV_LINK_DOWN;
        in->ev_valid = 1;
        in->ev_kind = kind;
        in->ev_port = o;
        if (fault_event_ready(e->fu)) { /* a full event FIFO drops it, in the router as here */
            e->pend_ev = 1;
            e->pend_ev_kind = kind;
            e->pend_ev_port = o;
        }
        e->link_down[o] = kind != FEV_UP;
        e->faulted_ports |= (uint64_t)1 << o;
        e->events++;
    }
    for (int o = t->first_local; o < t->first_global; o++)
        if (chance(e, e->sb_prob)) {
            in->sb_valid[o] = 1;
            in->sb_bits[o] = env_rand(e) & (t->h >= 64 ? ~0ull : ((1ull << t->h) - 1));
        }
}

/* Every option of unicast p was invalid in the mask its route-compute unit read (the mask model's,
 * at ENV_MASK_AT cycles after its head arrived): the router must drain it. */
static int masked(const env_pkt *p) { return p->mask_known && !p->mcast && (p->expect_ports & p->mask_at) == 0; }

/* Takes the j-th waiting packet (0: the oldest) out of input i's VC v queue; returns its tag. */
static int vcq_take(router_env *e, int i, int v, int j) {
    int *q = e->vcq[i][v], h = e->vcq_head[i][v], n = e->vcq_n[i][v];
    int tag = q[(h + j) % ENV_VCQ];
    for (int k = j; k > 0; k--) q[(h + k) % ENV_VCQ] = q[(h + k - 1) % ENV_VCQ];
    e->vcq_head[i][v] = (h + 1) % ENV_VCQ;
    e->vcq_n[i][v] = n - 1;
    return tag;
}

void env_observe(router_env *e, long cycle, const router_in *in, const router_out *out) {
    const topo *t = e->t;
    char msg[256];
    (void)in;
    /* The mask model's state is now the router unit's at the start of this cycle: the masks the
     * route-compute units read in it. A head that arrived ENV_MASK_AT cycles ago is read now. */
    for (int i = 0; i < t->k; i++) {
        int tag = e->recent[i][(cycle - ENV_MASK_AT + ENV_RECENT) % ENV_RECENT];
        if (tag < 0) continue;
        env_pkt *p = &e->pkts[tag];
        if (p->born != cycle - ENV_MASK_AT || p->in_port != i || p->mcast || p->expect_discard || p->mask_known)
            continue;
        p->mask_at = fault_read_mask(e->fu, i, p->entry);
        p->dead_read =
            (uint8_t)((p->expect_ports & p->mask_at) == 0 && (p->expect_ports & fault_mask(e->fu, i, p->entry)));
        p->mask_known = 1;
    }
    for (int i = 0; i < t->k; i++) {
        if (out->cr_valid[i]) e->up_cred[i][out->cr_vc[i] & 3]++;
        if (out->ctl_cr_valid[i]) {
            if (++e->up_ctl[i] > e->prm->ctl_depth) {
                snprintf(msg, sizeof msg, "cycle %ld: port %d: a control credit nobody took", cycle, i);
                fail(e, msg);
            }
        }
        if (!((out->discard >> i) & 1)) continue;
        for (unsigned dm = out->discard_vcs[i] & 15; dm; dm &= dm - 1) {
            int v = __builtin_ctz(dm);
            /* Router v2 grants the packets of an input VC in order but they leave through output
             * queues, so the discarded packet is the oldest one not yet granted, which the outputs
             * cannot tell apart from older ones still queued. Packets are drained in VC order, so
             * it is the oldest waiting packet that must be: a protocol error (bad destination or
             * len, table C port >= k) or one whose options were all masked (masked()). */
            int n = e->vcq_n[i][v], at = -1;
            for (int j = 0; j < n && at < 0; j++) {
                const env_pkt *y = &e->pkts[e->vcq[i][v][(e->vcq_head[i][v] + j) % ENV_VCQ]];
                if (y->expect_discard == 1 || masked(y)) at = j;
            }
            if (at < 0) {
                snprintf(msg, sizeof msg,
                         "cycle %ld: port %d VC %d: a discard that neither a protocol error nor the masks explain",
                         cycle, i, v);
                fail(e, msg);
                continue;
            }
            int tag = vcq_take(e, i, v, at);
            env_pkt *p = &e->pkts[tag];
            if (p->expect_discard == 1) { /* (not counted in live_pkts) */
                e->bad_discards++;
            } else {
                e->mask_discards++;                   /* every option masked: dropped, and accounted for here */
                if (p->dead_read) e->dead_discards++; /* masked as a dead router's entry */
                e->live_pkts--;
            }
            p->expect_discard = 2; /* left (as a discard): a later flit of it is an error */
            p->live = 0;
        }
    }
    for (int o = 0; o < t->k; o++) {
        const flit *f = &out->out[o];
        if (!f->valid) continue;
        if (fault_is_ctl(f)) {
            e->ctl_out++;
            e->ctl_ret[o]++;
            if (topo_port_class(t, o) == PORT_TERMINAL || e->port_pkt[o] >= 0) {
                snprintf(msg, sizeof msg, "cycle %ld: port %d: an FD/FR packet on a terminal port or inside a packet",
                         cycle, o);
                fail(e, msg);
            }
            continue;
        }
        e->delivered_flits++;
        int cap = e->prm->ds_depth[topo_port_class(t, o)];
        if ((e->faulted_ports >> o) & 1) { /* the router refills a dead link's credits */
            if (e->ds_held[o][f->vc & 3] < cap) e->ds_held[o][f->vc & 3]++;
        } else if (++e->ds_held[o][f->vc & 3] > cap) {
            snprintf(msg, sizeof msg, "cycle %ld: port %d VC %d sent beyond its credits", cycle, o, f->vc);
            fail(e, msg);
        }
        int tag = f->head ? flit_tag(f->data) : (int)((f->data >> 16) & 0xffff);
        int seq = f->head ? 0 : (int)(f->data & 0xffff);
        env_pkt *p = &e->pkts[tag];
        if (!p->live) {
            snprintf(msg, sizeof msg, "cycle %ld: port %d: flit of packet %d that is not in flight (duplicate?)", cycle,
                     o, tag);
            fail(e, msg);
            continue;
        }
        if (p->expect_discard) {
            snprintf(msg, sizeof msg,
                     "cycle %ld: port %d: packet %d that must be drained (protocol error) was delivered", cycle, o,
                     tag);
            fail(e, msg);
            continue;
        }
        if (masked(p)) {
            snprintf(msg, sizeof msg,
                     "cycle %ld: port %d: packet %d left though the masks invalidated every option (0x%llx)", cycle, o,
                     tag, (unsigned long long)p->expect_ports);
            fail(e, msg);
            continue;
        }
        if (p->mask_known && !p->mcast && !((p->mask_at >> o) & 1)) {
            snprintf(msg, sizeof msg,
                     "cycle %ld: packet %d left on port %d, an option the mask invalidated (mask 0x%llx)", cycle, tag,
                     o, (unsigned long long)p->mask_at);
            fail(e, msg);
        }
        /* Heads leave in order within an input VC among packets that can only take the same port
         * (one plane, one output queue: FIFO); across ports the output queues may reorder them.
         * With fault traffic too: the masks say which waiting packets are drained instead. */
        if (f->head && (!p->mcast || p->first_head < 0)) {
            int i = p->in_port, v = p->vc, at = -1, n = e->vcq_n[i][v];
            for (int j = 0; j < n && at < 0; j++)
                if (e->vcq[i][v][(e->vcq_head[i][v] + j) % ENV_VCQ] == tag) at = j;
            if (at < 0) {
                snprintf(msg, sizeof msg, "cycle %ld: packet %d left but is not waiting in input %d VC %d", cycle, tag,
                         i, v);
                fail(e, msg);
            } else {
                for (int j = 0; j < at; j++) {
                    const env_pkt *y = &e->pkts[e->vcq[i][v][(e->vcq_head[i][v] + j) % ENV_VCQ]];
                    if (!p->mcast && !y->mcast && !y->expect_discard && !masked(y) &&
                        p->expect_ports == ((uint64_t)1 << o) && y->expect_ports == p->expect_ports) {
                        snprintf(msg, sizeof msg,
                                 "cycle %ld: packet %d left port %d before an older packet of input %d VC %d to it",
                                 cycle, tag, o, i, v);
                        fail(e, msg);
                        break;
                    }
                }
                vcq_take(e, i, v, at);
            }
        }
        /* contiguity: a port carries one packet at a time */
        if (f->head) {
            if (e->port_pkt[o] >= 0) {
                snprintf(msg, sizeof msg, "cycle %ld: port %d: head of packet %d inside packet %d", cycle, o, tag,
                         e->port_pkt[o]);
                fail(e, msg);
            }
            if (!f->tail) e->port_pkt[o] = tag;
            /* a multicast's copies enter their output queues together and leave as their links allow */
            if (p->mcast && p->first_head < 0) p->first_head = cycle;
        } else {
            if (e->port_pkt[o] != tag) {
                snprintf(msg, sizeof msg, "cycle %ld: port %d: body of packet %d while packet %d is in progress", cycle,
                         o, tag, e->port_pkt[o]);
                fail(e, msg);
            }
            if (f->tail) e->port_pkt[o] = -1;
        }
        /* the output VC: the VC rule for unicast, the input VC for multicast */
        {
            int want = p->vc;
            if (!p->mcast) {
                port_class ic = topo_port_class(t, p->in_port), oc = topo_port_class(t, o);
                int lin = ic == PORT_GLOBAL ? 2 : 1, lout = oc == PORT_GLOBAL ? 2 : 1;
                if (ic == PORT_TERMINAL)
                    want = 0;
                else if (p->dest_group && oc == PORT_LOCAL)
                    want = p->vc; /* destination-group refraction (docs/architecture.md) */
                else if (oc != PORT_TERMINAL && lout >= lin)
                    want = p->vc + 1 > 3 ? 3 : p->vc + 1;
            }
            if ((f->vc & 3) != want) {
                snprintf(msg, sizeof msg, "cycle %ld: packet %d (in port %d, vc %d) left port %d on VC %d, want %d",
                         cycle, tag, p->in_port, p->vc, o, f->vc, want);
                fail(e, msg);
            }
        }
        if (!((p->expect_ports >> o) & 1)) {
            snprintf(msg, sizeof msg, "cycle %ld: packet %d from port %d left on port %d, allowed 0x%llx", cycle, tag,
                     p->in_port, o, (unsigned long long)p->expect_ports);
            fail(e, msg);
        }
        if (seq != p->next_seq[o]) {
            snprintf(msg, sizeof msg, "cycle %ld: packet %d on port %d: flit %d, expected %d", cycle, tag, o, seq,
                     p->next_seq[o]);
            fail(e, msg);
        }
        p->next_seq[o] = seq + 1;
        if (f->tail != (seq == p->len - 1)) {
            snprintf(msg, sizeof msg, "cycle %ld: packet %d: tail flag on flit %d of %d", cycle, tag, seq, p->len);
            fail(e, msg);
        }
        if (!f->tail) continue;
        if ((p->seen_ports >> o) & 1) {
            snprintf(msg, sizeof msg, "cycle %ld: packet %d delivered twice on port %d", cycle, tag, o);
            fail(e, msg);
        }
        p->seen_ports |= (uint64_t)1 << o;
        e->delivered_copies++;
        if (p->mcast) e->mcast_copies++;
        int done = p->mcast ? p->seen_ports == p->expect_ports : 1;
        if (!p->mcast && __builtin_popcountll(p->seen_ports) > 1) {
            snprintf(msg, sizeof msg, "cycle %ld: unicast packet %d left on two ports", cycle, tag);
            fail(e, msg);
        }
        if (done) {
            p->live = 0;
            e->live_pkts--;
            if (p->mcast && __builtin_popcountll(p->expect_ports) == 6) e->mcast_six++;
            if (p->mcast && __builtin_popcountll(p->expect_ports) == t->k - 1) e->mcast_all++;
        }
    }
    /* Overflow (sticky per port) is expected only from a probe: its flag rising within
     * ENV_PROBE_WINDOW cycles says the probe was dropped (no credit will come for it, no flit of
     * it may leave); no rise says the VC had room and it is an ordinary packet. */
    for (uint64_t m = out->overflow & ~e->ovf_seen; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        int tag = e->probe_tag[i];
        if (tag < 0) {
            snprintf(msg, sizeof msg, "cycle %ld: input buffer overflow on port %d without a flit beyond credits",
                     cycle, i);
            fail(e, msg);
            continue;
        }
        env_pkt *p = &e->pkts[tag];
        int v = p->vc, n = e->vcq_n[i][v];
        for (int j = 0; j < n; j++)
            if (e->vcq[i][v][(e->vcq_head[i][v] + j) % ENV_VCQ] == tag) {
                vcq_take(e, i, v, j);
                break;
            }
        if (p->live && !p->expect_discard) e->live_pkts--; /* (expected discards are not counted) */
        p->live = 0;
        p->expect_discard = 2; /* a flit of it that leaves is an error */
        e->up_cred[i][v]++;    /* the flit sent without a credit is gone: no credit will return */
        e->probe_tag[i] = -1;
        e->ovf_drops++;
    }
    e->ovf_seen |= out->overflow;
    /* the mask model's end of cycle, in the router's order (csim/router_cycle.c fault_end): the tick,
     * then the event and the FD/FR packets of this cycle */
    fault_tick(e->fu);
    if (e->pend_ev) fault_event(e->fu, (fault_event_kind)e->pend_ev_kind, e->pend_ev_port);
    for (uint64_t m = e->pend_ctl; m; m &= m - 1)
        fault_receive(e->fu, __builtin_ctzll(m), &e->pend_msg[__builtin_ctzll(m)]);
    e->pend_ev = 0;
    e->pend_ctl = 0;
    for (int i = 0; i < t->k; i++)
        if (e->probe_tag[i] >= 0 && cycle - e->probe_at[i] > ENV_PROBE_WINDOW) {
            e->probe_tag[i] = -1;
            e->ovf_accepted++;
        }
}

void env_check_stuck(router_env *e, long cycle, long bound) {
    char msg[256];
    for (int tag = 0; tag < ENV_MAX_TAGS; tag++) {
        env_pkt *p = &e->pkts[tag];
        if (p->live && !p->expect_discard && p->born >= 0 && cycle - p->born > bound) {
            snprintf(msg, sizeof msg, "cycle %ld: packet %d (from port %d, %s) stuck for %ld cycles", cycle, tag,
                     p->in_port, p->mcast ? "multicast" : "unicast", cycle - p->born);
            fail(e, msg);
            p->born = cycle; /* report once per bound */
        }
    }
}

int env_setup(router_env *e, long n, router_in *in) {
    const topo *t = e->t;
    const table_set *ts = e->ts;
    long per_port = ts->depth_a + ts->depth_b + ts->depth_c;
    memset(in, 0, sizeof *in);
    if (n < per_port * t->k) {
        int port = (int)(n / per_port);
        long row = n % per_port;
        const port_tables *pt = tables_port(ts, e->router_id, port);
        in->tw_valid = 1;
        in->tw_port = port;
        if (n == 0 && chance(e, e->tablec_prob)) e->c_bad_ports = (uint64_t)1 << below(e, t->p);
        if (row < ts->depth_a) {
            in->tw_table = 0;
            in->tw_addr = (int)row;
            in->tw_data = pt->a[row];
        } else if (row < ts->depth_a + ts->depth_b) {
            in->tw_table = 1;
            in->tw_addr = (int)(row - ts->depth_a);
            in->tw_data = pt->b[row - ts->depth_a];
        } else {
            in->tw_table = 2;
            in->tw_addr = (int)(row - ts->depth_a - ts->depth_b);
            in->tw_data = pt->c[row - ts->depth_a - ts->depth_b];
        }
        if (in->tw_table == 2 && ((e->c_bad_ports >> port) & 1)) { /* one valid item, port >= k */
            uint8_t item = (uint8_t)(CITEM_VALID | (unsigned)(t->k + below(e, 64 - t->k)));
            in->tw_data = tables_c_entry(&item, 1);
        }
        return 1;
    }
    n -= per_port * t->k;
    if (n < (long)t->k * ts->depth_a) { /* the fault units' options per (port, entry) and role */
        int port = (int)(n / ts->depth_a), entry = (int)(n % ts->depth_a);
        in->fw_valid = 1;
        in->fw_port = port;
        in->fw_entry = entry;
        in->fw_src = fault_entry_options(ts, e->router_id, port, entry, FAULT_ROLE_SOURCE);
        in->fw_int = fault_entry_options(ts, e->router_id, port, entry, FAULT_ROLE_TRANSIT);
        return 1;
    }
    n -= (long)t->k * ts->depth_a;
    if (n < (long)t->k * e->mgroups) {
        int port = (int)(n / e->mgroups), grp = (int)(n % e->mgroups);
        /* group 0: every port but the input (the widest fan-out); group 1: six random ports where
         * k - 1 >= 6 (the lock-step's "multicasts to 6 ports" row; random sets of p = 0.35 reach
         * six ports on small once in ~550 sets); the others random */
        uint64_t all = (t->k >= 64 ? ~0ull : ((1ull << t->k) - 1)) & ~((uint64_t)1 << port);
        uint64_t set = grp == 0 ? all : env_random_mset(e, port);
        if (grp == 1 && t->k - 1 >= 6) {
            set = 0;
            while (__builtin_popcountll(set) < 6) {
                int o = below(e, t->k);
                if (o != port) set |= (uint64_t)1 << o;
            }
        }
        e->mcast_sets[port][grp] = set;
        in->mw_valid = 1;
        in->mw_port = port;
        in->mw_group = grp;
        in->mw_set = set;
        return 1;
    }
    return 0;
}
