#include "pools/pool_def.h"

#include <cctype>
#include <set>

namespace rq::pools {

namespace {

Error bad(std::string_view name, const std::string& what) {
    return make_error(Errc::kInvalid, "resource pool " + std::string(name) + ": " + what);
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

bool is_special(char c) { return c == '[' || c == ']' || c == ',' || c == '"' || std::isspace(static_cast<unsigned char>(c)); }

// A cursor over a list definition: `[a, "b c"]` or `[[a], [b, c]]`.
class ListParser {
public:
    ListParser(std::string_view name, std::string_view text) : name_(name), text_(text) {}

    Result<Pool> parse() {
        Pool pool;
        pool.name = std::string(name_);
        skip_space();
        if (!eat('[')) return fail("a list must start with '['");
        skip_space();
        if (peek() == '[') {
            pool.grouped = true;
            while (true) {
                skip_space();
                if (!eat('[')) return fail("expected '[' to start a group");
                auto group = values();
                if (!group) return group.error();
                if (group->empty()) return fail("a group is empty");
                pool.groups.push_back(std::move(*group));
                skip_space();
                if (eat(']')) break;
                if (!eat(',')) return fail("expected ',' or ']' after a group");
            }
            // One group is a plain list: crates/hyperqueue/src/worker/parser.rs:405-411.
            if (pool.groups.size() == 1) pool.grouped = false;
        } else {
            auto group = values();
            if (!group) return group.error();
            // HyperQueue refuses `[]`: crates/hyperqueue/src/worker/parser.rs:99-103.
            if (group->empty()) return fail("a list has to contain at least one element");
            pool.groups.push_back(std::move(*group));
        }
        skip_space();
        if (pos_ != text_.size()) return fail("unexpected text after the list");
        return pool;
    }

private:
    // Values up to and including the closing ']'.
    Result<std::vector<PoolItem>> values() {
        std::vector<PoolItem> out;
        skip_space();
        if (eat(']')) return out;
        while (true) {
            skip_space();
            auto value = scalar();
            if (!value) return value.error();
            out.push_back({std::move(*value), 1});
            skip_space();
            if (eat(']')) return out;
            if (!eat(',')) return fail("expected ',' or ']' after a value");
        }
    }

    Result<std::string> scalar() {
        if (eat('"')) {
            size_t end = text_.find('"', pos_);
            if (end == std::string_view::npos) return fail("unterminated quoted value");
            std::string v(text_.substr(pos_, end - pos_));
            pos_ = end + 1;
            if (v.empty()) return fail("an empty value");
            return v;
        }
        size_t start = pos_;
        while (pos_ < text_.size() && !is_special(text_[pos_])) ++pos_;
        if (pos_ == start) return fail("expected a value");
        return std::string(text_.substr(start, pos_ - start));
    }

    Error fail(const std::string& what) const {
        return bad(name_, what + " at offset " + std::to_string(pos_) + " of '" + std::string(text_) + "'");
    }
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    bool eat(char c) {
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    void skip_space() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }

    std::string_view name_;
    std::string_view text_;
    size_t pos_ = 0;
};

// The text between "word(" and ")", or false.
bool call_argument(std::string_view text, std::string_view word, std::string_view& arg) {
    if (text.substr(0, word.size()) != word) return false;
    std::string_view rest = trim(text.substr(word.size()));
    if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')') return false;
    arg = trim(rest.substr(1, rest.size() - 2));
    return true;
}

// HyperQueue's integers: a digit, then digits and `_` separators that are
// dropped (`1_000_000`); crates/hyperqueue/src/common/parser2.rs:216-230.
bool parse_hq_number(std::string_view text, int64_t& out) {
    if (text.empty() || text[0] < '0' || text[0] > '9') return false;
    std::string digits;
    for (char c : text)
        if (c != '_') digits += c;
    return parse_amount(digits, out);
}

Status check_unique(const Pool& pool) {
    std::set<std::string> seen;
    for (auto& group : pool.groups)
        for (auto& item : group)
            if (!seen.insert(item.id).second) return bad(pool.name, "value '" + item.id + "' appears twice");
    return ok_status();
}

}  // namespace

bool parse_amount(std::string_view text, int64_t& out) {
    if (text.empty() || text.size() > 19) return false;
    uint64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + uint64_t(c - '0');
    }
    if (v > uint64_t(kMaxAmount)) return false;
    out = static_cast<int64_t>(v);
    return true;
}

Status check_pool_name(std::string_view name) {
    if (name.empty()) return make_error(Errc::kInvalid, "resource pool: empty name");
    for (char c : name)
        if (std::isspace(static_cast<unsigned char>(c)) || c == '=' || c == '"' || c == '\'' || c == ',' ||
            c == '[' || c == ']')
            return make_error(Errc::kInvalid, "resource pool " + std::string(name) +
                                                  ": a name cannot contain whitespace, '=', ',', quotes or brackets");
    return ok_status();
}

