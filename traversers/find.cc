// `find` (spec/cli.md §5.6, traversal.md §16): the criteria parser, the
// predicate evaluation and the walk.
#include "traversers/find.h"

#include <cstdlib>

#include <algorithm>
#include <cctype>
#include <limits>

namespace rq {

namespace {

// ---- job ids ------------------------------------------------------------------

bool is_hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    return std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

// `digits` (at least one) in base 10 or 16, refusing anything that does not
// fit in 64 bits.
std::optional<uint64_t> parse_unsigned(std::string_view digits, unsigned base) {
    if (digits.empty()) return std::nullopt;
    uint64_t value = 0;
    for (char c : digits) {
        bool ok = base == 16 ? is_hex_digit(c) : (c >= '0' && c <= '9');
        if (!ok) return std::nullopt;
        uint64_t d = static_cast<uint64_t>(hex_value(c));
        if (value > (std::numeric_limits<uint64_t>::max() - d) / base) return std::nullopt;
        value = value * base + d;
    }
    return value;
}

// "xxxx.xxxx.xxxx.xxxx": four groups of 1-4 hex digits, most significant
// first, 16 bits each.
std::optional<uint64_t> parse_dothex(std::string_view text) {
    uint64_t value = 0;
    for (int group = 0; group < 4; ++group) {
        size_t dot = group < 3 ? text.find('.') : text.size();
        if (dot == std::string_view::npos || dot == 0 || dot > 4) return std::nullopt;
        auto part = parse_unsigned(text.substr(0, dot), 16);
        if (!part) return std::nullopt;
        value = (value << 16) | *part;
        text.remove_prefix(group < 3 ? dot + 1 : dot);
    }
    return value;
}

// F58: base 58 with the Bitcoin alphabet (no 0, O, I, l).
std::optional<uint64_t> parse_f58(std::string_view digits) {
    static constexpr std::string_view kAlphabet =
        "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    if (digits.empty()) return std::nullopt;
    uint64_t value = 0;
    for (char c : digits) {
        size_t d = kAlphabet.find(c);
        if (d == std::string_view::npos) return std::nullopt;
        if (value > (std::numeric_limits<uint64_t>::max() - d) / 58) return std::nullopt;
        value = value * 58 + d;
    }
    return value;
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

// ---- the parser -----------------------------------------------------------------

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

Error invalid(std::string message) { return make_error(Errc::kInvalid, std::move(message)); }

// Whitespace separates tokens; every parenthesis is a token of its own, so
// "(status=up" and "reserved)" split as the user means them.
std::vector<std::string_view> tokenize(std::string_view text) {
    std::vector<std::string_view> tokens;
    size_t pos = 0;
    while (pos < text.size()) {
        char c = text[pos];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++pos;
        } else if (c == '(' || c == ')') {
            tokens.push_back(text.substr(pos, 1));
            ++pos;
        } else {
            size_t end = pos;
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
                   text[end] != '(' && text[end] != ')')
                ++end;
            tokens.push_back(text.substr(pos, end - pos));
            pos = end;
        }
    }
    return tokens;
}

Result<FindPredicate> parse_predicate(std::string_view token) {
    size_t eq = token.find('=');
    if (eq == std::string_view::npos) return invalid("'" + std::string(token) + "' is not key=value");
    std::string_view key = token.substr(0, eq);
    std::string_view raw_value = token.substr(eq + 1);
    std::string value = lower(raw_value);
    auto bad_value = [&](const std::string& valid) {
        return invalid("invalid value '" + std::string(raw_value) + "' for " + std::string(key) + " (" + valid + ")");
    };
    // key=a|b: flag = (value == a); anything else is an error.
    auto two_way = [&](FindPredicate::Key k, const char* yes, const char* no) -> Result<FindPredicate> {
        if (value != yes && value != no) return bad_value(std::string("valid: ") + yes + ", " + no);
        FindPredicate p;
        p.key = k;
        p.flag = value == yes;
        return p;
    };

    using Key = FindPredicate::Key;
    if (key == "status") return two_way(Key::kStatus, "down", "up");
    if (key == "sched-now") return two_way(Key::kSchedNow, "allocated", "free");
    if (key == "sched-future") return two_way(Key::kSchedFuture, "reserved", "free");
    FindPredicate p;
    if (key == "agfilter") {
        if (value != "true" && value != "t" && value != "false" && value != "f")
            return bad_value("valid: true, t, false, f");
        p.key = Key::kAgfilter;
        p.flag = value == "true" || value == "t";
        return p;
    }
    if (key == "names") {
        auto names = Hostlist::parse(value);
        if (!names) return bad_value("expected a host list such as node[0-3],core5");
        p.key = Key::kNames;
        p.names = std::move(*names);
        return p;
    }
    if (key == "property") {
        if (value.empty()) return bad_value("expected a property name");
        p.key = Key::kProperty;
        p.property = std::move(value);
        return p;
    }
    if (key == "free-at") {  // ours: `available --at T` (RFC 16 Available)
        char* end = nullptr;
        std::string text(raw_value);
        long long at = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || at < 0) return bad_value("expected a time in seconds, 0 or more");
        p.key = Key::kFreeAt;
        p.at = at;
        return p;
    }
    static const std::pair<std::string_view, Key> kJobKeys[] = {
        {"jobid-alloc", Key::kJobidAlloc},
        {"jobid-reserved", Key::kJobidReserved},
        {"jobid-tag", Key::kJobidTag},
        {"jobid-span", Key::kJobidSpan},
    };
    for (auto& [name, k] : kJobKeys) {
        if (key != name) continue;
        // Not lower-cased: F58 digits are case-sensitive.
        auto jobid = parse_flux_jobid(raw_value);
        if (!jobid) return bad_value("expected a job id");
        p.key = k;
        p.jobid = *jobid;
        return p;
    }
    return invalid("unknown key '" + std::string(key) +
                   "' (valid: status, sched-now, sched-future, agfilter, names, property, jobid-alloc, "
                   "jobid-reserved, jobid-tag, jobid-span)");
}

