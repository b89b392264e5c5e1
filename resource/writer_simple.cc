#include "resource/writer_simple.h"

#include <charconv>
#include <cstring>
#include <string_view>

namespace rq {

std::string level_prefix(int level) {
    std::string prefix(6, ' ');
    for (int i = 0; i < level; ++i) prefix += "---";
    return prefix;
}

void SimpleWriter::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    // One resize and plain copies: appending piece by piece cost ~640
    // instructions a line, and *nodex writes ~80 lines a match.
    std::string_view name = graph.name(v.vertex);
    char digits[24];
    size_t ndigits = static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, v.needs).ptr - digits);
    std::string_view tag = pretty_ ? (v.exclusive ? "exclusive" : "shared") : (v.exclusive ? "x" : "s");
    size_t dashes = v.level > 0 ? 3 * static_cast<size_t>(v.level) : 0;
    size_t at = text_.size();
    starts_.push_back(at);
    text_.resize(at + 6 + dashes + name.size() + 1 + ndigits + 1 + tag.size() + 2);
    char* p = &text_[at];
    std::memset(p, ' ', 6), p += 6;
    for (size_t i = 0; i < dashes; i += 3) std::memcpy(p, "---", 3), p += 3;
    std::memcpy(p, name.data(), name.size()), p += name.size();
    *p++ = '[';
    std::memcpy(p, digits, ndigits), p += ndigits;
    *p++ = ':';
    std::memcpy(p, tag.data(), tag.size()), p += tag.size();
    *p++ = ']';
    *p = '\n';
}

Status SimpleWriter::flush(std::ostream& out) {
    if (pretty_) {
        size_t end = text_.size();
        for (auto it = starts_.rbegin(); it != starts_.rend(); ++it) {
            out.write(text_.data() + *it, static_cast<std::streamsize>(end - *it));
            end = *it;
        }
    } else {
        out.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    }
    reset();
    return ok_status();
}

}  // namespace rq
