// EntryLog (state/journal.h): journal entries in compact storage.
//
// An entry is encoded as: the line, the inputs (count, then per input the
// path's id in paths_ and blob + 1), the timing and the touched jobs
// (count, then each id as a zigzag delta from the previous one). Numbers
// are LEB128 varints.
//
// The line is `length << 1` and the bytes, or, when it repeats the last
// line written out in full (scripts send the same `match` thousands of
// times), `position << 1 | 1` with the position of that line's entry.
// The timing (state/session_state.cc, "%a %a %a N" then " id:%a" per job)
// is `count << 1 | 1` and the binary numbers when its text is exactly what
// those numbers print as (3 doubles, N, then per job a zigzag id delta and
// a double), which is ~40 bytes instead of ~100; otherwise `length << 1`
// and the text.
#include "state/journal.h"

#include <algorithm>
#include <cstring>

namespace rq::state {

namespace {

void put(std::string& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

uint64_t get(const char*& p) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        auto byte = static_cast<unsigned char>(*p++);
        v |= uint64_t(byte & 0x7f) << shift;
        if (byte < 0x80) return v;
    }
}

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// The line written out in full at `p` (an entry's start).
std::string line_at(const char* p) {
    uint64_t n = get(p) >> 1;
    return std::string(p, n);
}

void put_double(std::string& out, double v) {
    char raw[sizeof v];
    std::memcpy(raw, &v, sizeof v);
    out.append(raw, sizeof v);
}

double get_double(const char*& p) {
    double v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
}

// The canonical text of a zero or normal double as printf's %a writes it
// (glibc: "0x1.8p-3", "-0x1p+0", "0x0p+0", fraction without trailing
// zeros, exponent with its sign). Parsing accepts exactly these texts, so
// whatever parses prints back the same; anything else (subnormals, inf,
// nan, other spellings) stays text. Hand-written: strtod and snprintf cost
// ~7,000 instructions per match here.
const char kHex[] = "0123456789abcdef";

void print_hex_double(std::string& out, double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    if (bits >> 63) out += '-';
    const uint64_t biased = (bits >> 52) & 0x7ff;
    uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
    if (biased == 0) {  // zero (subnormals never get here)
        out += "0x0p+0";
        return;
    }
    out += "0x1";
    if (mant != 0) {
        out += '.';
        for (int shift = 48; mant != 0; shift -= 4) {
            out += kHex[(mant >> shift) & 0xf];
            mant &= (uint64_t(1) << shift) - 1;
        }
    }
    int64_t e = static_cast<int64_t>(biased) - 1023;
    out += 'p';
    out += e < 0 ? '-' : '+';
    out += std::to_string(e < 0 ? -e : e);
}

// Reads a decimal integer as PRId64 prints it (no '+', no leading zeros,
// no "-0").
bool parse_int(const char*& p, const char* end, int64_t& v) {
    const char* s = p;
    bool neg = s < end && *s == '-';
    if (neg) ++s;
    const char* digits = s;
    uint64_t u = 0;
    while (s < end && *s >= '0' && *s <= '9') {
        if (s - digits == 19) return false;
        u = u * 10 + static_cast<uint64_t>(*s++ - '0');
    }
    const size_t n = static_cast<size_t>(s - digits);
    if (n == 0 || (n > 1 && *digits == '0') || (neg && u == 0)) return false;
    if (u > uint64_t(INT64_MAX) + (neg ? 1 : 0)) return false;
    v = neg ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
    p = s;
    return true;
}

// 0-15 for a lowercase hex digit, else -1.
int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

bool parse_hex_double(const char*& p, const char* end, double& v) {
    const char* s = p;
    uint64_t bits = 0;
    if (s < end && *s == '-') bits = uint64_t(1) << 63, ++s;
    if (end - s < 6 || s[0] != '0' || s[1] != 'x') return false;
    s += 2;
    if (*s == '0') {
        if (std::strncmp(s, "0p+0", 4) != 0) return false;
        std::memcpy(&v, &bits, sizeof v);
        p = s + 4;
        return true;
    }
    if (*s++ != '1') return false;
    uint64_t mant = 0;
    int nibbles = 0;
    if (s < end && *s == '.') {
        ++s;
        for (int d; s < end && (d = hex_digit(*s)) >= 0; ++s) {
            if (++nibbles > 13) return false;
            mant = mant << 4 | static_cast<uint64_t>(d);
        }
        if (nibbles == 0 || (mant & 0xf) == 0) return false;  // no digit, or a trailing zero
        mant <<= 4 * (13 - nibbles);
    }
    if (end - s < 3 || *s++ != 'p' || (*s != '+' && *s != '-')) return false;
    const bool neg_exp = *s++ == '-';
    int64_t e = 0;
    if (s < end && *s == '-') return false;
    if (!parse_int(s, end, e) || (neg_exp && e == 0) || e > (neg_exp ? 1022 : 1023)) return false;
    if (neg_exp) e = -e;
    bits |= uint64_t(e + 1023) << 52 | mant;
    std::memcpy(&v, &bits, sizeof v);
    p = s;
    return true;
}

// The numbers of a timing text, in the form state/session_state.cc prints.
struct Timing {
    double min = 0, max = 0, total = 0;
    int64_t timed = 0;
    std::vector<std::pair<int64_t, double>> overheads;

