#include "lectern/run/figures/expert_routing_figure.h"

#include <fmt/format.h>

#include "lectern/run/shell/console.h"
#include "lectern/run/figures/figure_files.h"

namespace run {

plot::Figure expert_routing_figure(const std::string& title, const std::vector<Curve>& shares) {
    plot::LinePlot routing{"Share of the tokens' expert assignments, every MoE layer",
                           "training step",
                           "share of assignments",
                           {},
                           false,
                           false};
    for (std::size_t e = 0; e < shares.size(); ++e) {
        plot::Curve c{fmt::format("expert {}", e), {}, {}, false};
        for (const auto& [step, share] : shares[e]) c.x.push_back(step), c.y.push_back(share);
        routing.curves.push_back(c);
    }
    if (!shares.empty() && !shares.front().empty()) {  // where every curve would lie under a balanced router
        const double balanced = 1.0 / static_cast<double>(shares.size());
        routing.curves.push_back({fmt::format("balanced: 1/{}", shares.size()),
                                  {shares.front().front().first, shares.front().back().first},
                                  {balanced, balanced},
                                  false});
    }
    return plot::Figure{title, 1, 800, 500, {routing}};
}

void write_expert_routing(const std::string& dir, const std::string& title, const std::vector<Curve>& shares) {
    const auto paths = write_figure(dir + "/expert_routing", expert_routing_figure(title, shares));
    say("expert routing drawn in {} and {}\n", paths[0], paths[1]);
}

}  // namespace run
