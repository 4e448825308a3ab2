/*
 * oq — one output queue of router v2: the flits plane q's crossbar delivered to output port o,
 * waiting for the link. Mirrors rtl/oq.v.
 *
 * Contract
 *   Write: at most one flit per cycle (one packet at a time holds the slot (o,q) that writes it);
 *          visible to the link stage from the next cycle. A write into a full queue is dropped (only
 *          a packet longer than its header's len can do that: a protocol error upstream).
 *   Read: the link stage takes the front flit; its slot is free from the next cycle.
 *   Room: a head is granted only if `room` >= its len; the grant takes len, every flit the link
 *          takes gives one back. So the flits of every granted packet fit.
 *   Invariants: the flits of one packet are contiguous; 0 <= room <= depth - count.
 */
#ifndef DOAR_OQ_H
#define DOAR_OQ_H

#include <stdint.h>
#include "flit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    flit *ring; /* [depth] */
    uint16_t head, count, depth;
    int16_t room; /* flits not yet promised to a granted packet */
} oq;

static inline void oq_reset(oq *q) {
    q->head = q->count = 0;
    q->room = (int16_t)q->depth;
}
static inline const flit *oq_front(const oq *q) { return q->count ? &q->ring[q->head] : (const flit *)0; }
/* Returns 1 if the flit was stored, 0 if the queue was full (dropped). */
static inline int oq_push(oq *q, const flit *f) {
    if (q->count == q->depth) return 0;
    int at = q->head + q->count;
    q->ring[at >= q->depth ? at - q->depth : at] = *f;
    q->count++;
    return 1;
}
static inline void oq_pop(oq *q) {
    q->head = (uint16_t)(q->head + 1 == q->depth ? 0 : q->head + 1);
    q->count--;
}

#ifdef __cplusplus
}
#endif

#endif
