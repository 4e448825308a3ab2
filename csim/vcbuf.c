#include "vcbuf.h"

#include <stdlib.h>
#include <string.h>

int vcbuf_init(vcbuf *b, int depth, int nvcs) {
    memset(b, 0, sizeof *b);
    if (nvcs < 1 || nvcs > VCBUF_MAX_VCS || depth < 1 || depth > VCBUF_MAX_DEPTH) return -1;
    b->depth = depth;
    b->nvcs = nvcs;
    b->fifo = calloc((size_t)nvcs * (size_t)depth, sizeof(flit));
    b->route = calloc((size_t)nvcs * (size_t)depth, sizeof(route_entry));
    if (!b->fifo || !b->route) { vcbuf_free(b); return -1; }
    return 0;
}

void vcbuf_free(vcbuf *b) {
    free(b->fifo);
    free(b->route);
    b->fifo = NULL;
    b->route = NULL;
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
}

void vcbuf_push(vcbuf *b, const flit *f) {
    int v = f->vc;
    if (v >= b->nvcs || b->count[v] == b->depth) { b->overflow = 1; return; }
    int at = b->head[v] + b->count[v];   /* head < depth, count < depth: one wrap at most */
    b->fifo[v * b->depth + (at >= b->depth ? at - b->depth : at)] = *f;
    if (!b->count[v]) b->front_head = (uint8_t)((b->front_head & ~(1u << v)) | ((f->head ? 1u : 0u) << v));
    b->count[v]++;
    b->nonempty |= (uint8_t)(1u << v);
}

void vcbuf_pop(vcbuf *b, int vc) {
    b->head[vc] = (uint16_t)(b->head[vc] + 1 == b->depth ? 0 : b->head[vc] + 1);
    b->front_head &= (uint8_t)~(1u << vc);
    if (!--b->count[vc]) b->nonempty &= (uint8_t)~(1u << vc);
    else if (b->fifo[vc * b->depth + b->head[vc]].head) b->front_head |= (uint8_t)(1u << vc);
}

void vcbuf_push_route(vcbuf *b, int vc, const route_entry *e) {
    if (b->rcount[vc] == b->depth) { b->overflow = 1; return; }
    int at = b->rhead[vc] + b->rcount[vc];
    b->route[vc * b->depth + (at >= b->depth ? at - b->depth : at)] = *e;
    b->rcount[vc]++;
}

void vcbuf_pop_route(vcbuf *b, int vc) {
    b->rhead[vc] = (uint16_t)(b->rhead[vc] + 1 == b->depth ? 0 : b->rhead[vc] + 1);
    b->rcount[vc]--;
}
