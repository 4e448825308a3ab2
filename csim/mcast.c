#include "mcast.h"

#include <stdlib.h>

int mcast_init(mcast_table *m, int k, int groups) {
    m->k = k;
    m->groups = groups;
    m->set = calloc((size_t)k * (size_t)groups, sizeof *m->set);
    return m->set ? 0 : -1;
}

void mcast_free(mcast_table *m) {
    free(m->set);
    m->set = NULL;
}

void mcast_write(mcast_table *m, int port, int group, uint64_t set) {
    if (port < 0 || port >= m->k || group < 0 || group >= m->groups) return;
    uint64_t mask = m->k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << m->k) - 1);
    m->set[port * m->groups + group] = set & mask;
}