Status check_hq_pool_name(std::string_view name) {
    RQ_TRY(check_pool_name(name));
    // crates/hyperqueue/src/worker/parser.rs:169-175: an ASCII letter, then
    // ASCII letters, digits and '/'.
    bool ok = std::isalpha(static_cast<unsigned char>(name[0])) && static_cast<unsigned char>(name[0]) < 0x80;
    for (char c : name)
        ok = ok && static_cast<unsigned char>(c) < 0x80 && (std::isalnum(static_cast<unsigned char>(c)) || c == '/');
    if (!ok)
        return make_error(Errc::kInvalid, "resource pool " + std::string(name) +
                                              ": a name must start with a letter and hold only letters, digits and '/'");
    return ok_status();
}

Result<Pool> parse_pool_definition(std::string_view name, std::string_view definition) {
    RQ_TRY(check_hq_pool_name(name));
    std::string_view def = trim(definition);
    if (def.empty()) return bad(name, "empty definition");
    Pool pool;
    pool.name = std::string(name);
    std::string_view arg;
    if (def.front() == '[') {
        auto parsed = ListParser(name, def).parse();
        if (!parsed) return parsed.error();
        RQ_TRY(check_unique(*parsed));
        return parsed;
    }
    if (call_argument(def, "sum", arg)) {
        // crates/hyperqueue/src/client/commands/worker.rs:382-387.
        if (name == "cpus") return bad(name, "Resource kind `sum` cannot be used with CPUs. CPUs must have identity");
        if (!parse_hq_number(arg, pool.size) || pool.size < 1)
            return bad(name, "sum(N) needs a positive integer N up to 2^63-1, got '" + std::string(arg) + "'");
        pool.sum = true;
        pool.groups.push_back({{std::string(name), pool.size}});
        return pool;
    }
    if (call_argument(def, "range", arg)) {
        size_t dash = arg.find('-');
        int64_t start = 0, end = 0;
        if (dash == std::string_view::npos || !parse_hq_number(trim(arg.substr(0, dash)), start) ||
            !parse_hq_number(trim(arg.substr(dash + 1)), end))
            return bad(name, "range(START-END) needs two non-negative integers, got '" + std::string(arg) + "'");
        if (end < start) return bad(name, "range(" + std::string(arg) + ") ends before it starts");
        if (end - start >= (int64_t(1) << 24)) return bad(name, "range(" + std::string(arg) + ") is too large");
        pool.groups.emplace_back();
        for (int64_t i = start; i <= end; ++i) pool.groups.back().push_back({std::to_string(i), 1});
        return pool;
    }
    size_t x = def.find('x');
    if (x != std::string_view::npos) {
        int64_t n = 0, m = 0;
        if (!parse_hq_number(def.substr(0, x), n) || !parse_hq_number(def.substr(x + 1), m) || n < 1 || m < 1)
            return bad(name, "NxM needs two positive integers, got '" + std::string(def) + "'");
        if (n > (int64_t(1) << 24) / m) return bad(name, std::string(def) + " is too large");
        pool.grouped = true;
        for (int64_t g = 0; g < n; ++g) {
            pool.groups.emplace_back();
            for (int64_t i = 0; i < m; ++i) pool.groups.back().push_back({std::to_string(g * m + i), 1});
        }
        return pool;
    }
    return bad(name, "unknown definition '" + std::string(def) +
                         "' (expected [a, b, ...], [[a, b], [c, d]], range(S-E), NxM or sum(N))");
}

Result<Pool> parse_resource_argument(std::string_view argument) {
    size_t eq = argument.find('=');
    if (eq == std::string_view::npos)
        return make_error(Errc::kInvalid, "--resource " + std::string(argument) + ": expected NAME=DEFINITION");
    return parse_pool_definition(trim(argument.substr(0, eq)), argument.substr(eq + 1));
}

namespace {

bool quoted_needed(const std::string& v) {
    for (char c : v)
        if (is_special(c)) return true;
    return v.empty();
}

std::string list_of(const std::vector<PoolItem>& items) {
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += quoted_needed(items[i].id) ? "\"" + items[i].id + "\"" : items[i].id;
    }
    return out + "]";
}

// Whether the ids are "S", "S+1", ... (decimal, no leading zeros).
bool consecutive(const std::vector<PoolItem>& items, int64_t first) {
    for (size_t i = 0; i < items.size(); ++i)
        if (items[i].id != std::to_string(first + int64_t(i)) || items[i].slots != 1) return false;
    return true;
}

}  // namespace

std::string format_pool_definition(const Pool& pool) {
    if (pool.sum) return "sum(" + std::to_string(pool.size) + ")";
    if (!pool.grouped && pool.groups.size() == 1) {
        auto& items = pool.groups[0];
        int64_t first = 0;
        if (!items.empty() && parse_amount(items[0].id, first) && consecutive(items, first))
            return "range(" + std::to_string(first) + "-" + std::to_string(first + int64_t(items.size()) - 1) + ")";
        return list_of(items);
    }
    size_t m = pool.groups.empty() ? 0 : pool.groups[0].size();
    bool uniform = m > 0;
    for (size_t g = 0; g < pool.groups.size() && uniform; ++g)
        uniform = pool.groups[g].size() == m && consecutive(pool.groups[g], int64_t(g * m));
    if (uniform) return std::to_string(pool.groups.size()) + "x" + std::to_string(m);
    std::string out = "[";
    for (size_t g = 0; g < pool.groups.size(); ++g) out += (g ? ", " : "") + list_of(pool.groups[g]);
    return out + "]";
}

}  // namespace rq::pools
