#include "pools/request.h"

#include <cctype>
#include <set>

#include "pools/pool_def.h"

namespace rq::pools {

namespace {

Error bad(const std::string& item, const std::string& what) {
    return make_error(Errc::kInvalid, "request " + item + ": " + what);
}

std::string trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return std::string(s);
}

// Splits at whitespace and commas outside double quotes; quotes are
// removed. `commas` tells whether a comma separated two items.
Result<std::vector<std::string>> split_items(std::string_view text, bool& commas) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false, any = false;
    auto finish = [&] {
        if (any) out.push_back(cur);
        cur.clear();
        any = false;
    };
    for (char c : text) {
        if (c == '"') {
            quoted = !quoted;
            any = true;
        } else if (!quoted && (c == ',' || std::isspace(static_cast<unsigned char>(c)))) {
            if (c == ',') commas = true;
            finish();
        } else {
            cur += c;
            any = true;
        }
    }
    if (quoted) return make_error(Errc::kInvalid, "request: unterminated quote in '" + std::string(text) + "'");
    finish();
    return out;
}

Result<PoolRequest> parse_item(const std::string& item, bool zero_ok) {
    size_t eq = item.find('=');
    if (eq == std::string::npos) return bad(item, "expected NAME=AMOUNT");
    PoolRequest r;
    r.name = trim(std::string_view(item).substr(0, eq));
    if (Status s = check_pool_name(r.name); !s) return bad(item, s.message());
    std::string value = trim(std::string_view(item).substr(eq + 1));
    size_t space = value.find_first_of(" \t");
    std::string amount = value.substr(0, space);
    if (space != std::string::npos) {
        std::string word = trim(std::string_view(value).substr(space));
        auto strategy = parse_strategy(word);
        if (!strategy) return bad(item, "unknown strategy '" + word + "' (compact, compact!, tight, tight!, scatter)");
        r.strategy = *strategy;
    }
    if (amount == "all") {
        r.all = true;
    } else if (!parse_amount(amount, r.amount) || r.amount < (zero_ok ? 0 : 1)) {
        return bad(item, "the amount must be a positive integer up to 2^63-1 or `all`, got '" + amount + "'");
    }
    return r;
}

Result<Request> parse_ctest(std::string_view text) {
    Request req;
    req.ctest = true;
    std::string all(text);
    size_t start = 0;
    while (start <= all.size()) {
        size_t end = all.find(';', start);
        if (end == std::string::npos) end = all.size();
        std::string group = trim(std::string_view(all).substr(start, end - start));
        start = end + 1;
        if (group.empty()) continue;
        int64_t copies = 1;
        std::vector<CtestRequirement> reqs;
        size_t pos = 0;
        bool first = true;
        while (pos <= group.size()) {
            size_t comma = group.find(',', pos);
            if (comma == std::string::npos) comma = group.size();
            std::string part = trim(std::string_view(group).substr(pos, comma - pos));
            pos = comma + 1;
            size_t colon = part.find(':');
            if (first && colon == std::string::npos) {
                if (!parse_amount(part, copies) || copies < 1 || copies > 4096)
                    return bad(group, "a group count must be an integer from 1 to 4096, got '" + part + "'");
                first = false;
                continue;
            }
            first = false;
            if (colon == std::string::npos) return bad(group, "expected TYPE:SLOTS, got '" + part + "'");
            CtestRequirement r;
            r.type = trim(std::string_view(part).substr(0, colon));
            std::string slots = trim(std::string_view(part).substr(colon + 1));
            if (Status s = check_pool_name(r.type); !s) return bad(group, s.message());
            if (!parse_amount(slots, r.slots) || r.slots < 1)
                return bad(group, "slots must be a positive integer, got '" + slots + "'");
            reqs.push_back(r);
        }
        if (reqs.empty()) return bad(group, "a group needs at least one TYPE:SLOTS");
        for (int64_t i = 0; i < copies; ++i) req.groups.push_back(reqs);
    }
    if (req.groups.empty()) return bad(std::string(text), "no resource group");
    return req;
}

}  // namespace

Result<Request> parse_request(std::string_view text) {
    std::string t = trim(text);
    if (t.empty()) return make_error(Errc::kInvalid, "request: nothing requested");
    if (t.find(':') != std::string::npos && t.find('=') == std::string::npos) return parse_ctest(t);
    bool commas = false;
    auto items = split_items(t, commas);
    if (!items) return items.error();
    Request req;
    req.canary = commas;
    std::set<std::string> names;
    for (const std::string& item : *items) {
        auto r = parse_item(item, commas);  // canary asks for 0 of a type
        if (!r) return r.error();
        if (!names.insert(r->name).second) return bad(item, "pool " + r->name + " is requested twice");
        req.pools.push_back(*r);
    }
    return req;
}

}  // namespace rq::pools
