#include "lectern/plot/attention_page.h"

#include <cmath>
#include <map>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lectern/plot/figure.h"  // plot::Error

// The page and its explorer, kept as files of their own in attention_page/ and made into
// string constants at build time (scripts/embed_text.py): attention_page_html, the page
// with @NAME@ marks; explorer_css, explorer_markup_html and explorer_js, the explorer: the
// head view (tokens in two columns, lines for the weights), the weights of the token
// pointed at as a table, and the model view (a thumbnail per layer and head). Its script
// draws with the DOM's SVG and canvas only; tokens reach the page as textContent, never
// as markup.
#include "lectern/plot/attention_page_files.h"

namespace plot {

namespace {

[[noreturn]] void fail(const AttentionPage& page, const std::string& why) {
    throw Error(fmt::format("cannot draw \"{}\": {}", page.title, why));
}

void check_kind(const AttentionPage& page, const AttentionKind& k) {
    if (k.queries.empty() || k.keys.empty())
        fail(page, fmt::format("{}: {} query tokens and {} key tokens, nothing to show", k.name, k.queries.size(),
                               k.keys.size()));
    if (k.layers <= 0 || k.heads <= 0) fail(page, fmt::format("{}: {} layers of {} heads", k.name, k.layers, k.heads));
    const auto Tq = static_cast<std::int64_t>(k.queries.size()), Tk = static_cast<std::int64_t>(k.keys.size());
    if (static_cast<std::int64_t>(k.weights.size()) != k.layers * k.heads * Tq * Tk)
        fail(page, fmt::format("{}: {} weights for {} layers x {} heads x {} queries x {} keys", k.name,
                               k.weights.size(), k.layers, k.heads, Tq, Tk));
    for (std::size_t i = 0; i < k.weights.size(); ++i) {
        const double w = k.weights[i];
        if (std::isfinite(w) && w >= -1e-6 && w <= 1 + 1e-6) continue;  // a softmax's rounding may pass 1 by an ulp
        const auto at = static_cast<std::int64_t>(i);
        fail(page, fmt::format("{}: layer {}, head {}, query {}, key {} holds {}, not an attention weight in [0, 1]",
                               k.name, at / (k.heads * Tq * Tk), at / (Tq * Tk) % k.heads, at / Tk % Tq, at % Tk, w));
    }
}

// Text for the browser, never markup.
std::string html_escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

// A JSON string (bytes that are not UTF-8 become U+FFFD) whose '<', '>' and '&'
// are \u escapes, so that no token can close the <script> element holding it.
std::string json_string(const std::string& text) {
    const std::string json = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    for (char c : json) {
        if (c == '<') out += "\\u003c";
        else if (c == '>') out += "\\u003e";
        else if (c == '&') out += "\\u0026";
        else out += c;
    }
    return out;
}

std::string json_strings(const std::vector<std::string>& texts) {
    std::string out = "[";
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (i) out += ',';
        out += json_string(texts[i]);
    }
    return out + "]";
}

// Each weight as the shortest decimal that reads back as itself: a float32
// tensor's weight to float32's precision, a double's to a double's.
std::string json_numbers(const std::vector<double>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        const auto f = static_cast<float>(values[i]);
        out += static_cast<double>(f) == values[i] ? fmt::format("{}", f) : fmt::format("{}", values[i]);
    }
    return out + "]";
}

std::string page_data(const AttentionPage& page) {
    std::string out = "{\"title\":" + json_string(page.title) + ",\"kinds\":[";
    for (std::size_t i = 0; i < page.kinds.size(); ++i) {
        const AttentionKind& k = page.kinds[i];
        out += fmt::format("{}{{\"name\":{},\"layers\":{},\"heads\":{},\"queries\":{},\"keys\":{},\"weights\":{}}}",
                           i ? "," : "", json_string(k.name), k.layers, k.heads, json_strings(k.queries),
                           json_strings(k.keys), json_numbers(k.weights));
    }
    return out + "]}";
}

// The page's text with @NAME@ marks, each replaced by marks.at(NAME); one pass, so
// a title or a token that holds "@DATA@" stays as it is.
std::string fill(std::string_view text, const std::map<std::string_view, std::string_view>& marks) {
    std::string out;
    for (;;) {
        const auto open = text.find('@');
        const auto close = open == std::string_view::npos ? open : text.find('@', open + 1);
        if (close == std::string_view::npos) return out.append(text);
        out.append(text.substr(0, open)).append(marks.at(text.substr(open + 1, close - open - 1)));
        text.remove_prefix(close + 1);
    }
}

}  // namespace

void check(const AttentionPage& page) {
    if (page.kinds.empty()) fail(page, "no attention to show");
    for (const AttentionKind& k : page.kinds) check_kind(page, k);
}

std::string_view explorer_style() { return explorer_css; }
std::string_view explorer_markup() { return explorer_markup_html; }
std::string_view explorer_script() { return explorer_js; }

std::string explorer_data(const AttentionPage& page) {
    check(page);
    return page_data(page);
}

std::string render_page(const AttentionPage& page) {
    const std::string data = explorer_data(page);
    const std::string title = html_escape(page.title);
    return fill(attention_page_html, {{"TITLE", title},
                                      {"STYLE", explorer_css},
                                      {"MARKUP", explorer_markup_html},
                                      {"DATA", data},
                                      {"SCRIPT", explorer_js}});
}

}  // namespace plot
