#include "utilities/idset.h"

#include <algorithm>

namespace rq {
namespace {

Error invalid_idset(std::string_view text) {
    return make_error(Errc::kInvalid, "Invalid idset `" + std::string(text) + "'");
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Parses a non-empty run of decimal digits that is the whole of `text` and
// whose value is at most kMaxIdsetId. Returns -1 when it is not.
int64_t parse_id(std::string_view text) {
    if (text.empty()) return -1;
    int64_t value = 0;
    for (char c : text) {
        if (!is_digit(c)) return -1;
        value = value * 10 + (c - '0');
        if (value > kMaxIdsetId) return -1;  // also stops any overflow
    }
    return value;
}

// Parses one list element: `N` or `N-M` with N <= M.
bool parse_element(std::string_view element, IdRange& range) {
    size_t dash = element.find('-');
    if (dash == std::string_view::npos) {
        range.lo = range.hi = parse_id(element);
        return range.lo >= 0;
    }
    range.lo = parse_id(element.substr(0, dash));
    range.hi = parse_id(element.substr(dash + 1));
    return range.lo >= 0 && range.hi >= 0 && range.lo <= range.hi;
}

// Sorts `ranges` and merges overlapping or adjacent ones.
std::vector<IdRange> normalize(std::vector<IdRange> ranges) {
    std::sort(ranges.begin(), ranges.end(),
              [](const IdRange& a, const IdRange& b) { return a.lo < b.lo; });
    std::vector<IdRange> merged;
    for (const IdRange& range : ranges) {
        if (!merged.empty() && range.lo <= merged.back().hi + 1)
            merged.back().hi = std::max(merged.back().hi, range.hi);
        else
            merged.push_back(range);
    }
    return merged;
}

}  // namespace

std::string encode_idset(std::vector<int64_t> ids) {
    ids.erase(std::remove_if(ids.begin(), ids.end(), [](int64_t id) { return id < 0; }),
              ids.end());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());

    std::string text;
    size_t i = 0;
    while (i < ids.size()) {
        // Extend [i, j] over the run of consecutive ids starting at i.
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        if (!text.empty()) text += ',';
        text += std::to_string(ids[i]);
        if (j > i) text += '-' + std::to_string(ids[j]);
        i = j + 1;
    }
    return text;
}

Result<std::vector<IdRange>> decode_idset_ranges(std::string_view text) {
    std::string_view body = text;
    if (!body.empty() && body.front() == '[') {
        if (body.size() < 2 || body.back() != ']') return invalid_idset(text);
        body = body.substr(1, body.size() - 2);
    }

    // Elements are separated by commas; empty elements (`1,,2`, a trailing
    // comma) are skipped, as a strtok()-style tokenizer would.
    std::vector<IdRange> ranges;
    size_t start = 0;
    while (start <= body.size()) {
        size_t comma = body.find(',', start);
        if (comma == std::string_view::npos) comma = body.size();
        std::string_view element = body.substr(start, comma - start);
        if (!element.empty()) {
            IdRange range;
            if (!parse_element(element, range)) return invalid_idset(text);
            ranges.push_back(range);
        }
        start = comma + 1;
    }
    return normalize(std::move(ranges));
}

Result<std::vector<int64_t>> decode_idset(std::string_view text) {
    auto ranges = decode_idset_ranges(text);
    if (!ranges) return ranges.error();

    int64_t total = 0;
    for (const IdRange& range : *ranges) total += range.hi - range.lo + 1;
    if (total > kMaxExpandedIds)
        return make_error(Errc::kRange,
                          "idset `" + std::string(text) + "' is too large to expand");

    std::vector<int64_t> ids;
    ids.reserve(static_cast<size_t>(total));
    for (const IdRange& range : *ranges)
        for (int64_t id = range.lo; id <= range.hi; ++id) ids.push_back(id);
    return ids;
}

bool idset_ranges_contain(const std::vector<IdRange>& ranges, int64_t id) {
    // First range whose high end is >= id; id is in the set iff it is in it.
    auto it = std::lower_bound(ranges.begin(), ranges.end(), id,
                               [](const IdRange& range, int64_t value) { return range.hi < value; });
    return it != ranges.end() && it->lo <= id;
}

}  // namespace rq
