/* router_fixed — speed only: the router's cycle (router_cycle.c and the unit files it calls)
 * compiled a second time, for the default router: ROUTER_FIXED_NP (2) planes and ROUTER_FIXED_VCS
 * (4) VCs per port as constants instead of r->np and r->prm.vcs (csim/router.h), which lets the
 * compiler unroll the loops over planes and turn i * np + q and i * vcs + v into shifts (in the -O2
 * objects the copy has 24 multiplications where the units have 69, and no division): about 5 %
 * fewer instructions per cycle on mid (docs/network.md "The fixed copy"). router_cycle_ref runs
 * this copy, router_cycle_ref_fixed, for a router with those planes and VCs; it is the same
 * source, so the same results (every lock-step at S = 2 runs it, at S = 1 the other). Each unit's
 * external functions are renamed here so that both copies link: one missing from the list below
 * is a duplicate symbol at link time, never a silent mix-up. The unit files keep no mutable
 * statics (a static variable there would be duplicated). */
#define ROUTER_FIXED_COPY 1

#define router_cycle_ref router_cycle_ref_fixed
#define router_input_credit_plane router_input_credit_plane_fixed
#define router_input_propose_on router_input_propose_on_fixed
#define router_input_plane_left router_input_plane_left_fixed
#define router_input_propose router_input_propose_fixed
#define router_input_requests router_input_requests_fixed
#define router_input_edge router_input_edge_fixed
#define router_input_move router_input_move_fixed
#define router_input_grant router_input_grant_fixed
#define router_input_credits router_input_credits_fixed
#define router_input_route router_input_route_fixed
#define router_alloc_check router_alloc_check_fixed
#define router_alloc_take router_alloc_take_fixed
#define router_alloc_ghost router_alloc_ghost_fixed
#define router_alloc_arbitrate router_alloc_arbitrate_fixed
#define router_alloc_pick router_alloc_pick_fixed
#define router_alloc_edge router_alloc_edge_fixed
#define router_output_link router_output_link_fixed
#define router_output_take router_output_take_fixed
#define router_output_room router_output_room_fixed
#define router_output_ctl router_output_ctl_fixed
#define router_output_credits router_output_credits_fixed
#define router_xbar_write router_xbar_write_fixed
#define router_xbar_store router_xbar_store_fixed
#define router_xbar_count router_xbar_count_fixed
#define router_bulletin_next router_bulletin_next_fixed
#define router_bulletin_edge router_bulletin_edge_fixed

#include "router_cycle.c"
#include "router_input.c"
#include "router_alloc.c"
#include "router_output.c"
#include "router_xbar.c"
#include "router_bulletin.c"
