#include "pools/request.h"

#include <algorithm>
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

// One NAME=AMOUNT item. canary's counts are whole numbers, 0 allowed, with
// no strategy and no `all` (canary's jobspec.py:252-256 takes ints only).
Result<PoolRequest> parse_item(const std::string& item, bool canary) {
    size_t eq = item.find('=');
    if (eq == std::string::npos) return bad(item, "expected NAME=AMOUNT");
    PoolRequest r;
    r.name = trim(std::string_view(item).substr(0, eq));
    if (Status s = check_pool_name(r.name); !s) return bad(item, s.message());
    std::string value = trim(std::string_view(item).substr(eq + 1));
    size_t space = value.find_first_of(" \t");
    std::string amount = value.substr(0, space);
    if (canary && (space != std::string::npos || amount == "all"))
        return bad(item, "a canary count is a whole number (0 or more); `all` and strategies are "
                         "HyperQueue's (request --as hq)");
    if (space != std::string::npos) {
        std::string word = trim(std::string_view(value).substr(space));
        auto strategy = parse_strategy(word);
        if (!strategy) return bad(item, "unknown strategy '" + word + "' (compact, compact!, tight, tight!, scatter)");
        r.strategy = *strategy;
    }
    if (amount == "all") {
        r.all = true;
    } else if (!parse_amount(amount, r.amount) || r.amount < (canary ? 0 : 1)) {
        return bad(item, "the amount must be a positive integer up to 2^63-1 or `all`, got '" + amount + "'");
    }
    return r;
}

// The states of CTest's RESOURCE_GROUPS lexer
// (CMake Source/LexerParser/cmCTestResourceGroupsLexer.in.l:43-47).
enum class LexState { kInitial, kGroupsStart, kGroupsEnd, kResourceStart, kResourceCount, kResourceEnd };

// Longest run of characters from `set` at `pos`.
size_t run_of(std::string_view text, size_t pos, bool (*in_set)(char)) {
    size_t end = pos;
    while (end < text.size() && in_set(text[end])) ++end;
    return end - pos;
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_'; }

// The lexer's helper: requirements gather in `group` until a `;` or the
// end writes it `copies` times; the count then resets to 1
// (CMake Source/CTest/cmCTestResourceGroupsLexerHelper.cxx:43-55).
struct GroupWriter {
    Request& req;
    std::vector<CtestRequirement> group;
    int64_t copies = 1;
    void write() {
        for (int64_t i = 0; i < copies; ++i) req.groups.push_back(group);
        group.clear();
        copies = 1;
    }
};

bool valid_type_name(std::string_view name) {
    return !name.empty() && !is_digit(name[0]) && run_of(name, 0, is_name_char) == name.size();
}

// Where a requirement starts and a `TYPE:` follows, the type is checked
// with CTest's rule (CMake Source/LexerParser/cmCTestResourceGroupsLexer.in.l:34,
// IDENTIFIER [a-z_][a-z0-9_]*): `GPUs:2` names the type, not a character.
Status check_type_name(std::string_view text, size_t pos, bool requirement_start) {
    if (!requirement_start) return ok_status();
    size_t colon = text.find(':', pos);
    size_t end = text.find_first_of(",;", pos);
    if (colon == std::string_view::npos || colon > end || colon == pos) return ok_status();
    std::string_view type = text.substr(pos, colon - pos);
    if (valid_type_name(type) || std::all_of(type.begin(), type.end(), is_digit)) return ok_status();
    return make_error(Errc::kInvalid, "'" + std::string(type) +
                                          "' is not a CTest resource type name (^[a-z_][a-z0-9_]*$)");
}

}  // namespace

bool is_ctest_type_name(std::string_view name) { return valid_type_name(name); }

const char* dialect_name(Dialect d) {
    switch (d) {
        case Dialect::kCanary: return "canary";
        case Dialect::kCtest: return "ctest";
        case Dialect::kHq: break;
    }
    return "hq";
}

std::optional<Dialect> parse_dialect(std::string_view word) {
    for (Dialect d : {Dialect::kHq, Dialect::kCanary, Dialect::kCtest})
        if (word == dialect_name(d)) return d;
    return std::nullopt;
}

Dialect dialect_of_format(const std::string& load_format) {
    if (load_format == "ctest") return Dialect::kCtest;
    if (load_format == "canary") return Dialect::kCanary;
    return Dialect::kHq;
}

