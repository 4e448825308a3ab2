// router_ports.h — the router's port list, written once (issue 23): every port of rtl/router.v
// besides clk and rst, in its order, with the field of the C model's router_in / router_cfg_in /
// router_out (csim/router.h) each one carries. The harnesses build from it, never from a list of
// their own: tb/router_lockstep.cpp's apply/read/compare and tb/router_sc_main.cpp's signals,
// bindings, apply and read. scripts/check_router_ports.py (in `make lint`) checks rtl/router.v
// declares exactly these ports (names, directions, widths) and fpga/ecp5_router_top.v binds
// every one of them, so a port added to the RTL and not here fails lint before any harness.
//
// Columns (X-macros: the includer defines X and the width names K, H, AH, GW, BW, TAW):
//   name   the port of rtl/router.v
//   W, N   N elements of W bits each; element i is bits [i*W +: W] of the port (N is 1 or K)
//   KIND   how element i is found in the field:
//            ONE   the field is the value (N = 1)
//            EACH  the field is an expression of i: element i
//            MASK  the field is a bit mask: element i is its bit i
//   FIELD  inputs: an expression of `in` (router_in) or `cfg` (router_cfg_in);
//          outputs: of `out` (router_out) or `ready` (router_event_ready(), not in router_out)
//   WHEN   outputs: element i is compared only when this holds on the expected `out` (a VC or a
//          bit field means nothing beside a valid bit that is 0); 1: always. An invalid flit's
//          head/tail/vc/data are compared as zeros (the RTL drives zeros: docs/architecture.md)
#ifndef DOAR_TB_ROUTER_PORTS_H
#define DOAR_TB_ROUTER_PORTS_H

#include <cstdint>
#include <type_traits>

// (the two tables keep their columns: clang-format would set them as plain calls)
// clang-format off
#define ROUTER_PORTS_IN(X)                                        \
    X(cfg_gid,         GW,  1, ONE,  cfg.gid)                     \
    X(cfg_bid,         BW,  1, ONE,  cfg.bid)                     \
    X(cfg_wired,       1,   AH, EACH, gbm_test(&cfg.wired, i))    \
    X(cfg_seed,        32,  1, ONE,  cfg.seed)                    \
    X(in_valid,        1,   K, EACH, in.in[i].valid)              \
    X(in_head,         1,   K, EACH, in.in[i].head)               \
    X(in_tail,         1,   K, EACH, in.in[i].tail)               \
    X(in_vc,           2,   K, EACH, in.in[i].vc)                 \
    X(in_data,         64,  K, EACH, in.in[i].data)               \
    X(cr_in_valid,     1,   K, EACH, in.cr_valid[i])              \
    X(cr_in_vc,        2,   K, EACH, in.cr_vc[i])                 \
    X(sb_in_valid,     1,   K, EACH, in.sb_valid[i])              \
    X(sb_in_bits,      H,   K, EACH, in.sb_bits[i])               \
    X(tw_valid,        1,   1, ONE,  in.tw_valid)                 \
    X(tw_port,         6,   1, ONE,  in.tw_port)                  \
    X(tw_table,        2,   1, ONE,  in.tw_table)                 \
    X(tw_addr,         TAW, 1, ONE,  in.tw_addr)                  \
    X(tw_data,         64,  1, ONE,  in.tw_data)                  \
    X(mw_valid,        1,   1, ONE,  in.mw_valid)                 \
    X(mw_port,         6,   1, ONE,  in.mw_port)                  \
    X(mw_group,        8,   1, ONE,  in.mw_group)                 \
    X(mw_set,          1,   K, MASK, in.mw_set)                   \
    X(ev_valid,        1,   1, ONE,  in.ev_valid)                 \
    X(ev_kind,         2,   1, ONE,  in.ev_kind)                  \
    X(ev_port,         6,   1, ONE,  in.ev_port)                  \
    X(ctl_cr_in_valid, 1,   K, EACH, in.ctl_cr_valid[i])          \
    X(fw_valid,        1,   1, ONE,  in.fw_valid)                 \
    X(fw_port,         6,   1, ONE,  in.fw_port)                  \
    X(fw_entry,        TAW, 1, ONE,  in.fw_entry)                 \
    X(fw_src,          1,   K, MASK, in.fw_src)                   \
    X(fw_int,          1,   K, MASK, in.fw_int)

#define ROUTER_PORTS_OUT(X)                                                        \
    X(ev_ready,         1,  1, ONE,  ready,                 1)                     \
    X(out_valid,        1,  K, EACH, out.out[i].valid,      1)                     \
    X(out_head,         1,  K, EACH, out.out[i].head,       1)                     \
    X(out_tail,         1,  K, EACH, out.out[i].tail,       1)                     \
    X(out_vc,           2,  K, EACH, out.out[i].vc,         1)                     \
    X(out_data,         64, K, EACH, out.out[i].data,       1)                     \
    X(cr_out_valid,     1,  K, EACH, out.cr_valid[i],       1)                     \
    X(cr_out_vc,        2,  K, EACH, out.cr_vc[i],          out.cr_valid[i])       \
    X(sb_out_valid,     1,  1, ONE,  out.sb_valid,          1)                     \
    X(sb_out_bits,      H,  1, ONE,  out.sb_bits,           out.sb_valid)          \
    X(overflow,         1,  K, MASK, out.overflow,          1)                     \
    X(ctl_cr_out_valid, 1,  K, EACH, out.ctl_cr_valid[i],   1)                     \
    X(discard,          1,  K, MASK, out.discard,           1)                     \
    X(discard_vcs,      4,  K, EACH, out.discard_vcs[i],    (out.discard >> i) & 1)
// clang-format on

// Element i of a field, by KIND (the X-macro's column), as a 64-bit value.
#define ROUTER_PORT_GET_ONE(f, i) ((uint64_t)(f))
#define ROUTER_PORT_GET_EACH(f, i) ((uint64_t)(f))
#define ROUTER_PORT_GET_MASK(f, i) (((uint64_t)(f) >> (i)) & 1u)
#define ROUTER_PORT_GET(KIND, f, i) ROUTER_PORT_GET_##KIND(f, i)
// Store element i (v) into a field, by KIND; a MASK field must be zero before its first element.
#define ROUTER_PORT_SET_ONE(f, i, v) ((f) = (std::remove_reference<decltype(f)>::type)(v))
#define ROUTER_PORT_SET_EACH(f, i, v) ((f) = (std::remove_reference<decltype(f)>::type)(v))
#define ROUTER_PORT_SET_MASK(f, i, v) ((f) |= (uint64_t)((v)&1u) << (i))
#define ROUTER_PORT_SET(KIND, f, i, v) ROUTER_PORT_SET_##KIND(f, i, v)

// rtl/router.v's index widths: GW = router_port_width(G), BW = (A), TAW = (P + A + G): $clog2(n),
// and 1 where n <= 1 (a one-value field still has a bit).
constexpr int router_port_clog2(int n) { return n <= 1 ? 0 : 1 + router_port_clog2((n + 1) / 2); }
constexpr int router_port_width(int n) { return n > 1 ? router_port_clog2(n) : 1; }

#endif