// Recursive descent over the token list. The grammar:
//   group := term { [and|or] term }      (no operator = and)
//   term  := key=value | '(' group ')'
// The recursion only follows parentheses and is capped at kMaxNesting.
class Parser {
public:
    explicit Parser(std::vector<std::string_view> tokens) : tokens_(std::move(tokens)) {}

    Result<std::vector<FindTerm>> parse_all() {
        auto group = parse_group(0);
        if (!group) return group;
        if (pos_ < tokens_.size()) return invalid("unbalanced ')'");
        if (group->empty()) return invalid("empty expression");
        return group;
    }

    // The last agfilter / jobid-* predicate seen.
    bool agfilter = false;
    std::optional<uint64_t> jobid;

private:
    bool at_end() const { return pos_ >= tokens_.size(); }

    // Parses terms until the end or a ')' (left for the caller); the group
    // may be empty (the caller tells which error that is).
    Result<std::vector<FindTerm>> parse_group(int depth) {
        std::vector<FindTerm> terms;
        FindOp op = FindOp::kAnd;
        bool explicit_op = false;  // an `and`/`or` is waiting for its right operand
        while (!at_end() && tokens_[pos_] != ")") {
            std::string_view token = tokens_[pos_];
            if (token == "and" || token == "or") {
                if (terms.empty()) return invalid("'" + std::string(token) + "' without a left operand");
                if (explicit_op) return invalid("two operators in a row");
                op = token == "and" ? FindOp::kAnd : FindOp::kOr;
                explicit_op = true;
                ++pos_;
                continue;
            }
            FindTerm term;
            term.op = op;
            if (token == "(") {
                if (depth + 1 > FindExpression::kMaxNesting) return invalid("parentheses nested too deeply");
                ++pos_;
                auto group = parse_group(depth + 1);
                if (!group) return group;
                if (at_end()) return invalid("missing ')'");
                ++pos_;  // the ')'
                if (group->empty()) return invalid("empty parentheses");
                term.group = std::move(*group);
            } else {
                auto predicate = parse_predicate(token);
                if (!predicate) return predicate.error();
                remember(*predicate);
                term.predicate = std::move(*predicate);
                ++pos_;
            }
            terms.push_back(std::move(term));
            op = FindOp::kAnd;
            explicit_op = false;
        }
        if (explicit_op) return invalid("operator without a right operand");
        return terms;
    }

    void remember(const FindPredicate& p) {
        if (p.key == FindPredicate::Key::kAgfilter) agfilter = p.flag;
        if (p.is_jobid()) jobid = p.jobid;
    }

    std::vector<std::string_view> tokens_;
    size_t pos_ = 0;
};

// ---- evaluation -----------------------------------------------------------------

// Flux job ids are unsigned 64-bit, ours signed: an id above INT64_MAX
// names no job. `jobs` is a map or a set keyed by JobId.
template <class Jobs>
bool has_job(uint64_t jobid, const Jobs& jobs) {
    return jobid <= static_cast<uint64_t>(std::numeric_limits<JobId>::max()) &&
           jobs.count(static_cast<JobId>(jobid)) != 0;
}

