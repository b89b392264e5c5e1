#include "utilities/hostlist.h"

#include <algorithm>
#include <limits>

namespace rq {
namespace {

// Host numbers longer than this are not treated as numbers (they would not
// fit in 64 bits); such names are kept whole.
constexpr size_t kMaxDigits = 18;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int decimal_digits(int64_t value) {
    int digits = 1;
    while (value >= 10) {
        value /= 10;
        ++digits;
    }
    return digits;
}

// `value` in decimal, left-padded with zeros to `width` characters.
std::string padded_number(int64_t value, int width) {
    std::string digits = std::to_string(value);
    if (static_cast<int>(digits.size()) < width)
        digits.insert(0, static_cast<size_t>(width) - digits.size(), '0');
    return digits;
}

// Parses a non-empty all-digit string of at most kMaxDigits; -1 otherwise.
int64_t parse_number(std::string_view text) {
    if (text.empty() || text.size() > kMaxDigits) return -1;
    int64_t value = 0;
    for (char c : text) {
        if (!is_digit(c)) return -1;
        value = value * 10 + (c - '0');
    }
    return value;
}

// ---- encoding ---------------------------------------------------------------

// A run of hosts being encoded: `prefix` + each number in [lo, hi] padded to
// `width`, or (numbered == false) the single host `prefix`.
struct EncodeRange {
    std::string prefix;
    int64_t lo = 0;
    int64_t hi = 0;
    int width = 0;
    bool numbered = false;
};

// Splits a host name into prefix and trailing number.
EncodeRange split_host(const std::string& host) {
    size_t digits_start = host.size();
    while (digits_start > 0 && is_digit(host[digits_start - 1])) --digits_start;
    size_t digit_count = host.size() - digits_start;

    EncodeRange range;
    if (digit_count == 0 || digit_count > kMaxDigits) {
        range.prefix = host;
        return range;
    }
    range.prefix = host.substr(0, digits_start);
    range.lo = range.hi = parse_number(std::string_view(host).substr(digits_start));
    range.width = static_cast<int>(digit_count);
    range.numbered = true;
    return range;
}

// Number of zeros `value` gets when printed with `width` characters.
int padding_zeros(int64_t value, int width) {
    return std::max(0, width - decimal_digits(value));
}

// Whether a range starting at `range_lo` printed at `range_width` can absorb a
// host `host_number` written with `host_width` characters. Compatible when
// the widths are equal or neither side is zero padded; on success the
// widths are unified (a classic hostlist rule: `node[8-10]` is fine,
// `node[08-09]` + `node10` is fine, `node8` + `node09` is not).
bool unify_widths(int64_t range_lo, int& range_width, int64_t host_number, int& host_width) {
    if (range_width == host_width) return true;
    bool lo_pad_changes = padding_zeros(range_lo, range_width) != padding_zeros(range_lo, host_width);
    bool host_pad_changes =
        padding_zeros(host_number, host_width) != padding_zeros(host_number, range_width);
    if (lo_pad_changes && host_pad_changes) return false;
    if (lo_pad_changes)
        host_width = range_width;
    else
        range_width = host_width;
    return true;
}

// Both numbered and sharing a prefix: may share one pair of brackets.
bool same_bracket_group(const EncodeRange& a, const EncodeRange& b) {
    return a.numbered && b.numbered && a.prefix == b.prefix;
}

std::string range_numbers(const EncodeRange& range) {
    if (!range.numbered) return {};
    std::string text = padded_number(range.lo, range.width);
    if (range.hi > range.lo) text += '-' + padded_number(range.hi, range.width);
    return text;
}

}  // namespace

std::string encode_hostlist(const std::vector<std::string>& hosts) {
    std::vector<EncodeRange> ranges;
    for (const std::string& host : hosts) {
        EncodeRange next = split_host(host);
        if (!ranges.empty()) {
            EncodeRange& last = ranges.back();
            if (same_bracket_group(last, next) && next.lo == last.hi + 1 &&
                unify_widths(last.lo, last.width, next.lo, next.width)) {
                last.hi = next.hi;
                continue;
            }
        }
        ranges.push_back(std::move(next));
    }

    std::string text;
    size_t i = 0;
    while (i < ranges.size()) {
        const EncodeRange& first = ranges[i];
        bool brackets = first.hi > first.lo ||
                        (i + 1 < ranges.size() && same_bracket_group(first, ranges[i + 1]));
        if (!text.empty()) text += ',';
        text += first.prefix;
        if (!brackets) {
            text += range_numbers(first);
            ++i;
            continue;
        }
        text += '[';
        text += range_numbers(first);
        for (++i; i < ranges.size() && same_bracket_group(ranges[i - 1], ranges[i]); ++i)
            text += ',' + range_numbers(ranges[i]);
        text += ']';
    }
    return text;
}

// ---- decoding ---------------------------------------------------------------

Result<Hostlist> Hostlist::parse(std::string_view text) {
    auto invalid = [&] {
        return make_error(Errc::kInvalid, "Invalid hostlist `" + std::string(text) + "'");
    };
    auto is_separator = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n'; };

    Hostlist list;
    size_t pos = 0;
    while (pos < text.size()) {
        if (is_separator(text[pos])) {  // empty terms are skipped
            ++pos;
            continue;
        }
        // A term runs to the next separator outside brackets.
        size_t end = pos;
        bool in_brackets = false;
        while (end < text.size() && (in_brackets || !is_separator(text[end]))) {
            if (text[end] == '[') {
                if (in_brackets) return invalid();
                in_brackets = true;
            } else if (text[end] == ']') {
                if (!in_brackets) return invalid();
                in_brackets = false;
            }
            ++end;
        }
        if (in_brackets) return invalid();
        std::string_view term = text.substr(pos, end - pos);
        pos = end;

        size_t open = term.find('[');
        if (open == std::string_view::npos) {
            Range host;
            host.prefix = std::string(term);
            list.ranges_.push_back(std::move(host));
            continue;
        }
        size_t close = term.find(']', open);
        std::string_view suffix = term.substr(close + 1);
        if (suffix.find_first_of("[]") != std::string_view::npos) return invalid();

        // The bracket body: comma-separated `N` or `N-M`.
        std::string_view body = term.substr(open + 1, close - open - 1);
        size_t start = 0;
        while (true) {
            size_t comma = std::min(body.find(',', start), body.size());
            std::string_view element = body.substr(start, comma - start);
            size_t dash = element.find('-');
            std::string_view lo_text = element.substr(0, dash);
            std::string_view hi_text =
                dash == std::string_view::npos ? lo_text : element.substr(dash + 1);
            Range range;
            range.prefix = std::string(term.substr(0, open));
            range.suffix = std::string(suffix);
            range.lo = parse_number(lo_text);
            range.hi = parse_number(hi_text);
            range.width = static_cast<int>(lo_text.size());
            range.numbered = true;
            if (range.lo < 0 || range.hi < 0 || range.lo > range.hi) return invalid();
            list.ranges_.push_back(std::move(range));
            if (comma == body.size()) break;
            start = comma + 1;
        }
    }
    return list;
}

bool Hostlist::range_contains(const Range& range, std::string_view host) const {
    if (!range.numbered) return host == range.prefix;
    size_t affixes = range.prefix.size() + range.suffix.size();
    if (host.size() <= affixes) return false;
    if (host.substr(0, range.prefix.size()) != range.prefix) return false;
    if (host.substr(host.size() - range.suffix.size()) != range.suffix) return false;
    std::string_view digits = host.substr(range.prefix.size(), host.size() - affixes);
    int64_t number = parse_number(digits);
    return number >= range.lo && number <= range.hi &&
           padded_number(number, range.width) == digits;
}

bool Hostlist::contains(std::string_view host) const {
    return std::any_of(ranges_.begin(), ranges_.end(),
                       [&](const Range& range) { return range_contains(range, host); });
}

int64_t Hostlist::size() const {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    int64_t total = 0;
    for (const Range& range : ranges_) {
        int64_t count = range.hi - range.lo + 1;
        total = (total > kMax - count) ? kMax : total + count;
    }
    return total;
}

std::vector<std::string> Hostlist::expand() const {
    std::vector<std::string> hosts;
    for (const Range& range : ranges_) {
        if (!range.numbered) {
            hosts.push_back(range.prefix);
            continue;
        }
        for (int64_t n = range.lo; n <= range.hi; ++n)
            hosts.push_back(range.prefix + padded_number(n, range.width) + range.suffix);
    }
    return hosts;
}

Result<std::vector<std::string>> decode_hostlist(std::string_view text) {
    auto list = Hostlist::parse(text);
    if (!list) return list.error();
    if (list->size() > kMaxExpandedHosts)
        return make_error(Errc::kRange,
                          "hostlist `" + std::string(text) + "' is too large to expand");
    return list->expand();
}

}  // namespace rq
