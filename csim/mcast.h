/*
 * mcast — the multicast table of one router: for every (input port, group id) the set of output
 * ports a multicast packet of that group leaves on. Mirrors rtl/mcast_table.v.
 * Read in the cycle the packet's route entry is written (4 cycles after its head arrived);
 * a write takes effect at the end of its cycle.
 */
#ifndef DOAR_MCAST_H
#define DOAR_MCAST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int k, groups;
    uint64_t *set; /* [k * groups] */
} mcast_table;

int mcast_init(mcast_table *m, int k, int groups);
void mcast_free(mcast_table *m);
static inline uint64_t mcast_lookup(const mcast_table *m, int port, int group) {
    return group < m->groups ? m->set[port * m->groups + group] : 0;
}
void mcast_write(mcast_table *m, int port, int group, uint64_t set);

#ifdef __cplusplus
}
#endif

#endif
