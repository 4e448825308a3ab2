/*
 * net_params — the network simulator's parameters (net_params, network.h): routing names, the
 * defaults of seed 001 sec. 5 and Table 1, the router's buffers and congestion thresholds derived
 * from the packet length and the link latencies, and the range checks a run passes before
 * anything is allocated.
 *
 * Contract
 *   net_default_params fills every field; net_size_router derives the router's again after
 *   packet_len, the latencies or the thresholds changed; net_check_params returns 0, or -1 with
 *   one line in err, and changes nothing. No state: functions of their arguments alone.
 *   Why a file: the paper's figures and the refusals are read and changed apart from the engine
 *   (issue 23, csim/network.c split by concern).
 */
#include "net_internal.h"

#include <string.h>

/* seed 001 sec. 5 and Table 1 */
#define PAPER_LAT_LOCAL 10
#define PAPER_LAT_GLOBAL 100
#define PAPER_WARMUP 30000
#define PAPER_SAMPLE 10000
#define PAPER_LOCAL_PORT_PKTS 32   /* local port buffer, packets */
#define PAPER_GLOBAL_PORT_PKTS 256 /* global port buffer, packets */
#define PAPER_TL_PKTS 10           /* seed 001's local congestion threshold, packets */
/* Ours: twice the paper's, because the congestion of an intra-group port also counts the packets
 * waiting for it here (docs/network.md "Demand"); at 10 packets UR traffic leaves minimal paths. */
#define NET_TL_PKTS (2 * PAPER_TL_PKTS)
#define PAPER_TG_PKTS 30 /* global congestion threshold, packets */
/* ours */
#define DEFAULT_LAT_TERMINAL 1
#define DEFAULT_PACKET_LEN 4
#define DEFAULT_DRAIN_LIMIT PAPER_SAMPLE /* measured drain, injection on */
#define DEFAULT_WATCHDOG 10000
#define WATCHDOG_MARGIN 64 /* cycles beyond two link round trips: router pipelines */
#define MAX_LATENCY 100000
#define MAX_PHASE 1000000000L

int net_parse_routing(const char *name, net_routing *out, char err[DOAR_ERRLEN]) {
    if (policy_parse(name, out) == 0) return 0;
    snprintf(err, DOAR_ERRLEN, "routing '%s': unknown (min val ugal_l ugal_g par par_ph ugal_le tpr doar)", name);
    return -1;
}

const char *net_routing_name(net_routing r) { return policy_name(r); }

void net_size_router(const topo *t, net_params *p) {
    router_default_params(t, &p->rprm);
    int len = p->packet_len, vcs = policy_vcs(p->routing);
    /* a port's buffer is the paper's whatever the VC count (Table 1): split over the VCs */
    int local_vc = PAPER_LOCAL_PORT_PKTS / vcs * len;
    int global_vc = PAPER_GLOBAL_PORT_PKTS / vcs * len;
    p->rprm.vcs = vcs;
    p->rprm.pol.kind = p->routing;
    p->rprm.max_len = len;
    p->rprm.oq_depth = p->oq_pkts * len;     /* whole packets (router_check_params: <= VCBUF_MAX_DEPTH) */
    p->rprm.depth[PORT_TERMINAL] = local_vc; /* injection buffers as intra-group ones */
    p->rprm.depth[PORT_LOCAL] = local_vc;
    p->rprm.depth[PORT_GLOBAL] = global_vc;
    for (int c = 0; c < 3; c++) p->rprm.ds_depth[c] = p->rprm.depth[c];
    p->rprm.tl = p->tl_pkts * len;
    p->rprm.tg = p->tg_pkts * len;
    int in_flight_l = (2 * p->lat_local + NET_ROUTER_PIPELINE + len) * p->threshold_util / 100;
    int in_flight_g = (2 * p->lat_global + NET_ROUTER_PIPELINE + len) * p->threshold_util / 100;
    if (p->rprm.tl < in_flight_l) p->rprm.tl = in_flight_l;
    if (p->rprm.tg < in_flight_g && !p->cong_window) p->rprm.tg = in_flight_g;
    /* only DOAR reads the congestion unit: the route policies never need the window */
    p->rprm.cong_rtt = p->cong_window && p->routing == NET_ROUTING_DOAR ? 2 * p->lat_global + NET_ROUTER_PIPELINE : 0;
    p->rprm.cong_demand = p->cong_demand;
    p->rprm.speedup = p->speedup;
}

void net_default_params(const topo *t, net_params *p) {
    memset(p, 0, sizeof *p);
    p->routing = NET_ROUTING_DOAR;
    p->traffic.kind = TRAFFIC_UR;
    p->rate = 0.0;
    p->packet_len = DEFAULT_PACKET_LEN;
    p->lat_local = PAPER_LAT_LOCAL;
    p->lat_global = PAPER_LAT_GLOBAL;
    p->lat_terminal = DEFAULT_LAT_TERMINAL;
    p->seed = 1;
    p->warmup = PAPER_WARMUP;
    p->sample = PAPER_SAMPLE;
    p->drain_limit = DEFAULT_DRAIN_LIMIT;
    p->watchdog = DEFAULT_WATCHDOG;
    p->fault_links = 0;
    p->fault_routers = 0;
    p->fault_at = 0;
    p->repair_at = -1;
    p->tl_pkts = NET_TL_PKTS;
    p->tg_pkts = PAPER_TG_PKTS;
    p->threshold_util = NET_THRESHOLD_UTIL_DEFAULT;
    p->cong_demand = 1;
    p->cong_window = 1;
    p->speedup = 2;
    p->oq_pkts = NET_OQ_PKTS;
    tables_default_params(&p->tprm);
    net_size_router(t, p);
}

