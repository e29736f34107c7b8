#pragma once
// Other programs on the machine, for bench_models --load: processes that keep a core busy,
// as a build, a browser or a second training would on a student's laptop.
#include <vector>

namespace benchmarks {

// Starts `count` processes that each spin on arithmetic until the object is destroyed, the
// parent dies (PR_SET_PDEATHSIG) or `max_seconds` pass (alarm), whichever comes first: a
// benchmark interrupted at any point leaves none running.
class BusyProcesses {
public:
    BusyProcesses(int count, unsigned max_seconds);
    ~BusyProcesses();
    BusyProcesses(const BusyProcesses&) = delete;
    BusyProcesses& operator=(const BusyProcesses&) = delete;

private:
    void stop();  // kills and reaps them all
    std::vector<int> pids_;
};

}  // namespace benchmarks
