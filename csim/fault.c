#include "fault.h"
#include "rr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t bit(int j) { return (uint64_t)1 << j; }

/* ---- FIFOs ---- */

static int fifo_push(fault_fifo *f, int port, const fault_msg *m) {
    if (f->n == f->cap) {
        int cap = f->cap ? f->cap * 2 : 16;
        fault_item *v = malloc((size_t)cap * sizeof *v);
        if (!v) return -1;
        for (int i = 0; i < f->n; i++) v[i] = f->v[(f->head + i) % f->cap];
        free(f->v);
        f->v = v;
        f->cap = cap;
        f->head = 0;
    }
    fault_item *it = &f->v[(f->head + f->n) % f->cap];
    it->port = port;
    it->m = *m;
    f->n++;
    return 0;
}

static fault_item fifo_pop(fault_fifo *f) {
    fault_item it = f->v[f->head];
    f->head = (f->head + 1) % f->cap;
    f->n--;
    return it;
}

static void fifo_free(fault_fifo *f) {
    free(f->v);
    memset(f, 0, sizeof *f);
}

/* ---- entries, options, Aim ---- */

int fault_entry_of(const table_set *ts, table_zone z, int index) { return tables_row_a(ts, z, index); }

uint64_t fault_entry_options(const table_set *ts, int router, int port, int entry, unsigned role) {
    const topo *t = &ts->t;
    const port_tables *pt = tables_port(ts, router, port);
    if (!pt) return 0;
    int index;
    table_zone z = tables_zone_of_row(ts, TABLE_A, entry, &index);
    uint64_t ea = pt->a[entry];
    uint64_t eb = z == ZONE_N ? 0 : pt->b[tables_row_b(ts, z, index)];
    port_class pc = topo_port_class(t, port);
    if (tables_is_global_config(pc, z)) {
        rta_classes cls;
        tables_rta_classes(ts, router, ea, eb, 0, &cls);
        return tables_rta_ports(ts, pt, router, &cls);
    }
    if (z != ZONE_G) return ea | eb;
    /* filter F: only a packet at an intra-group input can still be in its source group */
    int in_source_group = pc == PORT_LOCAL && role == FAULT_ROLE_SOURCE;
    return tables_rtb_ports(t, z, ea, eb, in_source_group, NULL, NULL);
}

int fault_aim(const table_set *ts, int gid, int bid, const fault_msg *m) {
    /* Algorithm 2 lines 17-26: the coarsest of this router's zones that covers the address */
    if (m->prefix == FAULT_PREFIX_GROUP || m->g != gid) return fault_entry_of(ts, ZONE_G, m->g);
    if (m->prefix == FAULT_PREFIX_ROUTER || m->b != bid) return fault_entry_of(ts, ZONE_B, m->b);
    return fault_entry_of(ts, ZONE_N, m->n);
}

static fault_msg entry_address(const fault_unit *fu, int entry) {
    fault_msg m;
    memset(&m, 0, sizeof m);
    m.kind = FMSG_FD;
    int index;
    table_zone z = tables_zone_of_row(fu->ts, TABLE_A, entry, &index);
    m.g = (uint16_t)(z == ZONE_G ? index : fu->gid);
    m.b = (uint8_t)(z == ZONE_G ? 0 : z == ZONE_B ? index : fu->bid);
    m.n = (uint8_t)(z == ZONE_N ? index : 0);
    m.prefix = z == ZONE_G ? FAULT_PREFIX_GROUP : z == ZONE_B ? FAULT_PREFIX_ROUTER : FAULT_PREFIX_NODE;
    return m;
}

/* An entry whose region is a router of this group known to be dead: nobody needs a route
 * there, so losing it is not reported (docs/architecture.md, "Dead regions"). */
static int entry_dead(const fault_unit *fu, int entry) {
    int index;
    table_zone z = tables_zone_of_row(fu->ts, TABLE_A, entry, &index);
    return z == ZONE_B && ((fu->peer_dead >> index) & 1);
}