int net_check_params(const topo *t, const net_params *p, char err[DOAR_ERRLEN]) {
    if (!(p->rate >= 0.0 && p->rate <= 1.0)) {
        snprintf(err, DOAR_ERRLEN, "rate %g: must be 0..1 flits/node/cycle", p->rate);
        return -1;
    }
    if (p->packet_len < NET_MIN_PACKET_LEN || p->packet_len > FLIT_MAX_LEN) {
        snprintf(err, DOAR_ERRLEN, "packet length %d: must be %d..%d flits", p->packet_len, NET_MIN_PACKET_LEN,
                 FLIT_MAX_LEN);
        return -1;
    }
    if (p->packet_len > p->rprm.max_len) {
        snprintf(err, DOAR_ERRLEN, "packet length %d exceeds the router's max_len %d", p->packet_len, p->rprm.max_len);
        return -1;
    }
    int lat[3] = {p->lat_terminal, p->lat_local, p->lat_global};
    for (int c = 0; c < 3; c++)
        if (lat[c] < 1 || lat[c] > MAX_LATENCY) {
            snprintf(err, DOAR_ERRLEN, "link latencies must be 1..%d cycles", MAX_LATENCY);
            return -1;
        }
    if (p->rprm.cong_rtt > ROUTER_MAX_CONG_RTT) {
        snprintf(
            err, DOAR_ERRLEN,
            "global latency %d: DOAR's in-flight window spans 2 x %d + %d = %d cycles, at most %d (latency <= %d); "
            "--cong-window 0 for longer links",
            p->lat_global, p->lat_global, NET_ROUTER_PIPELINE, p->rprm.cong_rtt, ROUTER_MAX_CONG_RTT,
            (ROUTER_MAX_CONG_RTT - NET_ROUTER_PIPELINE) / 2);
        return -1;
    }
    if (p->warmup < 0 || p->warmup > MAX_PHASE || p->sample < 1 || p->sample > MAX_PHASE || p->drain_limit < 1) {
        snprintf(err, DOAR_ERRLEN, "warm-up 0..%ld, sample and drain limit 1..%ld cycles", MAX_PHASE, MAX_PHASE);
        return -1;
    }
    int worst = lat[0] > lat[1] ? lat[0] : lat[1];
    if (lat[2] > worst) worst = lat[2];
    if (p->watchdog < 2L * worst + WATCHDOG_MARGIN) {
        snprintf(err, DOAR_ERRLEN, "watchdog %ld: must exceed two link round trips (>= %ld cycles)", p->watchdog,
                 2L * worst + WATCHDOG_MARGIN);
        return -1;
    }
    const int shortest = p->lat_local < p->lat_global ? p->lat_local : p->lat_global;
    if (p->block < 0 || p->block > NET_MAX_BLOCK || p->block > shortest) {
        snprintf(err, DOAR_ERRLEN,
                 "block %d: expected 0 (automatic) or 1..%d cycles (<= the shortest router link latency, %d)", p->block,
                 NET_MAX_BLOCK, shortest);
        return -1;
    }
    if (!(p->stop_latency >= 0.0) || !(p->stop_share >= 0.0 && p->stop_share <= 1.0)) {
        snprintf(err, DOAR_ERRLEN, "early stop: latency must be >= 0 cycles and share 0..1");
        return -1;
    }
    long links = topo_local_links(t) + topo_global_links(t);
    if (p->series_bin < 0 || p->series_bin > MAX_PHASE) {
        snprintf(err, DOAR_ERRLEN, "series bin %ld: must be 1..%ld cycles", p->series_bin, MAX_PHASE);
        return -1;
    }
    if (p->fault_links < 0 || p->fault_links > links) {
        snprintf(err, DOAR_ERRLEN, "faults %d: must be 0..%ld (the network's links)", p->fault_links, links);
        return -1;
    }
    if (p->fault_routers < 0 || p->fault_routers >= t->n_routers) {
        snprintf(err, DOAR_ERRLEN, "router faults %d: must be 0..%d (at least one router stays alive)",
                 p->fault_routers, t->n_routers - 1);
        return -1;
    }
    if (faults_on(p) && t->n_nodes >= NET_MAX_NODES) {
        snprintf(err, DOAR_ERRLEN, "faults need fewer than %d nodes", NET_MAX_NODES);
        return -1;
    }
    if (p->fault_routers && p->repair_at >= 0 && p->repair_at < p->fault_at + NET_MIN_DEAD_CYCLES) {
        snprintf(err, DOAR_ERRLEN, "router faults: the repair cycle must be >= the fault cycle + %d",
                 NET_MIN_DEAD_CYCLES);
        return -1;
    }
    if (faults_on(p) && (p->fault_at < 0 || (p->repair_at >= 0 && p->repair_at <= p->fault_at))) {
        snprintf(err, DOAR_ERRLEN, "fault cycle must be >= 0 and the repair cycle after it");
        return -1;
    }
    return router_check_params(t, &p->rprm, err);
}
