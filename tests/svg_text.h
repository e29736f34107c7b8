#pragma once
// The words an SVG figure shows: the text of each <text> element, its
// <tspan> parts joined (a superscript's exponent follows its base: "10-3")
// and PLplot's character references (&#x4c;) decoded to UTF-8.
#include <string>
#include <vector>

namespace testing {

inline std::string utf8(unsigned long code) {
    std::string out;
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6)), out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12)), out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18)), out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F)), out += static_cast<char>(0x80 | (code & 0x3F));
    }
    return out;
}

inline std::vector<std::string> svg_texts(const std::string& svg) {
    std::vector<std::string> texts;
    for (std::size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
        const std::size_t end = svg.find("</text>", at);
        if (end == std::string::npos) break;
        std::string text;
        bool in_tag = false;
        for (std::size_t i = svg.find('>', at) + 1; i < end; ++i) {
            if (svg[i] == '<') in_tag = true;
            else if (svg[i] == '>') in_tag = false;
            else if (in_tag) continue;
            else if (svg.compare(i, 3, "&#x") == 0) {
                const std::size_t semi = svg.find(';', i);
                text += utf8(std::stoul(svg.substr(i + 3, semi - i - 3), nullptr, 16));
                i = semi;
            } else {
                text += svg[i];
            }
        }
        texts.push_back(text);
    }
    return texts;
}

inline bool svg_shows(const std::string& svg, const std::string& words) {
    for (const std::string& t : svg_texts(svg))
        if (t == words) return true;
    return false;
}

}  // namespace testing