/* The roles in which entry e of port c has an option in `mask` (all ones: any option). */
static unsigned acc_of(const fault_unit *fu, int c, int e, uint64_t mask) {
    return ((fault_opt(fu, FAULT_ROLE_SOURCE, c, e) & mask) ? FAULT_ROLE_SOURCE : 0u) |
           ((fault_opt(fu, FAULT_ROLE_TRANSIT, c, e) & mask) ? FAULT_ROLE_TRANSIT : 0u);
}

static unsigned roles_with_options(const fault_unit *fu, int c, int e) { return acc_of(fu, c, e, ~(uint64_t)0); }

static uint64_t any_options(const fault_unit *fu, int c, int e) {
    return fault_opt(fu, FAULT_ROLE_SOURCE, c, e) | fault_opt(fu, FAULT_ROLE_TRANSIT, c, e);
}

/* ---- life cycle ---- */

int fault_init(fault_unit *fu, const table_set *ts, int router, char err[DOAR_ERRLEN]) {
    memset(fu, 0, sizeof *fu);
    const topo *t = &ts->t;
    fu->ts = ts;
    fu->router = router;
    fu->gid = topo_gid(t, router);
    fu->bid = topo_bid(t, router);
    fu->k = t->k;
    fu->et_num = ts->depth_a;
    fu->first_b = fault_entry_of(ts, ZONE_B, 0);
    fu->a = t->a;
    size_t n = (size_t)t->k * fu->et_num;
    /* one row of options per distinct (port tables, port class), decoded from its first port */
    int set_ix[DOAR_MAX_RADIX], set_port[DOAR_MAX_RADIX];
    fu->opt_row = calloc((size_t)t->k, sizeof *fu->opt_row);
    for (int c = 0; c < t->k && fu->opt_row; c++) {
        const int32_t ix = ts->port_ix[router * t->k + c];
        int s = 0;
        while (s < fu->opt_sets && !(set_ix[s] == ix && topo_port_class(t, set_port[s]) == topo_port_class(t, c))) s++;
        if (s == fu->opt_sets) {
            set_ix[s] = ix;
            set_port[s] = c;
            fu->opt_sets++;
        }
        fu->opt_row[c] = s * fu->et_num;
    }
    fu->opt_src = calloc((size_t)fu->opt_sets * fu->et_num, sizeof *fu->opt_src);
    fu->opt_int = calloc((size_t)fu->opt_sets * fu->et_num, sizeof *fu->opt_int);
    fu->mask = calloc(n, sizeof *fu->mask);
    fu->acc = calloc(n, sizeof *fu->acc);
    fu->inq = calloc((size_t)t->k, sizeof *fu->inq);
    fu->outq = calloc((size_t)t->k, sizeof *fu->outq);
    fu->out_commit = calloc((size_t)t->k, sizeof *fu->out_commit);
    if (!fu->opt_row || !fu->opt_src || !fu->opt_int || !fu->mask || !fu->acc || !fu->inq || !fu->outq ||
        !fu->out_commit) {
        fault_free(fu);
        snprintf(err, DOAR_ERRLEN, "out of memory for the fault unit of router %d", router);
        return -1;
    }
    for (int s = 0; s < fu->opt_sets; s++)
        for (int e = 0; e < fu->et_num; e++) {
            fu->opt_src[s * fu->et_num + e] = fault_entry_options(ts, router, set_port[s], e, FAULT_ROLE_SOURCE);
            fu->opt_int[s * fu->et_num + e] = fault_entry_options(ts, router, set_port[s], e, FAULT_ROLE_TRANSIT);
        }
    fault_reset(fu);
    return 0;
}

void fault_free(fault_unit *fu) {
    free(fu->opt_src);
    free(fu->opt_int);
    free(fu->opt_row);
    free(fu->mask);
    free(fu->acc);
    for (int c = 0; c < fu->k; c++) {
        if (fu->inq) fifo_free(&fu->inq[c]);
        if (fu->outq) fifo_free(&fu->outq[c]);
    }
    free(fu->inq);
    free(fu->outq);
    free(fu->out_commit);
    fifo_free(&fu->ev);
    memset(fu, 0, sizeof *fu);
}