Result<Request> parse_resource_groups(std::string_view text) {
    // CMake users write the property quoted: "2,gpus:2;gpus:4".
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
    Request req;
    req.dialect = Dialect::kCtest;
    GroupWriter out{req, {}, 1};
    auto fail = [&](size_t pos, const std::string& what) -> Error {
        return make_error(Errc::kInvalid, "request '" + std::string(text) + "': at character " +
                                              std::to_string(pos + 1) + ": " + what);
    };
    auto number = [&](size_t pos, size_t len, int64_t& value, int64_t most, const char* what) -> Status {
        if (!parse_amount(text.substr(pos, len), value) || value > most)
            return fail(pos, std::string(what) + " must be at most " + std::to_string(most));
        return ok_status();
    };
    // No lexer rule takes white space, so any of it fails the whole value.
    size_t space = text.find_first_of(" \t\r\n\v\f");
    if (space != std::string_view::npos) return fail(space, "white space is not allowed in RESOURCE_GROUPS");
    LexState state = LexState::kInitial;
    size_t pos = 0;
    while (pos < text.size()) {
        bool group_start = state == LexState::kInitial || state == LexState::kGroupsStart;
        bool after_item = state == LexState::kGroupsEnd || state == LexState::kResourceEnd;
        size_t name = run_of(text, pos, is_name_char);
        size_t digits = run_of(text, pos, is_digit);
        char c = text[pos];
        if ((group_start || state == LexState::kResourceStart) && name > 0 && !is_digit(c) &&
            pos + name < text.size() && text[pos + name] == ':') {  // lexer rule {IDENTIFIER}:
            out.group.push_back({std::string(text.substr(pos, name)), 1});
            pos += name + 1;
            state = LexState::kResourceCount;
        } else if (group_start && digits > 0) {  // a group count; 0 asks for nothing
            // CTest takes any count; ours is bounded to keep the request small.
            if (Status s = number(pos, digits, out.copies, 4096, "a group count"); !s) return s.error();
            pos += digits;
            state = LexState::kGroupsEnd;
        } else if (state == LexState::kResourceCount && digits > 0) {
            int64_t& slots = out.group.back().slots;
            if (Status s = number(pos, digits, slots, kMaxAmount, "slots"); !s) return s.error();
            if (slots == 0) return fail(pos, "slots must be at least 1");
            pos += digits;
            state = LexState::kResourceEnd;
        } else if (after_item && c == ',') {
            pos += run_of(text, pos, [](char x) { return x == ','; });
            state = LexState::kResourceStart;
        } else if (c == ';' && state != LexState::kResourceCount) {
            // After `N,` or at a group's start a `;` writes nothing: the
            // lexer keeps the pending requirements and count (lexer :76-83).
            if (after_item) out.write();
            pos += run_of(text, pos, [](char x) { return x == ';'; });
            state = LexState::kGroupsStart;
        } else if (state == LexState::kResourceCount) {
            return fail(pos, "expected the slots after '" + out.group.back().type + ":'");
        } else if (Status named = check_type_name(text, pos, group_start || state == LexState::kResourceStart);
                   !named) {
            return fail(pos, named.message());
        } else {
            return fail(pos, "unexpected '" + std::string(1, c) +
                                 "' (expected [COUNT,]TYPE:SLOTS[,TYPE:SLOTS...] groups separated by ';')");
        }
    }
    if (state == LexState::kResourceCount) return fail(pos, "expected the slots after '" + out.group.back().type + ":'");
    if (state != LexState::kInitial && state != LexState::kGroupsStart) out.write();  // lexer :85-92
    return req;
}

namespace {

// RESOURCE_GROUPS has no `=`; a bare count (`2`) or `;` is CTest's too.
bool looks_like_ctest(std::string_view t) {
    if (t.find('=') != std::string_view::npos) return false;
    if (t.find(':') != std::string_view::npos) return true;
    return std::all_of(t.begin(), t.end(), [](char c) { return is_digit(c) || c == ',' || c == ';' || c == '"'; });
}

// The other dialects' hint for a request that is not in this one.
std::string hint_for(std::string_view t, Dialect dialect) {
    if (dialect != Dialect::kCtest && looks_like_ctest(t)) return " (CTest's RESOURCE_GROUPS: request --as ctest)";
    return "";
}

}  // namespace

Result<Request> parse_request(std::string_view text, Dialect dialect) {
    std::string t = trim(text);
    // An empty RESOURCE_GROUPS is CTest's "no groups"; the others ask for something.
    if (dialect == Dialect::kCtest) {
        auto groups = parse_resource_groups(t);
        if (!groups && t.find('=') != std::string::npos)
            return make_error(Errc::kInvalid, groups.message() + " (HyperQueue's NAME=AMOUNT: request --as hq)");
        return groups;
    }
    if (t.empty()) return make_error(Errc::kInvalid, "request: nothing requested");
    bool commas = false;
    auto items = split_items(t, commas);
    if (!items) return items.error();
    bool canary = dialect == Dialect::kCanary;
    // `hq submit --resource` takes one NAME=AMOUNT per flag: a comma is
    // part of the amount there, never a separator.
    if (commas && !canary)
        return make_error(Errc::kInvalid, "request '" + t + "': HyperQueue items are separated by spaces, not commas" +
                                              (looks_like_ctest(t) ? hint_for(t, dialect)
                                                                   : " (canary's comma form: request --as canary)"));
    Request req;
    req.dialect = dialect;
    std::set<std::string> names;
    for (const std::string& item : *items) {
        auto r = parse_item(item, canary);
        if (!r) return make_error(Errc::kInvalid, r.message() + hint_for(t, dialect));
        if (!names.insert(r->name).second) return bad(item, "pool " + r->name + " is requested twice");
        req.pools.push_back(*r);
    }
    return req;
}

Result<Request> parse_request_text(std::string_view text, Dialect dialect) {
    std::string t = trim(text);
    if (t.rfind("--as", 0) == 0 && t.size() > 4 && std::isspace(static_cast<unsigned char>(t[4]))) {
        std::string rest = trim(std::string_view(t).substr(4));
        size_t end = rest.find_first_of(" \t");
        std::string word = rest.substr(0, end);
        auto named = parse_dialect(word);
        if (!named) return make_error(Errc::kInvalid, "request --as " + word + ": expected hq, canary or ctest");
        return parse_request(end == std::string::npos ? "" : std::string_view(rest).substr(end), *named);
    }
    return parse_request(t, dialect);
}

std::string request_text(Dialect dialect, const std::string& items) {
    if (dialect == Dialect::kHq) return items;
    return std::string("--as ") + dialect_name(dialect) + " " + items;
}

}  // namespace rq::pools