bool evaluate_predicate(const FindPredicate& p, const FindTarget& t) {
    using Key = FindPredicate::Key;
    const VertexSchedule* record = t.store.find(t.vertex);
    switch (p.key) {
    case Key::kStatus: return t.flags.down == p.flag;
    case Key::kSchedNow: return t.flags.allocated == p.flag;
    case Key::kSchedFuture: return t.flags.reserved == p.flag;
    case Key::kAgfilter: return true;
    case Key::kNames: return p.names.contains(t.graph.name(t.vertex));
    case Key::kProperty: {
        const PropertyMap* properties = t.graph.properties(t.vertex);
        return properties != nullptr && properties->count(p.property) != 0;
    }
    case Key::kFreeAt:
        return record == nullptr || (record->plan.avail_at(p.at) == record->plan.total() &&
                                     record->x_checker().avail_at(p.at) == record->x_checker().total());
    case Key::kJobidAlloc: return record != nullptr && has_job(p.jobid, record->allocations);
    case Key::kJobidReserved: return record != nullptr && has_job(p.jobid, record->reservations);
    case Key::kJobidTag: return record != nullptr && has_job(p.jobid, record->tags);
    case Key::kJobidSpan: {
        const SubtreePlan* plan = t.store.subtree(t.vertex, 0);
        return plan != nullptr && has_job(p.jobid, plan->job2span);
    }
    }
    return false;
}

// Folds a group strictly left to right: ((t1 op2 t2) op3 t3) ...
bool evaluate_group(const std::vector<FindTerm>& terms, const FindTarget& target) {
    bool result = false;
    for (size_t i = 0; i < terms.size(); ++i) {
        const FindTerm& term = terms[i];
        if (i > 0) {
            // The outcome no longer depends on this term.
            if (term.op == FindOp::kAnd && !result) continue;
            if (term.op == FindOp::kOr && result) continue;
        }
        result = term.predicate ? evaluate_predicate(*term.predicate, target)
                                : evaluate_group(term.group, target);
    }
    return result;
}

}  // namespace

std::optional<uint64_t> parse_flux_jobid(std::string_view text) {
    if (text.empty()) return std::nullopt;
    if (starts_with(text, "0x") || starts_with(text, "0X")) {
        text.remove_prefix(2);
        return parse_unsigned(text, 16);
    }
    if (starts_with(text, "job.")) return parse_dothex(text.substr(4));
    if (text.find('.') != std::string_view::npos) return parse_dothex(text);
    if (starts_with(text, "\xC6\x92")) return parse_f58(text.substr(2));  // "ƒ" in UTF-8
    if (text[0] == 'f') return parse_f58(text.substr(1));
    return parse_unsigned(text, 10);
}

Result<FindExpression> FindExpression::parse(std::string_view text) {
    Parser parser(tokenize(text));
    auto terms = parser.parse_all();
    if (!terms) return terms.error();
    FindExpression expression;
    expression.terms_ = std::move(*terms);
    expression.agfilter_ = parser.agfilter;
    expression.jobid_ = parser.jobid;
    return expression;
}

bool FindExpression::evaluate(const FindTarget& target) const { return evaluate_group(terms_, target); }

// ---- the walk -------------------------------------------------------------------------

namespace {

// traversal.md §16 for one vertex, iteratively: a stack of frames instead
// of recursion, so a very deep graph cannot overflow the C++ stack.
class FindWalk {
public:
    FindWalk(const FindContext& context, const FindExpression& expression, MatchWriter& writer)
        : ctx_(context), graph_(context.graph), expression_(expression), writer_(writer),
          visited_(context.graph.num_vertices(), false) {}

    Status run() {
        VertexId root = graph_.root(ctx_.dominant);
        if (root != kNoVertex) {
            enter(root, FindFlags{});
            while (!stack_.empty()) {
                EdgeId next = next_child_edge(stack_.back());
                if (next != kNoEdge) {
                    stack_.back().child_edge = next;
                    enter(graph_.target(next), stack_.back().flags);
                    continue;
                }
                // Every child is done: decide about the vertex itself.
                auto emitted = finish(stack_.back());
                if (!emitted) return emitted.error();
                stack_.pop_back();
                if (!stack_.empty() && *emitted > 0) {
                    Frame& parent = stack_.back();
                    writer_.edge(graph_, parent.child_edge, false);
                    parent.count += *emitted;
                }
            }
        }
        writer_.time(0, 0);
        return ok_status();
    }

private:
    struct Frame {
        VertexId vertex;
        FindFlags flags;                   // inherited ∪ the vertex's own
        ResourceGraph::EdgeList::iterator edge;  // next out-edge to look at
        EdgeId child_edge = kNoEdge;       // the edge to the child being walked
        int64_t count = 0;                 // vertices emitted below
    };