void fault_reset(fault_unit *fu) {
    for (int c = 0; c < fu->k; c++)
        for (int e = 0; e < fu->et_num; e++) {
            fu->mask[c * fu->et_num + e] = ~(uint64_t)0;
            fu->acc[c * fu->et_num + e] = (uint8_t)roles_with_options(fu, c, e);
        }
    fu->port_down = 0;
    fu->peer_dead = 0;
    fu->ev.n = fu->ev.head = 0;
    for (int c = 0; c < fu->k; c++) {
        fu->inq[c].n = fu->inq[c].head = 0;
        fu->outq[c].n = fu->outq[c].head = 0;
        fu->out_commit[c] = 0;
    }
    fu->out_overflow = 0;
    fu->rr = 0;
    fu->cmd = FCMD_NONE;
    fu->wr_entry = -1;
    fu->in_taken = -1;
}

/* ---- inputs and outputs ---- */

int fault_event_ready(const fault_unit *fu) { return !fu->in_depth || fu->ev.n < FAULT_EV_DEPTH; }

int fault_receive_ready(const fault_unit *fu, int port) { return !fu->in_depth || fu->inq[port].n < fu->in_depth; }

int fault_event(fault_unit *fu, fault_event_kind ev, int port) {
    if (!fault_event_ready(fu)) return -1;
    fault_msg m;
    memset(&m, 0, sizeof m);
    m.kind = (uint8_t)ev;
    if (fifo_push(&fu->ev, port, &m)) abort();
    return 0;
}

int fault_receive(fault_unit *fu, int port, const fault_msg *m) {
    if (!fault_receive_ready(fu, port)) return -1;
    if (fifo_push(&fu->inq[port], port, m)) abort();
    if (fu->inq[port].n > fu->st.max_queue) fu->st.max_queue = fu->inq[port].n;
    return 0;
}

int fault_out_head(const fault_unit *fu, int port, fault_msg *m) {
    if (!fu->out_commit[port]) return 0;
    const fault_fifo *f = &fu->outq[port];
    *m = f->v[f->head].m;
    return 1;
}

void fault_out_take(fault_unit *fu, int port) {
    if (!fu->out_commit[port]) return;
    fifo_pop(&fu->outq[port]);
    fu->out_commit[port]--;
}

int fault_pop(fault_unit *fu, int *port, fault_msg *m) {
    for (int c = 0; c < fu->k; c++)
        if (fault_out_head(fu, c, m)) {
            fault_out_take(fu, c);
            *port = c;
            return 1;
        }
    return 0;
}

int fault_idle(const fault_unit *fu) {
    if (fu->cmd != FCMD_NONE || fu->ev.n) return 0;
    for (int c = 0; c < fu->k; c++)
        if (fu->inq[c].n || fu->out_commit[c]) return 0;
    return 1;
}

int fault_cmd_cycles(const fault_unit *fu, fault_cmd_kind kind) {
    switch (kind) {
        case FCMD_TRAVEL_FD: return FAULT_T1 + FAULT_T2 + FAULT_ACT_CYCLES * fu->et_num;
        case FCMD_MATCH_FD:
        case FCMD_MATCH_FR: return FAULT_T1 + FAULT_T2 + FAULT_ACT_CYCLES;
        case FCMD_TRAVEL_FR: return FAULT_T1 + FAULT_T2 + FAULT_FR_CYCLES * fu->et_num;
        default: return 0;
    }
}

/* ---- the action unit ---- */

static void emit(fault_unit *fu, int port, const fault_msg *m) {
    if (fu->out_depth && fu->outq[port].n >= fu->out_depth) {
        fu->out_overflow |= bit(port);
        return;
    }
    if (fifo_push(&fu->outq[port], port, m)) abort();
    if (m->kind == FMSG_FD)
        fu->st.fd_sent++;
    else
        fu->st.fr_sent++;
}

