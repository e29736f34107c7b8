#include "lectern/plot/svg_file.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

namespace plot {

namespace {

std::string base64(const std::string& bytes) {
    static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t v = static_cast<std::uint8_t>(bytes[i]) << 16;
        if (i + 1 < bytes.size()) v |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
        if (i + 2 < bytes.size()) v |= static_cast<std::uint8_t>(bytes[i + 2]);
        out += kDigits[(v >> 18) & 63], out += kDigits[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? kDigits[v & 63] : '=';
    }
    return out;
}

void append_utf8(std::string& out, unsigned long code) {
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
}

// Whether XML allows the character: a code point, no surrogate, no control but tab and line breaks.
bool xml_char(unsigned long code) {
    return code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
           (code >= 0xE000 && code <= 0xFFFD) || (code >= 0x10000 && code <= 0x10FFFF);
}

// PLplot writes each character of a text as &#xNN;. Written as UTF-8 instead,
// except the three XML reserves (& < >), which stay references, and what no
// XML file may hold (a label's stray control, a number past U+10FFFF), which
// becomes U+FFFD: the file stays well-formed.
std::string plain_text(const std::string& svg) {
    std::string out;
    out.reserve(svg.size());
    for (std::size_t i = 0; i < svg.size(); ++i) {
        if (svg.compare(i, 3, "&#x") == 0) {
            const std::size_t semi = svg.find(';', i);
            const unsigned long code = std::stoul(svg.substr(i + 3, semi - i - 3), nullptr, 16);
            if (code == '&' || code == '<' || code == '>') out.append(svg, i, semi - i + 1);
            else append_utf8(out, xml_char(code) ? code : 0xFFFD);
            i = semi;
        } else {
            out += svg[i];
        }
    }
    return out;
}

// Each pixel as a k x k block: a reader that smooths pictures when it scales
// them (librsvg, which ImageMagick uses, ignores image-rendering) then blurs
// a cell only at its edge, about 4 points wide, not across the whole cell.
Raster magnified(const Raster& r, double cell_points) {
    const auto k = static_cast<std::int64_t>(std::clamp(std::round(cell_points / 4), 1.0, 16.0));
    Raster out{r.rows * k, r.cols * k, {}};
    out.pixels.reserve(static_cast<std::size_t>(out.rows * out.cols));
    for (std::int64_t y = 0; y < out.rows; ++y)
        for (std::int64_t x = 0; x < out.cols; ++x)
            out.pixels.push_back(r.pixels[static_cast<std::size_t>((y / k) * r.cols + x / k)]);
    return out;
}

}  // namespace

std::string finish_svg(const std::string& svg_in, const std::vector<PlacedRaster>& rasters,
                       const std::map<std::string, std::string>& dashed, int width, int height) {
    std::string svg;  // the lines of each dashed colour given their dash array
    svg.reserve(svg_in.size());
    for (std::size_t at = 0;;) {
        const std::size_t next = svg_in.find("stroke=\"#", at);
        if (next == std::string::npos) {
            svg.append(svg_in, at);
            break;
        }
        const std::size_t end = next + 16;  // stroke="#RRGGBB"
        svg.append(svg_in, at, end - at);
        if (const auto it = dashed.find(svg_in.substr(next + 8, 7));
            it != dashed.end() && svg_in.rfind("<polyline", next) > svg_in.rfind("/>", next))
            svg += fmt::format(" stroke-dasharray=\"{}\"", it->second);
        at = end;
    }
    std::string images;
    for (const PlacedRaster& p : rasters) {
        const double cell = std::min((p.x1 - p.x0) * width / static_cast<double>(p.raster.cols),
                                     (p.y1 - p.y0) * height / static_cast<double>(p.raster.rows));
        images += fmt::format(
            "  <image x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" preserveAspectRatio=\"none\" "
            "image-rendering=\"optimizeSpeed\" style=\"image-rendering:pixelated\" "
            "xlink:href=\"data:image/png;base64,{}\"/>\n",
            p.x0 * width, (1 - p.y1) * height, (p.x1 - p.x0) * width, (p.y1 - p.y0) * height,
            base64(png_file(magnified(p.raster, cell))));
    }
    // after the page's background, the first element PLplot writes
    const std::size_t background = svg.find("<rect"), after = svg.find("/>", background);
    if (background == std::string::npos || after == std::string::npos)
        throw Error("PLplot's SVG has no background to draw over");
    std::string out = plain_text(svg.substr(0, after + 2));
    out += "\n" + images;
    out += plain_text(svg.substr(after + 2));
    return out;
}

}  // namespace plot
