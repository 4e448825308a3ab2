#include "vcbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vcbuf_init(vcbuf *b, int depth, int nvcs, int route_cap) {
    memset(b, 0, sizeof *b);
    if (nvcs < 1 || nvcs > VCBUF_MAX_VCS || depth < 1 || depth > VCBUF_MAX_DEPTH) return -1;
    if (route_cap < 1) route_cap = 1;
    if (route_cap > depth) route_cap = depth;
    b->depth = depth;
    b->nvcs = nvcs;
    b->fifo = calloc((size_t)nvcs * (size_t)depth, sizeof(flit));
    if (!b->fifo) return -1;
    for (int v = 0; v < nvcs; v++) {
        b->route[v] = calloc((size_t)route_cap, sizeof(route_entry));
        if (!b->route[v]) {
            vcbuf_free(b);
            return -1;
        }
        b->rcap[v] = (uint16_t)route_cap;
    }
    return 0;
}

void vcbuf_free(vcbuf *b) {
    free(b->fifo);
    b->fifo = NULL;
    for (int v = 0; v < VCBUF_MAX_VCS; v++) {
        free(b->route[v]);
        b->route[v] = NULL;
        b->rcap[v] = 0;
    }
}

/* VC vc's route ring is full below depth entries: twice the storage (at most depth), the entries
 * in order from index 0. */
static void grow_routes(vcbuf *b, int vc) {
    const int cap = b->rcap[vc], ncap = 2 * cap < b->depth ? 2 * cap : b->depth;
    route_entry *n = calloc((size_t)ncap, sizeof *n);
    if (!n) {
        fprintf(stderr, "doar: out of memory growing a route FIFO to %d entries\n", ncap);
        abort();
    }
    for (int j = 0, at = b->rhead[vc]; j < b->rcount[vc]; j++, at = at + 1 == cap ? 0 : at + 1) n[j] = b->route[vc][at];
    free(b->route[vc]);
    b->route[vc] = n;
    b->rhead[vc] = 0;
    b->rcap[vc] = (uint16_t)ncap;
}

void vcbuf_reset(vcbuf *b) {
    for (int v = 0; v < b->nvcs; v++) {
        b->head[v] = b->count[v] = b->rhead[v] = b->rcount[v] = 0;
        b->active[v] = 0;
        b->held[v] = 0;
    }
    b->overflow = 0;
    b->nonempty = 0;
    b->front_head = 0;
    b->routed = 0;
}

void vcbuf_push(vcbuf *b, const flit *f) {
    int v = f->vc;
    if (v >= b->nvcs || b->count[v] == b->depth) {
        b->overflow = 1;
        return;
    }
    int at = b->head[v] + b->count[v]; /* head < depth, count < depth: one wrap at most */
    b->fifo[v * b->depth + (at >= b->depth ? at - b->depth : at)] = *f;
    if (!b->count[v]) b->front_head = (uint8_t)((b->front_head & ~(1u << v)) | ((f->head ? 1u : 0u) << v));
    b->count[v]++;
    b->nonempty |= (uint8_t)(1u << v);
}

void vcbuf_pop(vcbuf *b, int vc) {
    b->head[vc] = (uint16_t)(b->head[vc] + 1 == b->depth ? 0 : b->head[vc] + 1);
    b->front_head &= (uint8_t) ~(1u << vc);
    if (!--b->count[vc])
        b->nonempty &= (uint8_t) ~(1u << vc);
    else if (b->fifo[vc * b->depth + b->head[vc]].head)
        b->front_head |= (uint8_t)(1u << vc);
}

void vcbuf_push_route(vcbuf *b, int vc, const route_entry *e) {
    if (b->rcount[vc] == b->depth) {
        b->overflow = 1;
        return;
    }
    if (b->rcount[vc] == b->rcap[vc]) grow_routes(b, vc);
    const int cap = b->rcap[vc], at = b->rhead[vc] + b->rcount[vc]; /* one wrap at most */
    b->route[vc][at >= cap ? at - cap : at] = *e;
    b->rcount[vc]++;
    b->routed |= (uint8_t)(1u << vc);
}

void vcbuf_pop_route(vcbuf *b, int vc) {
    b->rhead[vc] = (uint16_t)(b->rhead[vc] + 1 == b->rcap[vc] ? 0 : b->rhead[vc] + 1);
    if (!--b->rcount[vc]) b->routed &= (uint8_t) ~(1u << vc);
}