/* FD_act (Algorithm 2 lines 9-16) on entry `entry` of port `c`, failed port fp. */
static void fd_act(fault_unit *fu, int c, int entry, int fp, const fault_msg *addr) {
    int i = c * fu->et_num + entry;
    if (!(any_options(fu, c, entry) & bit(fp))) return; /* Fp not in et */
    if (!(fu->mask[i] & bit(fp))) return;               /* already invalid */
    fu->mask[i] &= ~bit(fp);
    unsigned now = acc_of(fu, c, entry, fu->mask[i]);
    unsigned lost = fu->acc[i] & ~now;
    fu->acc[i] = (uint8_t)now;
    if (!lost) return; /* other valid options remain */
    if (topo_port_class(&fu->ts->t, c) == PORT_TERMINAL) {
        fu->st.dropped_terminal++;
        return;
    }
    if (entry_dead(fu, entry)) {
        fu->st.suppressed_dead++;
        return;
    }
    fault_msg m = *addr;
    m.kind = FMSG_FD;
    m.role = (uint8_t)lost;
    emit(fu, c, &m);
}

/* After entry `entry` of port c regained roles `gained`: tell upstream (Algorithm 3's
 * "Propagate FR"), addressed like an FD. A router entry (zone B) that completes the set of
 * live routers of this group in some role also announces the whole group (prefix 1), which is
 * what routers of other groups need before they trust this router for the group again. */
static void fr_announce(fault_unit *fu, int c, int entry, unsigned gained, int release) {
    if (!gained || topo_port_class(&fu->ts->t, c) == PORT_TERMINAL || (!release && entry_dead(fu, entry))) return;
    fault_msg m = entry_address(fu, entry);
    m.kind = FMSG_FR;
    m.role = (uint8_t)gained;
    emit(fu, c, &m);
    int index;
    if (tables_zone_of_row(fu->ts, TABLE_A, entry, &index) != ZONE_B) return;
    unsigned whole = gained;
    for (int d = 0; d < fu->ts->t.a && whole; d++) {
        int e = fault_entry_of(fu->ts, ZONE_B, d), i = c * fu->et_num + e;
        if (d == fu->bid || entry_dead(fu, e)) continue;
        whole &= fu->acc[i] | ~roles_with_options(fu, c, e);
    }
    if (!whole) return;
    memset(&m, 0, sizeof m);
    m.kind = FMSG_FR;
    m.prefix = FAULT_PREFIX_GROUP;
    m.g = (uint16_t)fu->gid;
    m.role = (uint8_t)whole;
    fu->st.group_fr++;
    emit(fu, c, &m);
}

/* FR_act (Algorithm 3 lines 5-10) on entry `entry` of port c: validate the option of fp. */
static void fr_act(fault_unit *fu, int c, int entry, int fp) {
    int i = c * fu->et_num + entry;
    if (!(any_options(fu, c, entry) & bit(fp))) return;
    if (fu->mask[i] & bit(fp)) return;
    fu->mask[i] |= bit(fp);
    unsigned now = acc_of(fu, c, entry, fu->mask[i]);
    unsigned gained = now & ~fu->acc[i];
    fu->acc[i] = (uint8_t)now;
    fr_announce(fu, c, entry, gained, 0);
}

/* Travel_FR check pass on the recovered port: the peer has just validated every option through
 * this link, so re-announce what is still unreachable from here. */
static void fr_check(fault_unit *fu, int entry, int fp) {
    int i = fp * fu->et_num + entry;
    unsigned missing = roles_with_options(fu, fp, entry) & ~fu->acc[i];
    if (!missing || topo_port_class(&fu->ts->t, fp) == PORT_TERMINAL || entry_dead(fu, entry)) return;
    fault_msg m = entry_address(fu, entry);
    m.role = (uint8_t)missing;
    emit(fu, fp, &m);
}

/* Aim() for an FR: an FR about one router of another group says nothing about the rest of
 * that group, so it is ignored (-1); the group-level FR that follows covers it. */
static int fr_aim(const fault_unit *fu, const fault_msg *m) {
    if (m->g == fu->gid) {
        if (m->prefix == FAULT_PREFIX_GROUP || m->b == fu->bid) return -1;
        return fault_entry_of(fu->ts, ZONE_B, m->b);
    }
    return m->prefix == FAULT_PREFIX_GROUP ? fault_entry_of(fu->ts, ZONE_G, m->g) : -1;
}

