/*
 * cong — congestion machinery of one router (seed 001 sec. 3.1, Fig. 5). Mirrors rtl/cong.v.
 *
 * Contract (docs/architecture.md, "Congestion")
 *   Inputs each cycle: occupancy of every output port (downstream flits not yet credited back,
 *     from the credit counters), and the side-band of every intra-group input port.
 *   CongL (k bits, registered): terminal and intra-group ports: occupancy > TL; global ports:
 *     the router's own CongG bit of that port.
 *   CongG (h bits, registered): history window against phantom congestion — a saturating counter
 *     per global port counts up while its estimate > TG and down otherwise; the bit sets when the
 *     counter reaches HW and clears when it reaches 0. The estimate is the occupancy, less (with
 *     rtt > 0) the data flits the port put on its link in the last rtt cycles: their credits
 *     cannot be back yet, so they are in flight, not queued (Won et al. 2015's window, seed 001
 *     sec. 3.1 "history window method [24]"; docs/architecture.md "Congestion").
 *   Group bitmap (a*h bits, registered): own segment [bid*h, bid*h+h) = own CongG; the segment of
 *     the neighbour behind intra-group port l is replaced whenever l's side-band carries a bitmap.
 *   Side-band out: every `interval` cycles the own CongG bitmap is launched; it appears on the
 *     side-band output (to every intra-group link) t_ps cycles later.
 *   All outputs are registers: values computed in cycle t are seen from cycle t+1.
 */
#ifndef DOAR_CONG_H
#define DOAR_CONG_H

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int tl, tg;   /* thresholds in flits */
    int hw;       /* history window (cycles) */
    int interval; /* broadcast interval: the maximum packet length */
    int tps;      /* side-band latency t_ps (cycles, >= 1) */
    int rtt;      /* global ports' credit round trip, cycles (0: no in-flight window) */
} cong_params;

typedef struct {
    topo t;
    cong_params prm;
    int bid;
    int *hist;           /* [h] */
    uint64_t congg;      /* own CongG, bit i = router global port i */
    uint64_t cong_local; /* CongL, bit = router port */
    gport_bitmap group;  /* a*h-bit group bitmap */
    int bcast_cnt;
    uint8_t *dl_valid; /* [tps] side-band delay line, a ring: stage 0 at dl_pos, stage s at */
    uint64_t *dl_bits; /* (dl_pos - s) mod tps; the output, stage tps-1, at (dl_pos + 1) mod tps */
    int dl_pos;
    uint64_t nonglobal; /* terminal and intra-group ports (CongL from occupancy) */
    uint64_t local;     /* intra-group ports (side-bands) */
    uint64_t *sent;     /* [rtt]: bit i of slot s: global port i sent a data flit rtt - s cycles ago (ring) */
    int *recent;        /* [h]: flits global port i sent in the last rtt cycles */
    int sent_pos;       /* the ring's slot of the oldest cycle */
} cong;

int cong_init(cong *c, const topo *t, const cong_params *prm);
void cong_free(cong *c);
void cong_reset(cong *c, int bid);
/* One cycle. occ[o]: occupancy of output port o; sb_bits[o]: side-band on input port o, for the
 * ports in sb_ports (bit o: a side-band arrives on port o; other entries are not read); sent: bit
 * o set when output port o puts a data flit on its link register in this cycle. */
void cong_cycle(cong *c, const int *occ, uint64_t sb_ports, const uint64_t *sb_bits, uint64_t sent);
static inline int cong_dl_out(const cong *c) { return c->dl_pos + 1 == c->prm.tps ? 0 : c->dl_pos + 1; }
static inline int cong_sb_valid(const cong *c) { return c->dl_valid[cong_dl_out(c)]; }
static inline uint64_t cong_sb_bits(const cong *c) { return c->dl_bits[cong_dl_out(c)]; }

#ifdef __cplusplus
}
#endif

#endif