    std::string text() const {
        std::string out;
        print_hex_double(out, min);
        out += ' ';
        print_hex_double(out, max);
        out += ' ';
        print_hex_double(out, total);
        out += ' ';
        out += std::to_string(timed);
        for (auto& [id, overhead] : overheads) {
            out += ' ';
            out += std::to_string(id);
            out += ':';
            print_hex_double(out, overhead);
        }
        return out;
    }
};

// Parses `text` as a Timing that prints back to exactly `text` (the
// parsers accept only canonical spellings).
bool parse_timing(const std::string& text, Timing& t) {
    const char* p = text.data();
    const char* end = p + text.size();
    auto space = [&] { return p < end && *p++ == ' '; };
    if (!parse_hex_double(p, end, t.min) || !space() || !parse_hex_double(p, end, t.max) || !space() ||
        !parse_hex_double(p, end, t.total) || !space() || !parse_int(p, end, t.timed))
        return false;
    while (p < end) {
        std::pair<int64_t, double> item;
        if (!space() || !parse_int(p, end, item.first) || p == end || *p++ != ':' ||
            !parse_hex_double(p, end, item.second))
            return false;
        t.overheads.push_back(item);
    }
    return true;
}

void put_timing(std::string& out, const std::string& text) {
    Timing t;
    if (!parse_timing(text, t)) {
        put(out, uint64_t(text.size()) << 1);
        out += text;
        return;
    }
    put(out, uint64_t(t.overheads.size()) << 1 | 1);
    put_double(out, t.min);
    put_double(out, t.max);
    put_double(out, t.total);
    put(out, zigzag(t.timed));
    int64_t prev = 0;
    for (auto& [id, overhead] : t.overheads) {
        put(out, zigzag(static_cast<int64_t>(static_cast<uint64_t>(id) - static_cast<uint64_t>(prev))));
        prev = id;
        put_double(out, overhead);
    }
}

std::string get_timing(const char*& p) {
    uint64_t tag = get(p);
    if ((tag & 1) == 0) {
        std::string text(p, tag >> 1);
        p += tag >> 1;
        return text;
    }
    Timing t;
    t.min = get_double(p);
    t.max = get_double(p);
    t.total = get_double(p);
    t.timed = unzigzag(get(p));
    t.overheads.resize(tag >> 1);
    int64_t prev = 0;
    for (auto& [id, overhead] : t.overheads) {
        id = static_cast<int64_t>(static_cast<uint64_t>(prev) + static_cast<uint64_t>(unzigzag(get(p))));
        prev = id;
        overhead = get_double(p);
    }
    return t.text();
}

}  // namespace

uint32_t EntryLog::path_id(const std::string& path) {
    auto [it, inserted] = path_index_.emplace(path, static_cast<uint32_t>(paths_.size()));
    if (inserted) paths_.push_back(path);
    return it->second;
}

void EntryLog::append(const std::string& bytes, size_t i) {
    if (chunks_.empty() || chunks_.back().size() + bytes.size() > kChunk) {
        chunks_.emplace_back();
        chunks_.back().reserve(std::max(kChunk, bytes.size()));
    }
    uint64_t at = (uint64_t(chunks_.size() - 1) << 32) | chunks_.back().size();
    chunks_.back() += bytes;
    if (i == where_.size())
        where_.push_back(at);
    else
        where_[i] = at;
}

void EntryLog::push_back(const Entry& e) {
    std::string bytes;
    const bool repeat = has_last_line_ && e.line == last_line_;
    if (repeat) {
        put(bytes, last_line_at_ << 1 | 1);
    } else {
        put(bytes, uint64_t(e.line.size()) << 1);
        bytes += e.line;
    }
    put(bytes, e.inputs.size());
    for (const Input& in : e.inputs) {
        put(bytes, path_id(in.path));
        put(bytes, static_cast<uint64_t>(in.blob + 1));
    }
    put_timing(bytes, e.timing);
    put(bytes, e.touched_jobs.size());
    int64_t prev = 0;
    for (int64_t id : e.touched_jobs) {
        put(bytes, zigzag(static_cast<int64_t>(static_cast<uint64_t>(id) - static_cast<uint64_t>(prev))));
        prev = id;
    }
    append(bytes, where_.size());
    if (!repeat) {
        last_line_at_ = where_.back();
        last_line_ = e.line;
        has_last_line_ = true;
    }
}

Entry EntryLog::operator[](size_t i) const {
    uint64_t at = where_[i];
    const char* p = chunks_[at >> 32].data() + (at & 0xffffffffu);
    Entry e;
    uint64_t tag = get(p);
    if (tag & 1) {
        const char* q = chunks_[(tag >> 1) >> 32].data() + ((tag >> 1) & 0xffffffffu);
        e.line = line_at(q);
    } else {
        e.line.assign(p, tag >> 1);
        p += tag >> 1;
    }
    e.inputs.resize(get(p));
    for (Input& in : e.inputs) {
        in.path = paths_[get(p)];
        in.blob = static_cast<int64_t>(get(p)) - 1;
    }
    e.timing = get_timing(p);
    e.touched_jobs.resize(get(p));
    int64_t prev = 0;
    for (int64_t& id : e.touched_jobs) {
        id = static_cast<int64_t>(static_cast<uint64_t>(prev) + static_cast<uint64_t>(unzigzag(get(p))));
        prev = id;
    }
    return e;
}

void EntryLog::add_input(size_t i, Input in) {
    Entry e = (*this)[i];
    e.inputs.push_back(std::move(in));
    // Re-encoded at the end; the old bytes stay unused (only a journal
    // read back from a file takes this path, once per input).
    size_t n = where_.size();
    push_back(e);
    where_[i] = where_.back();
    where_.resize(n);
}

}  // namespace rq::state