static int applies_to(const fault_unit *fu, int c, unsigned role) {
    port_class pc = topo_port_class(&fu->ts->t, c);
    return (pc == PORT_TERMINAL) ? (role & FAULT_ROLE_SOURCE) != 0 : (role & FAULT_ROLE_TRANSIT) != 0;
}

/* ---- the scheduler ---- */

static int pick(fault_unit *fu) {
    if (fu->ev.n) {
        fault_item it = fifo_pop(&fu->ev);
        fu->cmd_event = it.m.kind;
        fu->cmd_port = it.port;
        fu->cmd = it.m.kind == FEV_UP ? FCMD_TRAVEL_FR : FCMD_TRAVEL_FD;
        return 1;
    }
    uint64_t has = 0; /* the input FIFOs holding a message */
    for (int j = 0; j < fu->k; j++)
        if (fu->inq[j].n) has |= (uint64_t)1 << j;
    const int c = rr_pick(has, fu->rr);
    if (c < 0) return 0;
    fault_item it = fifo_pop(&fu->inq[c]);
    fu->in_taken = c;
    fu->rr = (c + 1) % fu->k;
    fu->cmd_event = 0;
    fu->cmd_port = c;
    fu->cmd_msg = it.m;
    fu->cmd = it.m.kind == FMSG_FR ? FCMD_MATCH_FR : FCMD_MATCH_FD;
    return 1;
}

