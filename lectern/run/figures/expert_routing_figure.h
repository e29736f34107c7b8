#pragma once
// A mixture of experts' routing over training (004 §15.5.7): at each step, the
// share of the token-to-expert assignments (N tokens x k experts each, over
// every MoE layer) that each expert received. A balanced router keeps every
// curve near 1/E; without the load-balancing loss a few experts take most of
// the tokens and the others starve.
#include <string>
#include <vector>

#include "lectern/run/training/run_state.h"
#include "lectern/plot/figure.h"

namespace run {

// shares[e]: (step, expert e's share of the step's assignments).
plot::Figure expert_routing_figure(const std::string& title, const std::vector<Curve>& shares);

// Draws it into DIR/expert_routing.{png,svg} and says where.
void write_expert_routing(const std::string& dir, const std::string& title, const std::vector<Curve>& shares);

}  // namespace run
