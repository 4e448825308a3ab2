/*
 * flit — the one packet format of doar, shared by the C model and the RTL (docs/architecture.md,
 * "Flit and packet format").
 *
 * A flit on a link is {valid, head, tail, vc[1:0], data[63:0]}. A packet is 1..max_len flits;
 * its head flit's data is the header:
 *   [5:0] dst_nid  [11:6] dst_bid  [22:12] dst_gid  [33:23] src_gid  [34] mcast
 *   [42:35] mgrp (multicast group)  [46:43] len (flits, 1..15)  [62:47] tag  [63] free
 * (no router reads or writes bit 63: the network simulator marks its sample packets' heads with it).
 * Body flits carry any data; the harness puts the tag and a sequence number in them.
 */
#ifndef DOAR_FLIT_H
#define DOAR_FLIT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint8_t valid, head, tail, vc;
    uint64_t data;
} flit;

/* The layouts below are the single definition for both languages: scripts/gen_flit_fields.py turns
 * every `#define NAME integer` of this file into `define NAME integer` in rtl/flit_fields.vh
 * (committed; `make flit-fields-check`, part of `make lint`, fails when it is stale). */

/* header fields: bit position (SHIFT) and width (BITS) */
#define FLIT_NID_SHIFT 0
#define FLIT_NID_BITS 6
#define FLIT_BID_SHIFT 6
#define FLIT_BID_BITS 6
#define FLIT_GID_SHIFT 12
#define FLIT_GID_BITS 11
#define FLIT_SRC_SHIFT 23
#define FLIT_SRC_BITS 11
#define FLIT_MCAST_SHIFT 34
#define FLIT_MGRP_SHIFT 35
#define FLIT_MGRP_BITS 8
#define FLIT_LEN_SHIFT 43
#define FLIT_LEN_BITS 4
#define FLIT_TAG_SHIFT 47
#define FLIT_TAG_BITS 16
#define FLIT_MAX_LEN 15
#define FLIT_DATA_BITS 64
#define FLIT_VC_BITS 2 /* the link's VC field (the RTL's 4 VCs) */

/* The RTL's flit words. A buffered flit (vcbuf) is {head, tail, data}; a queued flit (oq, the
 * crossbar's output) is {head, tail, vc, data}: positions of head, tail and vc in them. */
#define FLITW_TAIL_BIT 64
#define FLITW_HEAD_BIT 65
#define FLITW_BITS 66
#define QFLITW_VC_SHIFT 64
#define QFLITW_TAIL_BIT 66
#define QFLITW_HEAD_BIT 67
#define QFLITW_BITS 68

/* The RTL's route entry (csim/vcbuf.h route_entry, packed): {discard, mcast, ovc, len, ports[K-1:0]};
 * the fields sit above the K port bits, at K + OFF. */
#define RENTRY_LEN_OFF 0
#define RENTRY_OVC_OFF 4
#define RENTRY_MCAST_OFF 6
#define RENTRY_DISCARD_OFF 7
#define RENTRY_FIELD_BITS 8 /* entry width: K + RENTRY_FIELD_BITS */

static inline int flit_dst_nid(uint64_t d) { return (int)((d >> FLIT_NID_SHIFT) & ((1u << FLIT_NID_BITS) - 1)); }
static inline int flit_dst_bid(uint64_t d) { return (int)((d >> FLIT_BID_SHIFT) & ((1u << FLIT_BID_BITS) - 1)); }
static inline int flit_dst_gid(uint64_t d) { return (int)((d >> FLIT_GID_SHIFT) & ((1u << FLIT_GID_BITS) - 1)); }
static inline int flit_src_gid(uint64_t d) { return (int)((d >> FLIT_SRC_SHIFT) & ((1u << FLIT_SRC_BITS) - 1)); }
static inline int flit_mcast(uint64_t d) { return (int)((d >> FLIT_MCAST_SHIFT) & 1); }
static inline int flit_mgrp(uint64_t d) { return (int)((d >> FLIT_MGRP_SHIFT) & ((1u << FLIT_MGRP_BITS) - 1)); }
static inline int flit_len(uint64_t d) { return (int)((d >> FLIT_LEN_SHIFT) & ((1u << FLIT_LEN_BITS) - 1)); }
static inline int flit_tag(uint64_t d) { return (int)((d >> FLIT_TAG_SHIFT) & ((1u << FLIT_TAG_BITS) - 1)); }

static inline uint64_t flit_header(int dst_gid, int dst_bid, int dst_nid, int src_gid, int mcast, int mgrp, int len,
                                   int tag) {
    return ((uint64_t)(dst_nid & 0x3f) << FLIT_NID_SHIFT) | ((uint64_t)(dst_bid & 0x3f) << FLIT_BID_SHIFT) |
           ((uint64_t)(dst_gid & 0x7ff) << FLIT_GID_SHIFT) | ((uint64_t)(src_gid & 0x7ff) << FLIT_SRC_SHIFT) |
           ((uint64_t)(mcast & 1) << FLIT_MCAST_SHIFT) | ((uint64_t)(mgrp & 0xff) << FLIT_MGRP_SHIFT) |
           ((uint64_t)(len & 0xf) << FLIT_LEN_SHIFT) | ((uint64_t)(tag & 0xffff) << FLIT_TAG_SHIFT);
}

#ifdef __cplusplus
}
#endif

#endif