void fault_tick(fault_unit *fu) {
    fu->wr_entry = -1;
    fu->in_taken = -1;
    if (fu->cmd == FCMD_NONE) {
        if (!pick(fu)) return;
        fu->cmd_phase = 0;
        fu->cmd_len = fault_cmd_cycles(fu, fu->cmd);
        fu->cmd_newly_dead = -1;
        fu->cmd_newly_alive = -1;
    }
    fu->st.busy_cycles++;
    const int p = fu->cmd_phase, fp = fu->cmd_port, first = FAULT_T1 + FAULT_T2;
    if (p == FAULT_T1) {
        /* broadcast: the event's state change, or the entry Aim() selects */
        if (fu->cmd_event) {
            if (fu->cmd_event == FEV_UP)
                fu->port_down &= ~bit(fp);
            else
                fu->port_down |= bit(fp);
            if (topo_port_class(&fu->ts->t, fp) == PORT_LOCAL) {
                int nb = topo_local_peer(&fu->ts->t, fu->bid, fp);
                if (fu->cmd_event == FEV_LINK_DOWN && ((fu->peer_dead >> nb) & 1)) {
                    /* the far router is back but this link is still down: it must be
                     * reachable again, so what cannot reach it is reported again */
                    fu->peer_dead &= ~bit(nb);
                    fu->cmd_newly_alive = nb;
                }
                if (fu->cmd_event == FEV_PEER_DOWN && !((fu->peer_dead >> nb) & 1)) {
                    fu->peer_dead |= bit(nb);
                    fu->cmd_newly_dead = nb;
                }
                if (fu->cmd_event == FEV_UP) fu->peer_dead &= ~bit(nb);
            }
        } else if (fu->cmd == FCMD_MATCH_FD) {
            fu->cmd_entry = fault_aim(fu->ts, fu->gid, fu->bid, &fu->cmd_msg);
        } else if (fu->cmd == FCMD_MATCH_FR) {
            fu->cmd_entry = fr_aim(fu, &fu->cmd_msg);
        }
    }
    if (p >= first) {
        int q = p - first;
        if (fu->cmd == FCMD_TRAVEL_FD && q % FAULT_ACT_CYCLES == FAULT_ACT_CYCLES - 1) {
            int e = q / FAULT_ACT_CYCLES;
            fu->wr_entry = e;
            fault_msg addr = entry_address(fu, e);
            for (int c = 0; c < fu->k; c++) fd_act(fu, c, e, fp, &addr);
            if (fu->cmd_newly_dead >= 0 && e == fault_entry_of(fu->ts, ZONE_B, fu->cmd_newly_dead))
                for (int c = 0; c < fu->k; c++) {
                    /* a router now known dead need not be reached: withdraw what was reported
                     * about it (an FR for its region, and the group if that completes it) */
                    int i = c * fu->et_num + e;
                    if (roles_with_options(fu, c, e) & ~fu->acc[i]) fu->st.releases++;
                    fr_announce(fu, c, e, roles_with_options(fu, c, e) & ~fu->acc[i], 1);
                }
            if (fu->cmd_newly_alive >= 0 && e == fault_entry_of(fu->ts, ZONE_B, fu->cmd_newly_alive))
                for (int c = 0; c < fu->k; c++) {
                    int i = c * fu->et_num + e;
                    unsigned missing = roles_with_options(fu, c, e) & ~fu->acc[i];
                    if (!missing || topo_port_class(&fu->ts->t, c) == PORT_TERMINAL) continue;
                    fu->st.revivals++;
                    fault_msg m = addr;
                    m.role = (uint8_t)missing;
                    emit(fu, c, &m);
                }
        } else if (fu->cmd == FCMD_MATCH_FD && q == FAULT_ACT_CYCLES - 1) {
            fu->wr_entry = fu->cmd_entry;
            for (int c = 0; c < fu->k; c++)
                if (applies_to(fu, c, fu->cmd_msg.role)) fd_act(fu, c, fu->cmd_entry, fp, &fu->cmd_msg);
        } else if (fu->cmd == FCMD_MATCH_FR && q == FAULT_ACT_CYCLES - 1 && fu->cmd_entry >= 0) {
            fu->wr_entry = fu->cmd_entry;
            for (int c = 0; c < fu->k; c++)
                if (applies_to(fu, c, fu->cmd_msg.role)) fr_act(fu, c, fu->cmd_entry, fp);
        } else if (fu->cmd == FCMD_TRAVEL_FR) {
            int validate_len = FAULT_ACT_CYCLES * fu->et_num;
            if (q < validate_len) {
                if (q % FAULT_ACT_CYCLES == FAULT_ACT_CYCLES - 1) {
                    fu->wr_entry = q / FAULT_ACT_CYCLES;
                    for (int c = 0; c < fu->k; c++) fr_act(fu, c, q / FAULT_ACT_CYCLES, fp);
                }
            } else {
                fr_check(fu, q - validate_len, fp);
            }
        }
    }
    if (p == fu->cmd_len - 1) {
        for (int c = 0; c < fu->k; c++) fu->out_commit[c] = fu->outq[c].n;
        fu->st.commands[fu->cmd]++;
        fu->cmd = FCMD_NONE;
        return;
    }
    fu->cmd_phase++;
}

uint64_t fault_msg_pack(const fault_msg *m) {
    return FAULT_CTL_FLAG | ((uint64_t)(m->n & 0x3f) << FLIT_NID_SHIFT) | ((uint64_t)(m->b & 0x3f) << FLIT_BID_SHIFT) |
           ((uint64_t)(m->g & 0x7ff) << FLIT_GID_SHIFT) | ((uint64_t)(m->role & 3) << FAULT_CTL_ROLE_SHIFT) |
           ((uint64_t)(m->prefix & 3) << FAULT_CTL_PREFIX_SHIFT) | ((uint64_t)(m->kind & 3) << FAULT_CTL_KIND_SHIFT);
}

void fault_msg_unpack(uint64_t d, fault_msg *m) {
    m->kind = (uint8_t)((d >> FAULT_CTL_KIND_SHIFT) & 3);
    m->prefix = (uint8_t)((d >> FAULT_CTL_PREFIX_SHIFT) & 3);
    m->role = (uint8_t)((d >> FAULT_CTL_ROLE_SHIFT) & 3);
    m->g = (uint16_t)flit_dst_gid(d);
    m->b = (uint8_t)flit_dst_bid(d);
    m->n = (uint8_t)flit_dst_nid(d);
}
