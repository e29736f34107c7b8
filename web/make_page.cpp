// make_page TEMPLATE MODULE_JS WORKER_JS OUT: the page (docs/web.md) as one file. Puts
// the attention explorer's style, markup and script (plot/attention_page.h, the same
// the programs' attention.html run) and the module and worker's code into
// web/page.html's @NAME@ marks. The code goes inside <script type="text/plain">
// elements, which end at the first "</script"; code that holds one, or a "<!--" (which
// changes how the browser reads the rest of the element), is refused, not written.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "lectern/plot/attention_page.h"

namespace {

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
}

// Text that can stand inside a <script> element as it is.
const std::string& script_text(const std::string& what, const std::string& text) {
    const std::string l = lower(text);
    for (const char* bad : {"</script", "<!--"})
        if (const auto at = l.find(bad); at != std::string::npos)
            throw std::runtime_error(
                fmt::format("{} holds \"{}\" at byte {}: it would end the page's <script> early", what, bad, at));
    return text;
}

void fill(std::string& page, const std::string& mark, std::string_view text) {
    const std::string name = "@" + mark + "@";
    const auto at = page.find(name);
    if (at == std::string::npos || page.find(name, at + 1) != std::string::npos)
        throw std::runtime_error(fmt::format("the template must hold {} once", name));
    page.replace(at, name.size(), text);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: make_page TEMPLATE MODULE_JS WORKER_JS OUT\n");
        return 2;
    }
    try {
        std::string page = read(argv[1]);
        fill(page, "EXPLORER_STYLE", plot::explorer_style());
        fill(page, "EXPLORER_MARKUP", plot::explorer_markup());
        fill(page, "EXPLORER_SCRIPT", script_text("the explorer's script", std::string(plot::explorer_script())));
        fill(page, "MODULE", script_text(argv[2], read(argv[2])));
        fill(page, "WORKER", script_text(argv[3], read(argv[3])));
        std::ofstream out(argv[4], std::ios::binary);
        out << page;
        if (!out.flush()) throw std::runtime_error(fmt::format("cannot write {}", argv[4]));
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_page: %s\n", e.what());
        return 1;
    }
}
