#include "lectern/run/shell/job_agreement.h"

#include <zlib.h>

#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "lectern/autograd/printable.h"

namespace run {

namespace {

std::uint32_t crc_of(const std::string& text) {
    uLong crc = crc32(0L, Z_NULL, 0);
    for (std::size_t at = 0; at < text.size(); at += 1u << 30) {
        const std::size_t n = std::min<std::size_t>(text.size() - at, 1u << 30);
        crc = crc32(crc, reinterpret_cast<const Bytef*>(text.data() + at), static_cast<uInt>(n));
    }
    return static_cast<std::uint32_t>(crc);
}

// `text` of rank `root` on every rank.
std::string broadcast_text(const distributed::Communicator& comm, const std::string& text, int root) {
    std::uint64_t size = text.size();
    comm.broadcast(&size, sizeof size, root);
    std::string out = comm.rank() == root ? text : std::string(size, '\0');
    if (size > 0) comm.broadcast(out.data(), size, root);
    return out;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    return text;
}

}  // namespace

std::vector<std::string> job_description(const nn::RunRecord& record, const nn::Module& model,
                                         const std::vector<std::pair<std::string, bool>>& writes) {
    std::vector<std::string> lines;
    // The program first: two programs are told apart by it, not by the first flag they differ in.
    if (auto it = record.text.find("program"); it != record.text.end()) lines.push_back("program: " + it->second);
    for (const auto& [name, value] : record.text) {
        if (name == "program") continue;
        lines.push_back(name.starts_with("flag.") ? fmt::format("flag {}: {}", name.substr(5), value)
                        : value.size() <= 64 && value.find('\n') == std::string::npos
                            ? fmt::format("{}: {}", name, value)
                            : fmt::format("{}: {} bytes, crc32 {:08x}", name, value.size(), crc_of(value)));
    }
    for (const auto& [name, p] : model.named_parameters())
        lines.push_back(fmt::format("parameter {}: {}", name, autograd::shape_str(p.shape())));
    for (const auto& [flag, given] : writes) lines.push_back(fmt::format("writes {}: {}", flag, given ? "yes" : "no"));
    return lines;
}

void require_same_job(const distributed::Communicator& comm, const std::vector<std::string>& description) {
    if (comm.size() == 1) return;
    const std::string mine = joined(description);
    const std::string root = broadcast_text(comm, mine, 0);
    // The first line where this rank differs from rank 0 (-1: none), gathered.
    std::int64_t differs = -1;
    if (mine != root) {
        std::vector<std::string> theirs;
        for (std::size_t at = 0, end; (end = root.find('\n', at)) != std::string::npos; at = end + 1)
            theirs.push_back(root.substr(at, end - at));
        differs = 0;
        while (static_cast<std::size_t>(differs) < std::min(theirs.size(), description.size()) &&
               theirs[static_cast<std::size_t>(differs)] == description[static_cast<std::size_t>(differs)])
            ++differs;
    }
    const std::vector<unsigned char> all = comm.all_gather(&differs, sizeof differs);
    for (int r = 1; r < comm.size(); ++r) {
        std::int64_t at = 0;
        std::memcpy(&at, all.data() + static_cast<std::size_t>(r) * sizeof at, sizeof at);
        if (at < 0) continue;
        // Rank r's line and rank 0's, on every rank, for one message.
        const auto line = [&](const std::vector<std::string>& lines) {
            return static_cast<std::size_t>(at) < lines.size() ? lines[static_cast<std::size_t>(at)]
                                                               : std::string("(nothing)");
        };
        const std::string other = broadcast_text(comm, comm.rank() == r ? line(description) : "", r);
        const std::string first = broadcast_text(comm, comm.rank() == 0 ? line(description) : "", 0);
        if (first.starts_with("program: ") && other.starts_with("program: "))
            throw JobMismatch(
                fmt::format("the processes of this job run different programs: rank 0 runs {}, rank {} "
                            "{} (start every process with the same program and flags)",
                            autograd::printable(first.substr(9), 200), r, autograd::printable(other.substr(9), 200)));
        throw JobMismatch(
            fmt::format("the processes of this job run different jobs: rank 0 has \"{}\", rank {} \"{}\" "
                        "(give every process the same flags, text and model)",
                        autograd::printable(first, 200), r, autograd::printable(other, 200)));
    }
}

}  // namespace run