    void enter(VertexId u, FindFlags flags) {
        visited_[u] = true;
        if (!graph_.is_up(u)) flags.down = true;
        if (VertexSchedule* record = ctx_.store.find(u)) {
            if (!record->allocations.empty()) flags.allocated = true;
            if (!record->reservations.empty()) flags.reserved = true;
            // Labels belong to the match that stored them; by now they are
            // stale (output.md §1.3: find clears them).
            if (!record->ephemeral.empty()) {
                record->ephemeral.clear();
                ctx_.store.note_labels(u);
            }
        }
        stack_.push_back(Frame{u, flags, graph_.out(u).begin()});
    }

    // The next out-edge of the dominant subsystem to a vertex not yet
    // visited (an already visited target is skipped, as in every walk).
    EdgeId next_child_edge(Frame& frame) {
        const auto end = graph_.out(frame.vertex).end();
        for (; frame.edge != end; ++frame.edge) {
            EdgeId e = *frame.edge;
            if (graph_.subsystem(e) == ctx_.dominant && !visited_[graph_.target(e)]) {
                ++frame.edge;
                return e;
            }
        }
        return kNoEdge;
    }

    // How many vertices of the frame's subtree end up emitted (0 = the
    // vertex is not emitted and its parent does not emit the edge to it).
    Result<int64_t> finish(const Frame& frame) {
        VertexId u = frame.vertex;
        bool match = expression_.evaluate(FindTarget{graph_, ctx_.store, u, frame.flags});
        if (!match && frame.count == 0) return int64_t{0};

        std::map<std::string, std::string> agfilter;
        if (expression_.agfilter()) {
            const SubtreePlan* plan = ctx_.store.subtree(u, 0);
            if (plan == nullptr) return int64_t{0};
            RQ_TRY(agfilter_data(u, *plan, agfilter));
        }
        VertexEmission emission;
        emission.vertex = u;
        emission.needs = graph_.size(u);
        emission.exclusive = true;
        emission.parent_exclusive = false;
        emission.level = static_cast<int>(stack_.size());
        if (expression_.agfilter()) emission.agfilter = &agfilter;
        writer_.vertex(graph_, emission);
        return frame.count + 1;
    }

    // One "used:<u>, total:<T>" entry per type of the vertex's subtree plan.
    Status agfilter_data(VertexId u, const SubtreePlan& plan, std::map<std::string, std::string>& out) {
        const MultiPlanner& planners = plan.plan;
        std::optional<SpanId> span;
        if (auto jobid = expression_.jobid()) {
            if (!has_job(*jobid, plan.job2span))
                return make_error(Errc::kNotFound, "dom_find_dfv: span missing in job2span  for vertex: " +
                                                       std::string(graph_.name(u)));
            span = plan.job2span.at(static_cast<JobId>(*jobid));
        }
        for (size_t i = 0; i < planners.size(); ++i) {
            const Planner& planner = planners.planner(i);
            int64_t total = planner.total();
            int64_t used = 0;
            if (span) {
                used = planners.span_amount(*span, i).value_or(0);
            } else {
                used = total - planner.avail_at(ctx_.now);
                if (used == 0) used = total - planner.avail_at(0);
            }
            out[graph_.types().name(planners.type(i))] =
                "used:" + std::to_string(used) + ", total:" + std::to_string(total);
        }
        return ok_status();
    }

    const FindContext& ctx_;
    const ResourceGraph& graph_;
    const FindExpression& expression_;
    MatchWriter& writer_;
    std::vector<bool> visited_;  // grey or black: our own marks, not the traverser's colours
    std::vector<Frame> stack_;
};

}  // namespace

Status find_walk(const FindContext& context, const FindExpression& expression, MatchWriter& writer) {
    return FindWalk(context, expression, writer).run();
}

Status find_resources(const FindContext& context, std::string_view criteria, MatchWriter& writer) {
    auto expression = FindExpression::parse(criteria);
    if (!expression)  // the reference's words, then why
        return make_error(Errc::kInvalid, "findfind: invalid criteria: " + std::string(criteria) + ".",
                          expression.message());
    return find_walk(context, *expression, writer);
}

}  // namespace rq
