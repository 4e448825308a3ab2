#include "cong.h"

#include <stdlib.h>
#include <string.h>

int cong_init(cong *c, const topo *t, const cong_params *prm) {
    memset(c, 0, sizeof *c);
    c->t = *t;
    c->prm = *prm;
    c->hist = calloc((size_t)t->h, sizeof *c->hist);
    c->dl_valid = calloc((size_t)prm->tps, 1);
    c->dl_bits = calloc((size_t)prm->tps, sizeof *c->dl_bits);
    c->sent = calloc((size_t)(prm->rtt > 0 ? prm->rtt : 1), sizeof *c->sent);
    c->recent = calloc((size_t)t->h, sizeof *c->recent);
    if (!c->hist || !c->dl_valid || !c->dl_bits || !c->sent || !c->recent) {
        cong_free(c);
        return -1;
    }
    for (int o = 0; o < t->first_global && o < 64; o++) c->nonglobal |= (uint64_t)1 << o;
    for (int o = t->first_local; o < t->first_global && o < 64; o++) c->local |= (uint64_t)1 << o;
    return 0;
}

void cong_free(cong *c) {
    free(c->hist);
    free(c->dl_valid);
    free(c->dl_bits);
    free(c->sent);
    free(c->recent);
    c->hist = NULL;
    c->dl_valid = NULL;
    c->dl_bits = NULL;
    c->sent = NULL;
    c->recent = NULL;
}

void cong_reset(cong *c, int bid) {
    c->bid = bid;
    memset(c->hist, 0, (size_t)c->t.h * sizeof *c->hist);
    c->congg = 0;
    c->cong_local = 0;
    gbm_clear(&c->group);
    c->bcast_cnt = 0;
    memset(c->dl_valid, 0, (size_t)c->prm.tps);
    memset(c->dl_bits, 0, (size_t)c->prm.tps * sizeof *c->dl_bits);
    c->dl_pos = 0;
    memset(c->sent, 0, (size_t)(c->prm.rtt > 0 ? c->prm.rtt : 1) * sizeof *c->sent);
    memset(c->recent, 0, (size_t)c->t.h * sizeof *c->recent);
    c->sent_pos = 0;
}

/* Bits [j0, j0 + h) of b become bits [0, h) of v (hmask: h ones, h <= 64). */
static void put_segment(gport_bitmap *b, int j0, uint64_t hmask, uint64_t v) {
    int w = j0 >> 6, s = j0 & 63;
    v &= hmask;
    b->w[w] = (b->w[w] & ~(hmask << s)) | (v << s);
    if (s && (hmask >> (64 - s))) /* the segment runs into the next word */
        b->w[w + 1] = (b->w[w + 1] & ~(hmask >> (64 - s))) | (v >> (64 - s));
}

void cong_cycle(cong *c, const int *occ, uint64_t sb_ports, const uint64_t *sb_bits, uint64_t sent) {
    const topo *t = &c->t;
    uint64_t hmask = t->h >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << t->h) - 1);
    /* CongL from the current occupancy and the current CongG. */
    uint64_t n_local = (c->congg & hmask) << t->first_global; /* first_global + h = k <= 64 */
    /* the ports of c->nonglobal, [0, first_global): without branches, for speed only (every
     * router runs this every cycle) */
    const int nng = t->first_global < 64 ? t->first_global : 64, tl = c->prm.tl;
    uint8_t over_tl[64 + 8] = {0}; /* a byte per port (a loop the compiler vectorises), then 8 bits per multiply */
    for (int o = 0; o < nng; o++) over_tl[o] = occ[o] > tl;
    for (int o = 0; o < nng; o += 8) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint64_t bytes; /* bytes of 0 or 1, byte j at bits 8j: bit 0 of byte j to bit 56 + j */
        memcpy(&bytes, over_tl + o, sizeof bytes);
        n_local |= ((bytes * 0x0102040810204080ull) >> 56) << o;
#else
        for (int j = 0; j < 8; j++) n_local |= (uint64_t)over_tl[o + j] << (o + j);
#endif
    }
    /* CongG with the history window. */
    const int tg = c->prm.tg, hw = c->prm.hw;
    const int *occ_g = occ + t->first_global;
    int *hist = c->hist;
    const int *recent = c->recent;
    uint64_t at_hw = 0, at_0 = 0;
    for (int i = 0; i < t->h; i++) {
        int n = hist[i] + (occ_g[i] - recent[i] > tg ? 1 : -1);
        n = n > hw ? hw : n < 0 ? 0 : n;
        hist[i] = n;
        at_hw |= (uint64_t)(n == hw) << i;
        at_0 |= (uint64_t)(n == 0) << i;
    }
    const uint64_t n_congg = (c->congg | at_hw) & ~at_0; /* set at hw, cleared at 0 (hw = 0: cleared) */
    /* Group bitmap: own segment from the current CongG, neighbours from their side-bands. */
    put_segment(&c->group, c->bid * t->h, hmask, c->congg);
    for (uint64_t m = sb_ports & c->local; m; m &= m - 1) { /* intra-group ports, in port order */
        int o = __builtin_ctzll(m);
        put_segment(&c->group, topo_local_peer(t, c->bid, o) * t->h, hmask, sb_bits[o]);
    }
    /* Side-band: launch every `interval` cycles, t_ps stages later it is on the links. */
    c->dl_pos = cong_dl_out(c); /* the stages shift: the output slot becomes stage 0 */
    c->dl_valid[c->dl_pos] = c->bcast_cnt == 0;
    c->dl_bits[c->dl_pos] = c->bcast_cnt == 0 ? (c->congg & hmask) : 0;
    c->bcast_cnt = c->bcast_cnt + 1 == c->prm.interval ? 0 : c->bcast_cnt + 1;
    c->cong_local = n_local;
    c->congg = n_congg;
    /* The window: this cycle's sends enter, those of rtt cycles ago leave (a register per port
     * and cycle in the RTL: a shift register of rtt bits and its count). */
    if (c->prm.rtt > 0) {
        const uint64_t now = (sent >> t->first_global) & hmask, old = c->sent[c->sent_pos];
        for (uint64_t m = now ^ old; m; m &= m - 1) { /* only the ports whose bit changes move */
            const int i = __builtin_ctzll(m);
            c->recent[i] += (now >> i) & 1 ? 1 : -1;
        }
        c->sent[c->sent_pos] = now;
        c->sent_pos = c->sent_pos + 1 == c->prm.rtt ? 0 : c->sent_pos + 1;
    }
}
